import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface BlobInfo {
  key: string;
  size: number;
}

/** Content-addressed storage: the key is the SHA-256 of the bytes. In `DATA_DIR/blobs` (below) or in an
 *  S3-compatible bucket (`s3.ts`), as configured. */
export interface BlobStore {
  put(data: Buffer | Readable): Promise<BlobInfo>;
  /** Size of a stored blob, or undefined when there is none. */
  stat(key: string): Promise<number | undefined>;
  /** A stream of the bytes (optionally a byte range, inclusive), or undefined when there is none. */
  read(key: string, range?: { start: number; end: number }): Promise<Readable | undefined>;
  /** The whole blob in one buffer (one allocation, for files read whole anyway), or undefined when there is none. */
  readWhole(key: string): Promise<Buffer | undefined>;
  /** When the blob was last written (a put of the same bytes writes it again), or undefined when there is none. */
  writtenAt(key: string): Promise<Date | undefined>;
  /** Deletes the blob; nothing happens when there is none. Only the sweep (sweep.ts) calls it. */
  remove(key: string): Promise<void>;
}

export const isBlobKey = (key: string) => /^[0-9a-f]{64}$/.test(key);

export function createFsBlobStore(root: string): BlobStore {
  const fileOf = (key: string) => path.join(root, key.slice(0, 2), key.slice(2, 4), key);
  const statOf = async (key: string) => {
    if (!isBlobKey(key)) return undefined;
    try {
      return await stat(fileOf(key));
    } catch {
      return undefined;
    }
  };
  return {
    async put(data) {
      const tmpDir = path.join(root, 'tmp');
      await mkdir(tmpDir, { recursive: true });
      const tmp = path.join(tmpDir, randomUUID());
      const hash = createHash('sha256');
      let size = 0;
      try {
        await pipeline(
          Buffer.isBuffer(data) ? Readable.from([data]) : data,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              hash.update(chunk);
              size += chunk.length;
              yield chunk;
            }
          },
          createWriteStream(tmp),
        );
        const key = hash.digest('hex');
        const file = fileOf(key);
        await mkdir(path.dirname(file), { recursive: true });
        await rename(tmp, file);
        return { key, size };
      } finally {
        await rm(tmp, { force: true });
      }
    },
    async stat(key) {
      return (await statOf(key))?.size;
    },
    async writtenAt(key) {
      return (await statOf(key))?.mtime;
    },
    async remove(key) {
      if (isBlobKey(key)) await rm(fileOf(key), { force: true });
    },
    async read(key, range) {
      if (!isBlobKey(key) || (await this.stat(key)) === undefined) return undefined;
      return createReadStream(fileOf(key), range);
    },
    async readWhole(key) {
      if (!isBlobKey(key)) return undefined;
      try {
        return await readFile(fileOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
  };
}
