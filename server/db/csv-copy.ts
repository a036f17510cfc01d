// The CSV export of the finished cells (csv-cells.ts): `COPY (cells) TO STDOUT (FORMAT csv)` through
// pg-copy-streams, on a connection of its own, one snapshot, read at the database's speed through a SpillBuffer
// that holds what the client has not taken yet.
// COPY quotes a field when it holds `"`, `,`, CR or LF and ends records with LF; CsvRecords turns those ends
// into CRLF and cuts the stream after `limit` records (the query asks for one more, which says whether the
// export was cut). The header row and the truncation notice are written here by the same rule.
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { SQL } from 'drizzle-orm';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Db } from './connection.js';
import { type CsvColumn, csvCellsQuery } from './csv-cells.js';
import { SpillBuffer } from './spill.js';
import { withInlineParams } from './sql-text.js';

export interface CsvExport {
  db: Db;
  /** The rest of the query after its select list, `from … where … order by …` without LIMIT: the export's
   *  rows (from the request's cursor on, if it has one). */
  from: SQL;
  columns: readonly CsvColumn[];
  /** Row cap, already passed through `csvRowCap`. */
  limit: number;
}

const CRLF = '\r\n';

/** One CSV field by COPY's rule (for what COPY does not write: the header row). */
function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record: null as an empty field (a cell is never empty text), others by COPY's quoting rule. */
const csvRecord = (cells: readonly unknown[]) =>
  cells.map((cell) => (cell === null ? '' : csvField(String(cell)))).join(',') + CRLF;

const headerRow = (columns: readonly CsvColumn[]) => csvRecord(columns.map((column) => column.header));
const truncationRow = (limit: number) => `# WARNING: truncated at ${limit} rows${CRLF}`;

const QUOTE = 0x22;
const LF = 0x0a;
const CRLF_BYTES = Buffer.from(CRLF);

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
    if (stream.errored) throw stream.errored;
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

/** The statement COPY runs: the cells query with its parameters written in (COPY takes none). */
const cellsStatement = (options: CsvExport) =>
  withInlineParams(csvCellsQuery(options.columns, options.from, options.limit + 1));

/** The export around COPY's output: the header row, the records, the truncation row when it was cut. */
async function* aroundRecords(output: AsyncIterator<Buffer>, options: CsvExport): AsyncGenerator<string | Buffer> {
  let next = await output.next(); // a failing COPY rejects here, before the header
  yield headerRow(options.columns);
  const records = new CsvRecords(options.limit);
  while (!next.done) {
    const part = records.take(next.value);
    if (part.length > 0) yield part;
    next = await output.next();
  }
  if (records.truncated) yield truncationRow(options.limit);
}

async function* streamData(stream: Readable): AsyncGenerator<Buffer> {
  for (let data = await nextData(stream); data !== null; data = await nextData(stream)) yield data;
}

/**
 * PostgreSQL: COPY is read at the database's own speed, whatever the client's, through a SpillBuffer: the
 * bytes are handed on as they come, and what a slow client has not taken yet waits in memory (1 MB) and then a
 * temporary file. The connection goes back to the pool when COPY ends, not when the client has read it all:
 * a client that reads slowly, or not at all, never holds a pooled connection past the query; statement_timeout
 * bounds the COPY. A reader that stops early (`return()`) stops the COPY and frees the file.
 */
export async function* copyCsvChunks(pool: pg.Pool, options: CsvExport): AsyncGenerator<string | Buffer> {
  const spill = new SpillBuffer();
  const stop = new AbortController();
  const copying = copyToSpill(pool, options, spill, stop.signal);
  try {
    yield* spill.read();
  } finally {
    stop.abort();
    await copying;
    await spill.discard();
  }
}

/** Runs the COPY into `spill` and ends it there (`end`, or `fail` with the error), or stops at `stop`. */
async function copyToSpill(pool: pg.Pool, options: CsvExport, spill: SpillBuffer, stop: AbortSignal): Promise<void> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    spill.fail(error);
    return;
  }
  // A COPY left half-read leaves the connection unusable: such a client is discarded, not returned.
  let complete = false;
  let copy: Readable | undefined;
  const stopCopy = () => copy?.destroy(new Error('export stopped: its reader left'));
  stop.addEventListener('abort', stopCopy);
  try {
    // Nothing before the first row, for this one statement. An export is read in its list's order, which an
    // index gives from its first row; left to itself the planner often prefers to read the whole list and sort
    // it (cheaper in all, by its costs), and the first byte waits for the sort: 150 ms of 250 for a 100,000-row
    // activity export (a list without such an index is still sorted). And a large export's cost starts JIT
    // compilation, which on this simple per-row work costs more than it saves: 200-800 ms before the first row
    // of 100,000 admin documents, whose whole COPY takes 700 ms without it.
    await client.query('begin; set local enable_sort = off; set local jit = off');
    copy = client.query(copyTo(`COPY (${cellsStatement(options)}) TO STDOUT (FORMAT csv)`));
    // Seen by nextData through `errored`: an error while a part is being spilled must not go unheard.
    copy.on('error', () => undefined);
    for await (const part of aroundRecords(streamData(copy), options)) await spill.write(part);
    await client.query('commit');
    complete = true;
    spill.end();
  } catch (error) {
    spill.fail(error);
  } finally {
    stop.removeEventListener('abort', stopCopy);
    if (!complete) {
      // The COPY failed mid-way, or its reader left. Ending the connection under a running COPY makes the
      // client report "Connection terminated": expected here, and nobody waits for it.
      client.on('error', () => undefined);
      copy?.destroy();
    }
    client.release(!complete);
  }
}
