import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import { commandEvents, idempotencyRecords } from '../db/schema.js';

export type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;
type RecordKey = { callerKey: string; idempotencyKey: string };

const byKey = (key: RecordKey) =>
  and(eq(idempotencyRecords.callerKey, key.callerKey), eq(idempotencyRecords.idempotencyKey, key.idempotencyKey));

/** Claims a key for one attempt; the primary key decides races. False when a record already exists. */
export async function insertInProgress(
  db: Db,
  input: RecordKey & { organizationId: string | null; requestHash: string; startedAt: Date; leaseUntil: Date },
): Promise<boolean> {
  const rows = await db
    .insert(idempotencyRecords)
    .values({
      callerKey: input.callerKey,
      idempotencyKey: input.idempotencyKey,
      organizationId: input.organizationId,
      requestHash: input.requestHash,
      state: 'in_progress',
      createdAt: input.startedAt,
      expiresAt: input.leaseUntil,
    })
    .onConflictDoNothing()
    .returning({ callerKey: idempotencyRecords.callerKey });
  return rows.length === 1;
}

export async function findRecord(db: Db, key: RecordKey): Promise<IdempotencyRecord | undefined> {
  const [row] = await db.select().from(idempotencyRecords).where(byKey(key));
  return row;
}

/** Deletes the record of one attempt (identified by when it started), leaving a newer attempt's alone. */
export async function deleteAttempt(db: Db, key: RecordKey, startedAt: Date): Promise<void> {
  await db.delete(idempotencyRecords).where(and(byKey(key), eq(idempotencyRecords.createdAt, startedAt)));
}

/** Stores the response of this attempt; false when the attempt no longer owns the key (its lease lapsed). */
export async function completeAttempt(
  tx: Tx,
  key: RecordKey,
  input: { startedAt: Date; status: number; headers: Record<string, string>; body: Buffer; keepUntil: Date },
): Promise<boolean> {
  const rows = await tx
    .update(idempotencyRecords)
    .set({
      state: 'done',
      responseStatus: input.status,
      responseHeaders: input.headers,
      responseBody: input.body,
      expiresAt: input.keepUntil,
    })
    .where(
      and(byKey(key), eq(idempotencyRecords.state, 'in_progress'), eq(idempotencyRecords.createdAt, input.startedAt)),
    )
    .returning({ callerKey: idempotencyRecords.callerKey });
  return rows.length === 1;
}

/** Removes up to `limit` expired records (oldest first, through the expiry index); returns how many. */
export async function purgeExpiredRecords(db: Db, now: Date, limit: number): Promise<number> {
  const expired = db
    .select({ callerKey: idempotencyRecords.callerKey, idempotencyKey: idempotencyRecords.idempotencyKey })
    .from(idempotencyRecords)
    .where(lt(idempotencyRecords.expiresAt, now))
    .orderBy(idempotencyRecords.expiresAt)
    .limit(limit);
  const rows = await db
    .delete(idempotencyRecords)
    .where(sql`(${idempotencyRecords.callerKey}, ${idempotencyRecords.idempotencyKey}) in (${expired})`)
    .returning({ callerKey: idempotencyRecords.callerKey });
  return rows.length;
}

export async function insertCommandEvent(tx: Tx, event: typeof commandEvents.$inferInsert): Promise<void> {
  await tx.insert(commandEvents).values(event);
}
