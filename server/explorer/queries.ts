import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ExplorerValue } from '../../shared/explorer.js';
import { backgroundStatement, type Db, isPglite } from '../db/connection.js';
import { cpuMsSince, SliceSizer } from '../db/embedded-turns.js';
import { selectRows } from '../db/rows.js';
import type { ExplorerPlan, SlicedPlan } from './compile.js';

/** A row of a compiled statement: its output columns (cells of the wire's values), plus `__id` and `__sort` of
 *  ungrouped queries. */
const ExplorerRow = z.record(z.string(), ExplorerValue);
export type ExplorerRow = z.output<typeof ExplorerRow>;

/** SQLSTATE query_canceled: what statement_timeout raises, and what the embedded run raises past its time. */
const QUERY_CANCELED = '57014';

/**
 * Runs a compiled explorer query, stopped after `timeoutMs`. PostgreSQL runs the one statement under
 * statement_timeout, on a pooled connection of its own. PGlite runs every statement of the process one at a
 * time on the main thread, so there the query runs in short slices that take background turns
 * (db/embedded-turns.ts): other callers' statements go first, and wait for at most one slice.
 */
export function runExplorerPlan(db: Db, timeoutMs: number, plan: ExplorerPlan): Promise<ExplorerRow[]> {
  if (isPglite(db)) return runInSlices(db, timeoutMs, plan.sliced, plan.table);
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${timeoutMs}`));
    return selectRows(tx, plan.sql, ExplorerRow);
  });
}

/** Processor time one slice should hold the embedded database: well under what another request may wait. */
const SLICE_TARGET_MS = 10;
/** Rows of the first slice; each next one is sized from the last ones' times (SliceSizer). */
const FIRST_SLICE_ROWS = 16;
const MOST_SLICE_ROWS = 20_000;
/** Ungrouped queries: slices between prunings of the scratch table (it keeps LIMIT rows per slice). */
const SLICES_PER_PRUNE = 8;

const SliceBound = z.object({ upper: z.string().nullable() });

/**
 * The sliced run: the table's rows in primary-key order, a slice of them per statement into a scratch table
 * (a temporary table of PGlite's one session), then the answer from the scratch table. Slices by key, not by
 * position, so that a row updated meanwhile is counted once. Each slice carries the row-by-row deadline guard
 * (migration 0004: PGlite has no statement_timeout) with the time left, so the whole run keeps `timeoutMs`.
 */
async function runInSlices(db: Db, timeoutMs: number, sliced: SlicedPlan, table: string): Promise<ExplorerRow[]> {
  const started = performance.now();
  const msLeft = () => Math.ceil(timeoutMs - (performance.now() - started));
  const scratch = sql`${sql.identifier(`explorer_${randomBytes(8).toString('hex')}`)}`;
  const source = sql.identifier(table);
  const inTurn = <T>(statement: (raw: Db) => Promise<T>) => backgroundStatement(db, statement);
  await inTurn((raw) => raw.execute(sql`CREATE TEMPORARY TABLE ${scratch} AS ${sliced.shape}`));
  try {
    let after = ''; // every id sorts after the empty text
    const size = new SliceSizer(FIRST_SLICE_ROWS, SLICE_TARGET_MS, MOST_SLICE_ROWS);
    for (let slice = 1; ; slice += 1) {
      const rows = size.rows;
      if (msLeft() <= 0) throw Object.assign(new Error('explorer query ran out of time'), { code: QUERY_CANCELED });
      // One statement: the slice's last key, and the slice's partial rows up to it (none past the table's end).
      const { upper, tookMs } = await inTurn(async (raw) => {
        const sliceStarted = process.cpuUsage();
        const within = sql`explorer_within_deadline(${msLeft()}) AND t.id > ${after} AND t.id <= (SELECT upper FROM bound)`;
        const [bound] = await selectRows(
          raw,
          sql`WITH bound AS (SELECT max(id) AS upper FROM (SELECT id FROM ${source} WHERE id > ${after} ORDER BY id LIMIT ${rows}) s),
            partial AS (INSERT INTO ${scratch} ${sliced.partial(within)})
            SELECT upper FROM bound`,
          SliceBound,
        );
        return { upper: bound?.upper, tookMs: cpuMsSince(sliceStarted) };
      });
      if (!upper) break;
      size.took(tookMs);
      after = upper;
      if (sliced.prune && slice % SLICES_PER_PRUNE === 0) await inTurn((raw) => raw.execute(sliced.prune!(scratch)));
    }
    return await inTurn((raw) => selectRows(raw, sliced.merge(scratch), ExplorerRow));
  } finally {
    await inTurn((raw) => raw.execute(sql`DROP TABLE IF EXISTS ${scratch}`));
  }
}

const sqlStateOf = (err: unknown): string | undefined =>
  (err as { code?: string }).code ?? ((err as { cause?: { code?: string } }).cause?.code || undefined);

/** Whether the query was stopped for running too long (SQLSTATE 57014; drizzle puts it on the cause). */
export const stoppedByTimeout = (err: unknown): boolean => sqlStateOf(err) === QUERY_CANCELED;
