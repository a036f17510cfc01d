import { type SQL, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from './connection.js';
import { selectRows } from './rows.js';

/**
 * The sync token a walk starting now hands on to the next one: the oldest transaction id still running
 * (`pg_snapshot_xmin` of a fresh snapshot). Every transaction below it had ended before this snapshot, so the walk
 * sees its rows; every change the walk may miss — made by a transaction still running, or begun later — carries an
 * id at or above it (`change_seq`). Taken before the walk's first page reads anything, it can only be lower than
 * that page's own snapshot's, so rows may come twice across syncs but none is skipped (issue 40).
 */
export async function currentSyncToken(db: Db): Promise<string> {
  const [row] = await selectRows(
    db,
    sql`select pg_snapshot_xmin(pg_current_snapshot())::text as token`,
    z.object({ token: z.string() }),
  );
  return row!.token;
}

/** Rows written by a transaction at or above the token: every change a walk that handed the token on may miss. */
export const changedSince = (changeSeq: SQL, token: string): SQL => sql`${changeSeq} >= ${token}::xid8`;
