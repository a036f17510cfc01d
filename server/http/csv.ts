/**
 * Streamed CSV exports of a database query (spec: `Accept: text/csv` on list endpoints).
 *
 *   const limit = csvRowCap(query.limit);                     // default 100000, larger values clamped
 *   await streamCsv(res, {
 *     db: app.db,
 *     query: sql`select … from … where … order by …`,       // no LIMIT: the helper adds `LIMIT cap + 1`
 *     columns: [{ header: 'id', value: (row) => row.number }, { header: 'assignees', value: (row) => names }],
 *     limit,
 *     fileName: 'submittals-prj_123.csv',
 *   });
 *   return undefined;                                          // the route's handler has written `res`
 *
 * - Rows come from a server-side cursor (`DECLARE … NO SCROLL CURSOR` + `FETCH n` in a read-only
 *   transaction; the same on PGlite and PostgreSQL), so memory stays flat whatever the row count and the
 *   first bytes leave as soon as the first batch is fetched. Between batches it waits for 'drain' when the
 *   socket is full, and stops (closing the cursor) when the client goes away.
 * - Cells: null/undefined → empty; Date → ISO 8601; arrays → their items joined by `; ` (objects inside
 *   should be mapped to strings by the column's `value`); other objects → JSON. RFC 4180 quoting via
 *   csv-stringify; text cells beginning with `=`, `+`, `-`, `@`, tab or CR get a leading `'` so spreadsheets
 *   do not run them as formulas (numbers stay numbers).
 * - More rows than `limit`: the first `limit` rows, then a final row `# WARNING: truncated at N rows`.
 * - Errors before the first byte (bad SQL, lost connection) reject as usual and become a JSON error;
 *   later ones cut the response (the error handler destroys a started stream).
 */
import { once } from 'node:events';
import { stringify } from 'csv-stringify/sync';
import { type SQL, sql } from 'drizzle-orm';
import type { Request, Response } from 'express';
import type { Db } from '../db/client.js';
import { ApiError } from './errors.js';

/** The spec's row cap for CSV exports: default and maximum. */
export const CSV_MAX_ROWS = 100_000;

/** Rows fetched from the cursor per round trip. */
const BATCH_SIZE = 1000;

export interface CsvColumn<Row> {
  /** Stable column name for the header row; part of the export's contract. */
  header: string;
  value: (row: Row) => unknown;
}

export interface CsvExport<Row> {
  db: Db;
  /** The full, ordered query without LIMIT. */
  query: SQL;
  columns: readonly CsvColumn<Row>[];
  /** Row cap, already passed through `csvRowCap`. */
  limit: number;
  /** Download name for `Content-Disposition`; unsafe characters are replaced. */
  fileName: string;
  batchSize?: number;
}

/** A requested CSV row cap: absent → 100000, larger → clamped to 100000 (the spec answers 200, not 400). */
export const csvRowCap = (requested: number | undefined): number =>
  requested === undefined ? CSV_MAX_ROWS : Math.min(requested, CSV_MAX_ROWS);

const JSON_PAGE_DEFAULT = 25;
const JSON_PAGE_MAX = 50;

/** The JSON page size of a list that also exports CSV: its schema accepts any positive limit (CSV takes up to
 *  100000 rows), so the JSON bound is checked here — absent → 25, above 50 → 400 naming `limit`. */
export function jsonPageSize(requested: number | undefined): number {
  if (requested === undefined) return JSON_PAGE_DEFAULT;
  if (requested > JSON_PAGE_MAX) {
    throw new ApiError('validation_failed', 'Invalid query parameter: limit', {
      details: [{ path: 'limit', message: `limit must be an integer from 1 to ${JSON_PAGE_MAX}` }],
    });
  }
  return requested;
}

/** Whether the request prefers CSV to JSON: `Accept` negotiated with its q-values (`text/csv;q=0` is a refusal,
 *  equal preference goes to the type listed first); no `Accept` or no match answers JSON. */
export const wantsCsv = (req: Pick<Request, 'accepts'>): boolean =>
  req.accepts(['application/json', 'text/csv']) === 'text/csv';

const cellOf = (value: unknown): string | number | boolean => {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((item) => String(cellOf(item))).join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
};

const csvLines = (records: (string | number | boolean)[][]): string =>
  stringify(records, { escape_formulas: true, record_delimiter: '\r\n' });

const safeFileName = (name: string): string => name.replace(/[^\w.-]+/g, '_').slice(0, 150) || 'export.csv';

/** Wait until the socket can take more, or the client has gone; true when it is still there. */
async function writable(res: Response): Promise<boolean> {
  if (res.destroyed || res.writableEnded) return false;
  if (!res.writableNeedDrain) return true;
  const gone = new AbortController();
  await Promise.race([
    once(res, 'drain', { signal: gone.signal }).catch(() => undefined),
    once(res, 'close', { signal: gone.signal }).catch(() => undefined),
  ]);
  gone.abort();
  return !res.destroyed;
}

type FetchResult<Row> = { rows: Row[] };

/** Stream `query` as CSV into `res` (status 200, headers, body); resolves when the response has ended. */
export async function streamCsv<Row extends Record<string, unknown>>(
  res: Response,
  options: CsvExport<Row>,
): Promise<void> {
  const { db, columns, limit } = options;
  const batchSize = options.batchSize ?? BATCH_SIZE;
  const toRecord = (row: Row) => columns.map((column) => cellOf(column.value(row)));
  await db.transaction(
    async (tx) => {
      await tx.execute(sql`declare csv_export no scroll cursor for ${options.query} limit ${limit + 1}`);
      const fetchBatch = async () =>
        ((await tx.execute(sql.raw(`fetch ${batchSize} from csv_export`))) as unknown as FetchResult<Row>).rows;
      let batch = await fetchBatch();
      res.status(200);
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="${safeFileName(options.fileName)}"`);
      res.setHeader('Cache-Control', 'no-store');
      res.write(csvLines([columns.map((column) => column.header)]));
      let written = 0;
      let truncated = false;
      while (batch.length > 0) {
        const room = limit - written;
        if (batch.length > room) truncated = true;
        const rows = truncated ? batch.slice(0, room) : batch;
        written += rows.length;
        if (rows.length > 0) res.write(csvLines(rows.map(toRecord)));
        if (truncated || batch.length < batchSize || !(await writable(res))) break;
        batch = await fetchBatch();
      }
      await tx.execute(sql.raw('close csv_export'));
      if (res.destroyed) return;
      if (truncated) res.write(csvLines([[`# WARNING: truncated at ${limit} rows`]]));
      res.end();
    },
    { accessMode: 'read only' },
  );
}
