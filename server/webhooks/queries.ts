import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { KeysetPosition } from '../cursor.js';
import type { Db, Tx } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { selectRows } from '../db/rows.js';
import { webhookAttempts, webhookDeliveries, webhookEvents, webhooks } from '../db/schema.js';
import { newId } from '../ids.js';

export type WebhookRow = typeof webhooks.$inferSelect;

async function countWebhooks(tx: Tx, organizationId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(webhooks).where(eq(webhooks.organizationId, organizationId));
  return row?.n ?? 0;
}

/**
 * Inserts the endpoint unless its organization has `limit` already (then answers undefined). The creates of one
 * organization take turns on a transaction-scoped advisory lock, so parallel creates cannot all count 19 and
 * each insert the 20th.
 */
export function insertWebhookUnderLimit(
  db: Db | Tx,
  row: typeof webhooks.$inferInsert,
  limit: number,
): Promise<WebhookRow | undefined> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`webhooks ${row.organizationId}`}, 0))`);
    if ((await countWebhooks(tx, row.organizationId)) >= limit) return undefined;
    return insertWebhook(tx, row);
  });
}

export async function insertWebhook(db: Db | Tx, row: typeof webhooks.$inferInsert): Promise<WebhookRow> {
  const [inserted] = await db.insert(webhooks).values(row).returning();
  return inserted!;
}

export function listWebhookRows(db: Db, organizationId: string): Promise<WebhookRow[]> {
  return db
    .select()
    .from(webhooks)
    .where(eq(webhooks.organizationId, organizationId))
    .orderBy(asc(webhooks.createdAt), asc(webhooks.id));
}

export async function findWebhook(
  db: Db | Tx,
  organizationId: string,
  webhookId: string,
): Promise<WebhookRow | undefined> {
  const [row] = await db
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.organizationId, organizationId), eq(webhooks.id, webhookId)));
  return row;
}

export async function updateWebhookRow(
  db: Db | Tx,
  webhookId: string,
  change: Partial<typeof webhooks.$inferInsert>,
): Promise<WebhookRow | undefined> {
  const [row] = await db.update(webhooks).set(change).where(eq(webhooks.id, webhookId)).returning();
  return row;
}

export async function deleteWebhookRow(db: Db | Tx, organizationId: string, webhookId: string): Promise<boolean> {
  const rows = await db
    .delete(webhooks)
    .where(and(eq(webhooks.organizationId, organizationId), eq(webhooks.id, webhookId)))
    .returning({ id: webhooks.id });
  return rows.length > 0;
}

const newestFirst = keysetOrder(webhookDeliveries.createdAt, webhookDeliveries.id, 'desc', 'timestamptz');

const deliveryColumns = {
  id: webhookDeliveries.id,
  webhookId: webhookDeliveries.webhookId,
  eventId: webhookDeliveries.eventId,
  eventType: webhookEvents.type,
  state: webhookDeliveries.state,
  nextAttemptAt: webhookDeliveries.nextAttemptAt,
  createdAt: webhookDeliveries.createdAt,
};

/** One page (plus one) of an endpoint's deliveries, newest first. */
export function deliveryPage(db: Db, webhookId: string, position: KeysetPosition | undefined, limit: number) {
  return db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.webhookId, webhookId), newestFirst.after(position)))
    .orderBy(...newestFirst.orderBy)
    .limit(limit + 1);
}

export async function findDelivery(db: Db, deliveryId: string) {
  const [row] = await db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId));
  return row;
}

export type DeliveryRow = NonNullable<Awaited<ReturnType<typeof findDelivery>>>;

/** The attempts of these deliveries, in order (at most one retry schedule's worth each). */
export function attemptsOf(db: Db, deliveryIds: readonly string[]) {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(webhookAttempts)
    .where(inArray(webhookAttempts.deliveryId, [...deliveryIds]))
    .orderBy(asc(webhookAttempts.deliveryId), asc(webhookAttempts.attempt));
}

/** Whether any delivery is due: pending and time for its attempt, or handed to a worker that died. */
export async function anyDeliveryDue(db: Db, now: Date, staleClaim: Date): Promise<boolean> {
  const rows = await selectRows(
    db,
    sql`select 1 as due from ${webhookDeliveries} where ${dueCondition(now, staleClaim)} limit 1`,
    z.object({ due: z.number() }),
  );
  return rows.length > 0;
}

const dueCondition = (now: Date, staleClaim: Date) =>
  sql`state in ('pending', 'queued') and next_attempt_at <= ${now}
    and (state = 'pending' or claimed_at < ${staleClaim})`;

/**
 * Claims up to `limit` due deliveries for a worker (state `queued`, `claimed_at` now). Rows another instance is
 * claiming at the same time are skipped, so each goes to one worker.
 */
export async function claimDueDeliveries(tx: Tx, now: Date, staleClaim: Date, limit: number): Promise<string[]> {
  const rows = await selectRows(
    tx,
    sql`update ${webhookDeliveries} set state = 'queued', claimed_at = ${now}
      where id in (
        select id from ${webhookDeliveries} where ${dueCondition(now, staleClaim)}
        order by next_attempt_at limit ${limit} for update skip locked
      )
      returning id`,
    z.object({ id: z.string() }),
  );
  return rows.map((row) => row.id);
}

/** What one attempt needs: the delivery, its event and its endpoint. */
export async function findDeliveryTarget(db: Db, deliveryId: string) {
  const [row] = await db
    .select({
      id: webhookDeliveries.id,
      organizationId: webhookDeliveries.organizationId,
      state: webhookDeliveries.state,
      attempts: webhookDeliveries.attempts,
      createdAt: webhookDeliveries.createdAt,
      eventId: webhookEvents.id,
      eventType: webhookEvents.type,
      eventData: webhookEvents.data,
      eventAt: webhookEvents.createdAt,
      webhookId: webhooks.id,
      url: webhooks.url,
      secret: webhooks.secret,
      enabled: webhooks.enabled,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
    .where(eq(webhookDeliveries.id, deliveryId));
  return row;
}

export type DeliveryTarget = NonNullable<Awaited<ReturnType<typeof findDeliveryTarget>>>;

export interface AttemptOutcome {
  attempt: number;
  attemptedAt: Date;
  durationMs: number;
  responseStatus: number | null;
  error: string | null;
  succeeded: boolean;
}

/**
 * Records an attempt and moves its delivery on: to `succeeded`, back to `pending` at `retryAt`, or to `failed`
 * (no `retryAt`). Only a delivery still `queued` moves (a stale worker's late answer changes nothing); answers
 * whether it did.
 */
export async function recordAttempt(
  tx: Tx,
  target: DeliveryTarget,
  outcome: AttemptOutcome,
  retryAt: Date | undefined,
): Promise<boolean> {
  const state = outcome.succeeded ? 'succeeded' : retryAt ? 'pending' : 'failed';
  const moved = await tx
    .update(webhookDeliveries)
    .set({
      state,
      attempts: outcome.attempt,
      nextAttemptAt: retryAt ?? outcome.attemptedAt,
      claimedAt: null,
      completedAt: state === 'pending' ? null : outcome.attemptedAt,
    })
    .where(and(eq(webhookDeliveries.id, target.id), eq(webhookDeliveries.state, 'queued')))
    .returning({ id: webhookDeliveries.id });
  if (moved.length === 0) return false;
  await tx.insert(webhookAttempts).values({
    id: newId('wha'),
    organizationId: target.organizationId,
    deliveryId: target.id,
    ...outcome,
  });
  return true;
}

/** A final state without an attempt (the endpoint was disabled or deleted meanwhile). */
/** A claimed delivery whose endpoint was disabled meanwhile waits, held, for the endpoint to be enabled again. */
export async function holdDelivery(db: Db, deliveryId: string): Promise<void> {
  await db
    .update(webhookDeliveries)
    .set({ state: 'held', claimedAt: null })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.state, 'queued')));
}

/**
 * An endpoint enabled again: its held deliveries are due at once, each at its event's time so the relay claims
 * them oldest first; those older than `keptSince` expire instead. Answers how many are due.
 */
export async function releaseHeldDeliveries(tx: Tx, webhookId: string, keptSince: Date, at: Date): Promise<number> {
  await tx.execute(sql`update ${webhookDeliveries} set state = 'expired', completed_at = ${at}
    where webhook_id = ${webhookId} and state = 'held' and created_at < ${keptSince}`);
  const rows = await selectRows(
    tx,
    sql`update ${webhookDeliveries} set state = 'pending', next_attempt_at = created_at
      where webhook_id = ${webhookId} and state = 'held' returning id`,
    z.object({ id: z.string() }),
  );
  return rows.length;
}

export interface ReplayRange {
  /** Events at or after this instant… */
  from?: Date;
  /** …or after this event (its time, then its id). */
  afterEventId?: string;
  to: Date;
  /** Nothing older than this (the retention). */
  keptSince: Date;
}

/**
 * Queues again, oldest first, up to `limit` events this endpoint was sent (or held for) in the range — each one
 * new delivery with the event's id, so a receiver that already has it can drop it — except events it still has
 * a delivery waiting for. Answers the events queued (up to `limit + 1` looked at, to tell whether more remain).
 */
export async function replayEvents(
  tx: Tx,
  webhook: { id: string; organizationId: string },
  range: ReplayRange,
  at: Date,
  limit: number,
): Promise<{ eventIds: string[]; more: boolean }> {
  const start = range.afterEventId
    ? sql`(e.created_at, e.id) > (select x.created_at, x.id from ${webhookEvents} x
        where x.id = ${range.afterEventId} and x.organization_id = ${webhook.organizationId})`
    : sql`e.created_at >= ${range.from}`;
  const rows = await selectRows(
    tx,
    sql`select e.id, e.created_at from ${webhookEvents} e
      where e.organization_id = ${webhook.organizationId} and ${start}
        and e.created_at <= ${range.to} and e.created_at >= ${range.keptSince}
        and exists (select 1 from ${webhookDeliveries} d where d.event_id = e.id and d.webhook_id = ${webhook.id})
        and not exists (select 1 from ${webhookDeliveries} d where d.event_id = e.id and d.webhook_id = ${webhook.id}
          and d.state in ('pending', 'queued', 'held'))
      order by e.created_at, e.id
      limit ${limit + 1}`,
    z.object({ id: z.string(), created_at: z.union([z.string(), z.date()]) }),
  );
  const events = rows.slice(0, limit);
  if (events.length > 0) {
    await tx.insert(webhookDeliveries).values(
      events.map((event) => ({
        id: newId('whd'),
        organizationId: webhook.organizationId,
        webhookId: webhook.id,
        eventId: event.id,
        // Due now, in the events' order: the relay claims the earliest next_attempt_at first.
        nextAttemptAt: new Date(event.created_at),
        createdAt: at,
      })),
    );
  }
  return { eventIds: events.map((event) => event.id), more: rows.length > limit };
}

/**
 * Deletes up to `limit` events raised before `before`, with their deliveries and attempts (cascaded); answers how
 * many went.
 */
export async function deleteEventsBefore(db: Db, before: Date, limit: number): Promise<number> {
  const rows = await selectRows(
    db,
    sql`delete from ${webhookEvents} where id in (
        select id from ${webhookEvents} where created_at < ${before} limit ${limit})
      returning id`,
    z.object({ id: z.string() }),
  );
  return rows.length;
}

/**
 * Hands deliveries to graphile-worker (PostgreSQL) in the caller's transaction: the claim and the jobs commit
 * together. `job_key` keeps one job per delivery (a reclaimed delivery replaces its lost job).
 */
export async function enqueueDeliveryJobs(tx: Tx, deliveryIds: readonly string[]): Promise<void> {
  for (const id of deliveryIds) {
    await tx.execute(
      sql`select graphile_worker.add_job('webhook_deliver', json_build_object('deliveryId', ${id}::text),
        job_key => ${id}::text, max_attempts => 5)`,
    );
  }
}
