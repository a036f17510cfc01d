import { createHash, randomUUID } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Config } from '../config.js';
import { type BlobStore, isBlobKey } from './store.js';

/** Parts of a streamed upload: S3's minimum part size, a few in flight. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;

const isMissing = (err: unknown) =>
  (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * Blobs in an S3-compatible bucket, under `blobs/<sha256>`. A stream is uploaded (multipart, never held in
 * memory) to `uploads/<uuid>` while it is hashed, then copied to its content address: the address is known
 * only at the end. A buffer goes straight to its address. The SDK is imported on first use, so a server on
 * the file store never loads it.
 */
export function createS3BlobStore(config: S3Config): BlobStore {
  let loading: Promise<{ client: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | undefined;
  const connect = () => {
    loading ??= import('@aws-sdk/client-s3').then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        // The content hash already proves every blob's bytes; the SDK's default CRC trailers in aws-chunked
        // bodies are refused by several S3-compatible servers.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
    return loading;
  };
  const Bucket = config.bucket;
  const objectOf = (key: string) => `blobs/${key}`;

  async function putStream(data: Readable) {
    const [{ client, sdk }, { Upload }] = await Promise.all([connect(), import('@aws-sdk/lib-storage')]);
    const hash = createHash('sha256');
    let size = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    const staged = `uploads/${randomUUID()}`;
    const upload = new Upload({
      client,
      params: { Bucket, Key: staged, Body: hashing },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
    });
    await Promise.all([pipeline(data, hashing), upload.done()]);
    try {
      const key = hash.digest('hex');
      await client.send(new sdk.CopyObjectCommand({ Bucket, Key: objectOf(key), CopySource: `${Bucket}/${staged}` }));
      return { key, size };
    } finally {
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: staged }));
    }
  }

  async function head(key: string) {
    if (!isBlobKey(key)) return undefined;
    const { client, sdk } = await connect();
    try {
      return await client.send(new sdk.HeadObjectCommand({ Bucket, Key: objectOf(key) }));
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async function get(key: string, range?: { start: number; end: number }) {
    if (!isBlobKey(key)) return undefined;
    const { client, sdk } = await connect();
    const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
    try {
      return (await client.send(new sdk.GetObjectCommand({ Bucket, Key: objectOf(key), Range }))).Body;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  return {
    async put(data) {
      if (!Buffer.isBuffer(data)) return putStream(data);
      const { client, sdk } = await connect();
      const key = createHash('sha256').update(data).digest('hex');
      await client.send(new sdk.PutObjectCommand({ Bucket, Key: objectOf(key), Body: data }));
      return { key, size: data.length };
    },
    async stat(key) {
      return (await head(key))?.ContentLength;
    },
    async writtenAt(key) {
      return (await head(key))?.LastModified;
    },
    async remove(key) {
      if (!isBlobKey(key)) return;
      const { client, sdk } = await connect();
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: objectOf(key) }));
    },
    async read(key, range) {
      // On Node.js the SDK's body is the response stream itself.
      return (await get(key, range)) as Readable | undefined;
    },
    async readWhole(key) {
      const body = await get(key);
      if (!body) return undefined;
      const bytes = await body.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
  };
}
