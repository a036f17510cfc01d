// The CSV export on PostgreSQL: `COPY (finished cells) TO STDOUT (FORMAT csv)` through pg-copy-streams, on a
// connection of its own. COPY quotes exactly as csvField does and ends records with LF; CsvRecords turns
// those ends into CRLF and cuts the stream after `limit` records (the query asks for one more, which says
// whether the export was cut).
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { csvCellsQuery } from './csv-cells.js';
import { type CsvExport, headerRow, truncationRow } from './csv-format.js';
import { withInlineParams } from './sql-text.js';

const QUOTE = 0x22;
const LF = 0x0a;
const CRLF_BYTES = Buffer.from('\r\n');

/**
 * COPY's CSV output, chunk by chunk, as the export's bytes. An LF is a record end exactly when an even number
 * of quotes came before it (inside a quoted field quotes come in pairs), so the state between chunks is one
 * flag and the count of records.
 */
export class CsvRecords {
  private inQuotes = false;
  private records = 0;
  /** Bytes came after the `limit`th record: the export was cut. */
  truncated = false;

  constructor(private readonly limit: number) {}

  /** This chunk's part of the export (empty once `limit` records are out). */
  take(chunk: Buffer): Buffer {
    if (this.records >= this.limit) {
      if (chunk.length > 0) this.truncated = true;
      return Buffer.alloc(0);
    }
    const parts: Buffer[] = [];
    let start = 0;
    let pos = 0;
    let nextQuote = chunk.indexOf(QUOTE);
    while (pos < chunk.length) {
      if (this.inQuotes) {
        const close = chunk.indexOf(QUOTE, pos);
        if (close === -1) break;
        this.inQuotes = false;
        pos = close + 1;
        nextQuote = chunk.indexOf(QUOTE, pos);
        continue;
      }
      const end = chunk.indexOf(LF, pos);
      if (nextQuote !== -1 && (end === -1 || nextQuote < end)) {
        this.inQuotes = true;
        pos = nextQuote + 1;
        continue;
      }
      if (end === -1) break;
      parts.push(chunk.subarray(start, end), CRLF_BYTES);
      start = pos = end + 1;
      this.records += 1;
      if (this.records === this.limit) {
        if (pos < chunk.length) this.truncated = true;
        return Buffer.concat(parts);
      }
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
    return Buffer.concat(parts);
  }
}

/** All the data the stream holds (waiting for some when it holds none); null at its end. One write per
 *  call, however many rows arrived meanwhile: a write per row costs more than the rows. */
async function nextData(stream: Readable): Promise<Buffer | null> {
  for (;;) {
    const data = stream.read() as Buffer | null;
    if (data !== null) return data;
    if (stream.readableEnded) return null;
    const settled = new AbortController();
    await Promise.race([
      once(stream, 'readable', { signal: settled.signal }).catch((error: unknown) => {
        if (!settled.signal.aborted) throw error; // a stream error, not our own abort
      }),
      once(stream, 'end', { signal: settled.signal }).catch(() => undefined),
    ]).finally(() => settled.abort());
  }
}

export async function* copyCsvChunks(pool: pg.Pool, options: CsvExport): AsyncGenerator<string | Buffer> {
  const statement = withInlineParams(csvCellsQuery(options.columns, options.from, options.limit));
  const client = await pool.connect();
  // A COPY left half-read leaves the connection unusable: such a client is discarded, not returned.
  let complete = false;
  let copy: Readable | undefined;
  try {
    copy = client.query(copyTo(`COPY (${statement}) TO STDOUT (FORMAT csv)`));
    let data = await nextData(copy); // a bad query rejects here, before the first chunk
    yield headerRow(options.columns);
    const records = new CsvRecords(options.limit);
    while (data !== null) {
      const part = records.take(data);
      if (part.length > 0) yield part;
      data = await nextData(copy);
    }
    complete = true;
    if (records.truncated) yield truncationRow(options.limit);
  } finally {
    if (!complete && copy) {
      // The reader stopped (or the COPY failed) mid-way. Ending the connection under a running COPY makes the
      // stream and the client report "Connection terminated": expected here, and nobody waits for either.
      copy.on('error', () => undefined);
      client.on('error', () => undefined);
      copy.destroy();
    }
    client.release(!complete);
  }
}
