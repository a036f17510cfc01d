import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ExplorerValue } from '../../shared/explorer.js';
import type { Db } from '../db/connection.js';
import { selectRows } from '../db/rows.js';
import type { ExplorerPlan } from './compile.js';

/** A row of a compiled statement: its output columns (cells of the wire's values), plus `__id` and `__sort` of
 *  ungrouped queries. */
const ExplorerRow = z.record(z.string(), ExplorerValue);
export type ExplorerRow = z.output<typeof ExplorerRow>;

/** SQLSTATE query_canceled: what statement_timeout raises. */
const QUERY_CANCELED = '57014';

/**
 * Runs a compiled explorer query, stopped by PostgreSQL's statement_timeout after `timeoutMs`, on one backend:
 * a caller's ad-hoc query takes at most one processor, never the parallel workers that would leave other
 * tenants' requests waiting for a core (the fairness test's tail).
 */
export function runExplorerPlan(db: Db, timeoutMs: number, plan: ExplorerPlan): Promise<ExplorerRow[]> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql.raw(`SET LOCAL statement_timeout = ${timeoutMs}; SET LOCAL max_parallel_workers_per_gather = 0`),
    );
    return selectRows(tx, plan.sql, ExplorerRow);
  });
}

const sqlStateOf = (err: unknown): string | undefined =>
  (err as { code?: string }).code ?? ((err as { cause?: { code?: string } }).cause?.code || undefined);

/** Whether the query was stopped for running too long (SQLSTATE 57014; drizzle puts it on the cause). */
export const stoppedByTimeout = (err: unknown): boolean => sqlStateOf(err) === QUERY_CANCELED;
