/**
 * CSV exports of a database query (spec: `Accept: text/csv` on list endpoints), as a stream of chunks that
 * knows nothing of HTTP: a service returns it as a `CsvDownload`, and the route sends it (http/csv.ts).
 *
 *   return {
 *     fileName: 'documents.csv',
 *     chunks: csvChunks({
 *       db: app.db,
 *       from: sql`from … where … order by …`,                  // no LIMIT
 *       columns: [{ header: 'uid', value: sql`d.id` }, { header: 'activityCount', value: …, integer: true }],
 *       limit: csvRowCap(query.limit),                          // default 100000, larger values clamped
 *     }),
 *   };
 *
 * The columns give text (or integers, for `integer` columns). The cells are finished in SQL (csv-cells.ts) and
 * read through `COPY (cells) TO STDOUT (FORMAT csv)` with pg-copy-streams (csv-copy.ts), at the server's own
 * speed, one snapshot; only the record ends are rewritten (LF → CRLF). The bytes are handed on as COPY gives
 * them; what the client has not taken yet waits in a SpillBuffer (db/spill.ts: 1 MB in memory, the rest in an
 * unnamed temporary file), so COPY never waits for the client and the connection is released when COPY ends:
 * a client that reads slowly or not at all never holds a pooled connection past the query (issue 28); a reader
 * that stops early (`return()`, or leaving a `for await`) stops the COPY and frees the file.
 *
 * The bytes: the header row, then RFC 4180 records with CRLF ends; a field is quoted exactly when it holds `"`,
 * `,`, CR or LF (PostgreSQL's COPY rule: a lone CR must be quoted, or a spreadsheet starts a new row there);
 * null and empty are both an empty field. A text cell that starts with `=`, `+`, `-`, `@`, tab or CR — or with
 * any whitespace before `=`, `+`, `-`, `@` — gets a leading `'` so spreadsheets do not run it as a formula;
 * integer cells stay numbers. More rows than `limit`: the first `limit` rows, then a final row
 * `# WARNING: truncated at N rows`. The first chunk (the header row) comes once the query has answered, so an
 * error before it (bad SQL, lost connection) rejects the first `next()`; later ones reject a later one.
 */
import { poolOf } from './connection.js';
import type { CsvExport } from './csv-copy.js';

export type { CsvColumn } from './csv-cells.js';
export type { CsvExport } from './csv-copy.js';

/** An export as a service hands it to whoever sends it: its download name and its bytes. */
export interface CsvDownload {
  /** Suggested file name; the sender makes it safe for its transport. */
  fileName: string;
  chunks: AsyncIterable<string | Buffer>;
}

/** The export's bytes, through COPY. */
export async function* csvChunks(options: CsvExport): AsyncGenerator<string | Buffer> {
  // Imported here so that a start-up never loads node-postgres' COPY streams (a tenth of a second).
  const { copyCsvChunks } = await import('./csv-copy.js');
  yield* copyCsvChunks(poolOf(options.db), options);
}
