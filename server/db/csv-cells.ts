// The cells of a CSV export finished in SQL, for PostgreSQL's COPY: text neutralised against spreadsheet
// formulas, empty text made null (COPY would quote an empty string; the export writes it bare), integers as
// they are.
import { type SQL, sql } from 'drizzle-orm';

export interface CsvColumn {
  /** Header row name; part of the export's contract. */
  header: string;
  /** The cell: a text expression (or an integer one, with `integer`) over the export query's FROM. */
  value: SQL;
  /** An integer cell, written as it is (never neutralised). */
  integer?: boolean;
}

// JavaScript's `\s` (Unicode White_Space and the BOM), spelt out so PostgreSQL's regex means the same.
const WHITESPACE = String.raw`\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff`;
const FORMULA_START = String.raw`^([\t\r]|[${WHITESPACE}]*[=+@-])`;
// First characters that can begin a formula-like cell: a cheap test before the regex, which most cells skip.
const FORMULA_FIRST_CHARS = [
  ...[9, 10, 11, 12, 13, 32, 43, 45, 61, 64, 160, 5760],
  ...Array.from({ length: 11 }, (_, i) => 0x2000 + i),
  ...[0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff],
].join(', ');

/** The finished cell of column number `i` (named `c<i>` in the inner query and in the result). */
function cellOf(column: CsvColumn, i: number): SQL {
  const ref = `q.c${i}`;
  if (column.integer) return sql.raw(`${ref} as c${i}`);
  return sql.raw(
    `case when ascii(${ref}) in (${FORMULA_FIRST_CHARS}) and ${ref} ~ '${FORMULA_START}' then '''' || ${ref} ` +
      `else nullif(${ref}, '') end as c${i}`,
  );
}

/** The export's values as the query gives them, in the columns' order (named `c<i>`), at most `rows` rows. */
export function csvValuesQuery(columns: readonly CsvColumn[], from: SQL, rows: number): SQL {
  const values = columns.map((column, i) => sql`${column.value} as ${sql.raw(`c${i}`)}`);
  return sql`select ${sql.join(values, sql`, `)} ${from} limit ${rows}`;
}

/**
 * The export's rows as finished cells, in the columns' order, at most `rows` of them. `from` is the rest of the query after its select
 * list (`from … where … order by …`). The cells are computed over the values as a subquery so that a costly
 * value (a subquery of its own) runs once per row.
 */
export function csvCellsQuery(columns: readonly CsvColumn[], from: SQL, rows: number): SQL {
  return sql`select ${sql.join(columns.map(cellOf), sql`, `)} from (${csvValuesQuery(columns, from, rows)}) as q`;
}
