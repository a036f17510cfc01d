/**
 * Streamed CSV exports of a database query (spec: `Accept: text/csv` on list endpoints).
 *
 *   await streamCsv(res, {
 *     db: app.db,
 *     query: sql`select d.id as "uid", d.title as "title", … from … where … order by …`,  // no LIMIT
 *     columns: [{ header: 'uid' }, { header: 'title' }, { header: 'activityCount', integer: true }],
 *     limit: csvRowCap(query.limit),                          // default 100000, larger values clamped
 *     fileName: 'documents.csv',
 *   });
 *   return undefined;                                          // the route's handler has written `res`
 *
 * The query names its columns after the headers and gives text (or integers, for `integer` columns). The
 * cells are finished in SQL — the same expression on both databases — so the two ways of streaming them
 * write the same bytes:
 * - PostgreSQL: `COPY (cells) TO STDOUT (FORMAT csv)` through pg-copy-streams (csv-copy.ts), at the
 *   server's own speed; only the record ends are rewritten (LF → CRLF).
 * - PGlite (no COPY to the client): a server-side cursor fetched in batches, quoted in JS (csv-rows.ts).
 * Either way memory stays flat, the first bytes leave with the first rows, the export waits for 'drain' when
 * the socket is full and stops when the client goes away.
 *
 * The bytes: RFC 4180 with CRLF record ends; a field is quoted exactly when it holds `"`, `,`, CR or LF
 * (PostgreSQL's COPY rule: a lone CR must be quoted, or a spreadsheet starts a new row there); null and
 * empty are both an empty field. A text cell that starts with `=`, `+`, `-`, `@`, tab or CR — or with any
 * whitespace before `=`, `+`, `-`, `@` — gets a leading `'` so spreadsheets do not run it as a formula;
 * integer cells stay numbers. More rows than `limit`: the first `limit` rows, then a final row
 * `# WARNING: truncated at N rows`. Errors before the first byte (bad SQL, lost connection) reject as
 * usual and become a JSON error; later ones cut the response.
 */
import type { Request, Response } from 'express';
import { poolOf } from '../db/client.js';
import { ApiError } from '../errors.js';
import { streamCopyCsv } from './csv-copy.js';
import type { CsvExport } from './csv-format.js';
import { streamCursorCsv } from './csv-rows.js';

export type { CsvColumn } from '../db/csv-cells.js';
export type { CsvExport } from './csv-format.js';

/** The spec's row cap for CSV exports: default and maximum. */
export const CSV_MAX_ROWS = 100_000;

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

/** Stream the export into `res` (status 200, headers, body); resolves when the response has ended. */
export async function streamCsv(res: Response, options: CsvExport): Promise<void> {
  const pool = poolOf(options.db);
  if (pool) await streamCopyCsv(res, pool, options);
  else await streamCursorCsv(res, options);
}
