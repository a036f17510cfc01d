// What both ways of streaming an export share: the cells finished in SQL, the field quoting, the response's
// start and the wait for a full socket. See csv.ts for the export as a whole.
import { once } from 'node:events';
import type { SQL } from 'drizzle-orm';
import type { Response } from 'express';
import type { Db } from '../db/client.js';
import type { CsvColumn } from '../db/csv-cells.js';

export interface CsvExport {
  db: Db;
  /** The rest of the query after its select list: `from … where … order by …`, without LIMIT. */
  from: SQL;
  columns: readonly CsvColumn[];
  /** Row cap, already passed through `csvRowCap`. */
  limit: number;
  /** Download name for `Content-Disposition`; unsafe characters are replaced. */
  fileName: string;
}

const QUOTE_NEEDED = /[",\r\n]/;

/** One CSV field as the export writes it (the same rule as PostgreSQL's COPY). */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return QUOTE_NEEDED.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const CRLF = '\r\n';
export const truncationRow = (limit: number) => `# WARNING: truncated at ${limit} rows${CRLF}`;

const safeFileName = (name: string): string => name.replace(/[^\w.-]+/g, '_').slice(0, 150) || 'export.csv';

/** Status, headers and the header row: called once the first rows have come (or none will). */
export function startCsvResponse(res: Response, options: CsvExport): void {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${safeFileName(options.fileName)}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.write(options.columns.map((column) => csvField(column.header)).join(',') + CRLF);
}

/** Wait until the socket can take more, or the client has gone; true when it is still there. */
export async function writable(res: Response): Promise<boolean> {
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
