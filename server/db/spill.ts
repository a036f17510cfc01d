import { randomUUID } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Bytes not yet taken by the reader that an export keeps in memory; more go to a temporary file. */
export const SPILL_MEMORY_BYTES = 1024 * 1024;
/** Bytes per chunk read back from the temporary file. */
const READ_BYTES = 256 * 1024;

/** Bytes waiting for the reader: in memory, or a range of the temporary file. */
type Waiting = { bytes: Buffer } | { from: number; to: number };

/**
 * Bytes written at the writer's pace and read at the reader's, in order: the writer never waits for the
 * reader. What the reader has not taken yet stays in memory up to `SPILL_MEMORY_BYTES`, the rest goes to an
 * unnamed temporary file (unlinked as soon as it is open, so nothing is left behind, whatever happens to the
 * process). A reader that keeps up never touches the file. The writer ends with `end()` or `fail(error)`:
 * the reader gets every byte written before, then the end or the error.
 */
export class SpillBuffer {
  private readonly waiting: Waiting[] = [];
  /** Bytes of the waiting parts held in memory. */
  private held = 0;
  private file: FileHandle | undefined;
  /** Bytes written to the file so far (it only grows: its start is freed when the file is closed). */
  private fileSize = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;
  /** Wakes the reader waiting for bytes. */
  private wake: (() => void) | undefined;

  async write(bytes: Buffer | string): Promise<void> {
    const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    if (data.length === 0) return;
    if (this.held + data.length <= SPILL_MEMORY_BYTES) {
      this.waiting.push({ bytes: data });
      this.held += data.length;
    } else {
      await this.append(data);
    }
    this.woken();
  }

  /** The writer is done: the reader ends after the last byte. */
  end(): void {
    this.ended = true;
    this.woken();
  }

  /** The writer failed: the reader gets `error` after the bytes written before it. */
  fail(error: unknown): void {
    this.failure = { error };
    this.woken();
  }

  /** The bytes in order, each call's part as large as what is waiting (up to a memory's or a file read's
   *  worth): a write per row would cost more than the rows. */
  async *read(): AsyncGenerator<Buffer> {
    for (;;) {
      const first = this.waiting[0];
      if (first) yield 'bytes' in first ? this.takeHeld() : await this.takeFromFile(first);
      else if (this.failure) throw this.failure.error;
      else if (this.ended) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  /** Frees the memory and closes the file (after any write or read on it ends). */
  async discard(): Promise<void> {
    this.waiting.length = 0;
    this.held = 0;
    const file = this.file;
    this.file = undefined;
    await file?.close();
  }

  private woken(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private async append(data: Buffer): Promise<void> {
    if (!this.file) {
      const name = path.join(tmpdir(), `sitefile-export-${randomUUID()}`);
      this.file = await open(name, 'wx+', 0o600);
      await unlink(name);
    }
    const from = this.fileSize;
    await this.file.write(data, 0, data.length, from);
    this.fileSize += data.length;
    const last = this.waiting.at(-1);
    if (last && 'to' in last && last.to === from) last.to = this.fileSize;
    else this.waiting.push({ from, to: this.fileSize });
  }

  /** The memory parts at the front, as one buffer. */
  private takeHeld(): Buffer {
    const parts: Buffer[] = [];
    for (let first = this.waiting[0]; first && 'bytes' in first; first = this.waiting[0]) {
      parts.push(first.bytes);
      this.waiting.shift();
    }
    const bytes = Buffer.concat(parts);
    this.held -= bytes.length;
    return bytes;
  }

  /** The next piece of the file range at the front (which the writer may still be extending). */
  private async takeFromFile(range: { from: number; to: number }): Promise<Buffer> {
    const file = this.file as FileHandle;
    const size = Math.min(READ_BYTES, range.to - range.from);
    const { bytesRead, buffer } = await file.read(Buffer.alloc(size), 0, size, range.from);
    if (bytesRead === 0) throw new Error('export spill file ended early');
    range.from += bytesRead;
    if (range.from === range.to) this.waiting.shift();
    return buffer.subarray(0, bytesRead);
  }
}
