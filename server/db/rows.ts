import type { SQL } from 'drizzle-orm';
import { z } from 'zod';

/**
 * Under the test runner (vitest sets NODE_ENV=test) every row is checked; elsewhere only the first. A renamed,
 * missing or extra column is wrong on every row alike, so the first row finds it for the price of one parse per
 * query, where checking each row of a page of submittals (nested arrays of approvers, recipients, findings) would
 * be paid on every request. The tests, which run every query, also catch a value of the wrong type on any row.
 */
const checksEveryRow = process.env.NODE_ENV === 'test';

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
  const strict = strictFormOf(schema);
  for (const row of checksEveryRow ? rows : rows.slice(0, 1)) {
    const checked = strict.safeParse(row);
    if (!checked.success) {
      // A bug in the query or the schema, not in the request: the error middleware answers it as a 500.
      throw new Error(`A row does not match its schema:\n${z.prettifyError(checked.error)}`);
    }
  }
  return rows as z.output<S>[];
}
