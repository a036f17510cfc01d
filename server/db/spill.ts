import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Bytes an export keeps in memory before it moves to a temporary file. */
export const SPILL_MEMORY_BYTES = 1024 * 1024;
/** Bytes per chunk read back from the temporary file. */
const READ_BYTES = 256 * 1024;

/**
 * Bytes written once and read back once: in memory up to `SPILL_MEMORY_BYTES`, then in an unnamed temporary
 * file (unlinked as soon as it is open, so nothing is left behind, whatever happens to the process).
 * `read()` hands the bytes back in order and closes the file at its end or when the reader stops.
 */
export class SpillBuffer {
  private parts: Buffer[] = [];
  private held = 0;
  private file: FileHandle | undefined;
  private size = 0;

  async write(bytes: Buffer | string): Promise<void> {
    const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    if (data.length === 0) return;
    this.size += data.length;
    if (!this.file && this.held + data.length <= SPILL_MEMORY_BYTES) {
      this.parts.push(data);
      this.held += data.length;
      return;
    }
    if (!this.file) {
      const name = path.join(tmpdir(), `sitefile-export-${randomUUID()}`);
      this.file = await open(name, 'wx+', 0o600);
      await unlink(name);
      const held = Buffer.concat(this.parts);
      this.parts = [];
      this.held = 0;
      await this.file.write(held);
    }
    await this.file.write(data);
  }

  async *read(): AsyncGenerator<Buffer> {
    try {
      if (!this.file) {
        yield* this.parts;
        return;
      }
      for (let at = 0; at < this.size; ) {
        const { bytesRead, buffer } = await this.file.read(
          Buffer.alloc(Math.min(READ_BYTES, this.size - at)),
          0,
          undefined,
          at,
        );
        if (bytesRead === 0) return;
        at += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await this.discard();
    }
  }

  /** Frees the memory or closes the file (a buffer nobody will read). */
  async discard(): Promise<void> {
    this.parts = [];
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }
}
