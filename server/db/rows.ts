import type { SQL } from 'drizzle-orm';
import { z } from 'zod';

/** An object schema refuses columns it does not name: a column renamed in SQL but not in the schema fails. */
const strictForms = new WeakMap<z.ZodObject, z.ZodType>();
function strictFormOf(schema: z.ZodType): z.ZodType {
  if (!(schema instanceof z.ZodObject)) return schema;
  let strict = strictForms.get(schema);
  if (!strict) {
    strict = schema.strict();
    strictForms.set(schema, strict);
  }
  return strict;
}

/**
 * Checks rows against their schema. `everyRow` (under the test runner, which sets NODE_ENV=test) checks each
 * row; otherwise the first row of each column set a schema meets, once per process. A renamed, missing or
 * extra column is wrong on every row of every request alike, so one check finds it, where checking rows on each
 * request (a page of submittals: nested arrays of approvers, recipients, findings) would be paid every time.
 * The tests, which run every query, also catch a value of the wrong type on any row.
 */
export function rowChecker(everyRow: boolean): (schema: z.ZodType, rows: readonly unknown[]) => void {
  // The column sets (the first row's keys, in order) already found good for each schema.
  const checkedColumns = new WeakMap<z.ZodType, Set<string>>();
  return (schema, rows) => {
    if (everyRow) {
      for (const row of rows) checkRow(schema, row);
      return;
    }
    const first = rows[0] as object | undefined;
    if (first === undefined) return;
    const columns = Object.keys(first).join(',');
    const checked = checkedColumns.get(schema) ?? new Set<string>();
    if (checked.has(columns)) return;
    checkRow(schema, first);
    checkedColumns.set(schema, checked.add(columns));
  };
}

function checkRow(schema: z.ZodType, row: unknown): void {
  const checked = strictFormOf(schema).safeParse(row);
  // A bug in the query or the schema, not in the request: the error middleware answers it as a 500.
  if (!checked.success) throw new Error(`A row does not match its schema:\n${z.prettifyError(checked.error)}`);
}

const checkRows = rowChecker(process.env.NODE_ENV === 'test');

/** What runs a statement: a `Db` or a `Tx` (typed here by shape, since connection.ts itself reads rows). */
interface Executor {
  execute(query: SQL): PromiseLike<unknown>;
}

/**
 * The rows of hand-written SQL, checked against the schema of what they are: the wire schema from `shared/`
 * when the query already returns the API's shape, else a small schema beside the query. The rows come back as
 * read (checked, not transformed), so the schema must not transform or default.
 */
export async function selectRows<S extends z.ZodType>(db: Executor, query: SQL, schema: S): Promise<z.output<S>[]> {
  const { rows } = (await db.execute(query)) as { rows: unknown[] };
  checkRows(schema, rows);
  return rows as z.output<S>[];
}
