import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ExplorerValue } from '../../shared/explorer.js';
import { type Db, isPglite } from '../db/connection.js';
import { selectRows } from '../db/rows.js';

/** A row of a compiled statement: its output columns (cells of the wire's values), plus `__id` and `__sort` of
 *  ungrouped queries. */
const ExplorerRow = z.record(z.string(), ExplorerValue);
export type ExplorerRow = z.output<typeof ExplorerRow>;

/**
 * PostgreSQL stops a statement with statement_timeout. PGlite ignores that setting, and while its
 * WebAssembly engine runs nothing in this process can interrupt it, so there the statement checks its
 * own clock row by row: this filter (migration 0004), which raises the same error code.
 */
export const deadlineGuard = (db: Db, timeoutMs: number): SQL | undefined =>
  isPglite(db) ? sql`explorer_within_deadline(${timeoutMs})` : undefined;

/** Runs a compiled explorer statement, stopped after `timeoutMs` (by PostgreSQL, or by its own guard). */
export async function runExplorerStatement(
  db: Db,
  timeoutMs: number,
  statement: SQL,
  guarded: boolean,
): Promise<ExplorerRow[]> {
  return db.transaction(async (tx) => {
    if (!guarded) await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${timeoutMs}`));
    return selectRows(tx, statement, ExplorerRow);
  });
}

const sqlStateOf = (err: unknown): string | undefined =>
  (err as { code?: string }).code ?? ((err as { cause?: { code?: string } }).cause?.code || undefined);

/** Whether the statement was stopped for running too long (SQLSTATE 57014; drizzle puts it on the cause). */
export const stoppedByTimeout = (err: unknown): boolean => sqlStateOf(err) === '57014';
