// What both ways of reading an export share: its request, the field quoting and the rows around the records.
// See csv-export.ts for the export as a whole.
import type { SQL } from 'drizzle-orm';
import type { Db } from './connection.js';
import type { CsvColumn } from './csv-cells.js';

export interface CsvExport {
  db: Db;
  /** The rest of the query after its select list: `from … where … order by …`, without LIMIT. */
  from: SQL;
  columns: readonly CsvColumn[];
  /** Row cap, already passed through `csvRowCap`. */
  limit: number;
}

const QUOTE_NEEDED = /[",\r\n]/;

/** One CSV field as the export writes it (the same rule as PostgreSQL's COPY). */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return QUOTE_NEEDED.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const CRLF = '\r\n';
export const headerRow = (columns: readonly CsvColumn[]) =>
  columns.map((column) => csvField(column.header)).join(',') + CRLF;
export const truncationRow = (limit: number) => `# WARNING: truncated at ${limit} rows${CRLF}`;
