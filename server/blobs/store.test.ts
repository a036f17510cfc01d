import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3Server, type TestS3Server } from '../../test/s3-server.js';
import { createS3BlobStore } from './s3.js';
import { type BlobStore, createFsBlobStore } from './store.js';

let s3: TestS3Server;
beforeAll(async () => {
  s3 = await startTestS3Server();
});
afterAll(() => s3?.close());

interface StoreUnderTest {
  store: BlobStore;
  /** Half-written uploads still lying around (none may survive a put, failed or not). */
  leftovers(): Promise<string[]>;
}

const stores: Record<string, () => StoreUnderTest> = {
  'the file store': () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sitefile-blobs-'));
    return {
      store: createFsBlobStore(root),
      leftovers: () => readdir(path.join(root, 'tmp')).catch(() => []),
    };
  },
  'the S3 store': () => {
    const { bucket, endpoint, region, forcePathStyle } = s3.config;
    const client = new S3Client({ endpoint, region, forcePathStyle });
    return {
      store: createS3BlobStore(s3.config),
      async leftovers() {
        const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'uploads/' }));
        return (listed.Contents ?? []).map((object) => object.Key!);
      },
    };
  },
};

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** `bytes` as a stream of 64 KiB chunks, as a socket or a PDF writer would hand them over. */
const streamOf = (bytes: Buffer) =>
  Readable.from(
    (function* () {
      for (let at = 0; at < bytes.length; at += 65_536) yield bytes.subarray(at, at + 65_536);
    })(),
  );

const readAll = async (stream: Readable | undefined) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

describe.each(Object.keys(stores))('%s', (name) => {
  let subject: StoreUnderTest;
  beforeAll(() => {
    subject = stores[name]!();
  });

  it('keeps a buffer under its SHA-256 and gives back its size and bytes', async () => {
    const bytes = Buffer.from('Pier 9 Terminal — RFI 12 response');
    const stored = await subject.store.put(bytes);
    expect(stored).toEqual({ key: sha256(bytes), size: bytes.length });
    expect(await subject.store.stat(stored.key)).toBe(bytes.length);
    expect(await subject.store.readWhole(stored.key)).toEqual(bytes);
    expect(await readAll(await subject.store.read(stored.key))).toEqual(bytes);
  });

  it('streams a file larger than one upload part in and out, and leaves no partial upload', async () => {
    const bytes = randomBytes(11 * 1024 * 1024 + 123);
    const stored = await subject.store.put(streamOf(bytes));
    expect(stored).toEqual({ key: sha256(bytes), size: bytes.length });
    expect(await subject.store.stat(stored.key)).toBe(bytes.length);
    expect(sha256(await readAll(await subject.store.read(stored.key)))).toBe(stored.key);
    expect(sha256((await subject.store.readWhole(stored.key))!)).toBe(stored.key);
    expect(await subject.leftovers()).toEqual([]);
  });

  it('reads an inclusive byte range', async () => {
    const bytes = Buffer.from('0123456789abcdefghij');
    const { key } = await subject.store.put(streamOf(bytes));
    expect((await readAll(await subject.store.read(key, { start: 5, end: 9 }))).toString()).toBe('56789');
    expect((await readAll(await subject.store.read(key, { start: 19, end: 19 }))).toString()).toBe('j');
  });

  it('stores the same bytes once, under one key', async () => {
    const bytes = Buffer.from('the same drawing, filed twice');
    const first = await subject.store.put(bytes);
    const second = await subject.store.put(streamOf(bytes));
    expect(second).toEqual(first);
    expect(await subject.store.readWhole(first.key)).toEqual(bytes);
  });

  it('tells when a blob was written, and deletes it (the blob sweep), a missing one quietly', async () => {
    const bytes = Buffer.from(`an unfiled e-mail's attachment ${randomBytes(8).toString('hex')}`);
    const before = Date.now();
    const { key } = await subject.store.put(bytes);
    const writtenAt = (await subject.store.writtenAt(key))!.getTime();
    // Within the clock resolution of the store (S3 keeps whole seconds).
    expect(writtenAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(writtenAt).toBeLessThanOrEqual(Date.now() + 1000);
    await subject.store.remove(key);
    expect(await subject.store.stat(key)).toBeUndefined();
    expect(await subject.store.writtenAt(key)).toBeUndefined();
    expect(await subject.store.readWhole(key)).toBeUndefined();
    await subject.store.remove(key);
    await subject.store.remove('../../etc/passwd');
  });

  it('answers nothing for a key it does not hold or that is not a key', async () => {
    for (const key of [sha256(Buffer.from('never stored')), '../../etc/passwd', 'A'.repeat(64)]) {
      expect(await subject.store.stat(key)).toBeUndefined();
      expect(await subject.store.read(key)).toBeUndefined();
      expect(await subject.store.readWhole(key)).toBeUndefined();
    }
  });

  it('fails a put whose stream breaks, and keeps no part of it', async () => {
    const broken = Readable.from(
      (async function* () {
        yield randomBytes(9 * 1024 * 1024);
        throw new Error('connection reset while filing');
      })(),
    );
    await expect(subject.store.put(broken)).rejects.toThrow();
    expect(await subject.leftovers()).toEqual([]);
  });
});
