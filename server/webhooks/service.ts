import { randomBytes } from 'node:crypto';
import {
  MAX_REPLAY_EVENTS,
  MAX_WEBHOOKS_PER_ORGANIZATION,
  WEBHOOK_RETENTION_DAYS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookReplay,
} from '../../shared/webhooks.js';
import { type AuditActor, recordAudit, recordChanges } from '../audit/queries.js';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { createdAtPage } from '../cursor.js';
import type { Db, Tx } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { emitEvent } from '../outbox/queries.js';
import {
  attemptsOf,
  type DeliveryRow,
  deleteWebhookRow,
  deliveryPage,
  findDelivery,
  findWebhook,
  insertWebhookUnderLimit,
  listWebhookRows,
  releaseHeldDeliveries,
  replayEvents,
  updateWebhookRow,
  type WebhookRow,
} from './queries.js';
import { addressRefusal } from './sender.js';

const present = (row: WebhookRow): Webhook => ({
  id: row.id,
  organizationId: row.organizationId,
  url: row.url,
  events: row.events as WebhookEventType[],
  description: row.description,
  enabled: row.enabled,
  disabledAt: row.disabledAt?.toISOString() ?? null,
  disabledReason: row.disabledReason,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** 400 for a URL that resolves to a loopback, private or link-local address (unless the deployment allows it). */
async function checkUrl(app: AppContext, url: string): Promise<void> {
  if (app.config.webhooks.allowPrivateNetworks) return;
  const refusal = await addressRefusal(url);
  if (refusal) throw ApiError.badRequest(`url is refused: ${refusal}`, [{ path: 'url', message: refusal }]);
}

async function webhookOf(app: AppContext, organizationId: string, webhookId: string): Promise<WebhookRow> {
  const row = await findWebhook(app.db, organizationId, webhookId);
  if (!row) throw ApiError.notFound('Webhook');
  return row;
}

/** What the audit log keeps of an endpoint: never its secret. */
const audited = (row: WebhookRow) => ({
  url: row.url,
  events: row.events,
  description: row.description,
  enabled: row.enabled,
});

const auditWebhook = (
  tx: Db | Tx,
  actor: AuditActor,
  action: string,
  change: { organizationId: string; id: string; before?: WebhookRow; after?: WebhookRow },
  at: Date,
) =>
  recordAudit(tx, actor, {
    organizationId: change.organizationId,
    action,
    target: { type: 'webhook', id: change.id },
    changes: recordChanges(change.before, change.after, audited),
    at,
  });

/** A new endpoint with its signing secret, which this answer alone carries. */
export async function createWebhook(
  app: AppContext,
  caller: Caller,
  organizationId: string,
  input: { url: string; events: WebhookEventType[]; description?: string },
  actor: AuditActor,
): Promise<Webhook & { secret: string }> {
  await checkUrl(app, input.url);
  const now = app.clock.now();
  const row = await app.db.transaction(async (tx) => {
    const created = await insertWebhookUnderLimit(
      tx,
      {
        id: newId('whk'),
        organizationId,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        secret: `whsec_${randomBytes(32).toString('base64')}`,
        createdById: caller.id,
        createdAt: now,
        updatedAt: now,
      },
      MAX_WEBHOOKS_PER_ORGANIZATION,
    );
    if (created)
      await auditWebhook(tx, actor, 'webhook.created', { organizationId, id: created.id, after: created }, now);
    return created;
  });
  if (!row) {
    throw new ApiError('conflict', `An organization may have at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks`);
  }
  return { ...present(row), secret: row.secret };
}

export async function listWebhooks(app: AppContext, organizationId: string): Promise<Webhook[]> {
  return (await listWebhookRows(app.db, organizationId)).map(present);
}

export async function getWebhook(app: AppContext, organizationId: string, webhookId: string): Promise<Webhook> {
  return present(await webhookOf(app, organizationId, webhookId));
}

/** Changes what is given; `enabled: true` re-enables an endpoint disabled after failures (and clears why). */
export async function updateWebhook(
  app: AppContext,
  organizationId: string,
  webhookId: string,
  input: { url?: string; events?: WebhookEventType[]; description?: string | null; enabled?: boolean },
  actor: AuditActor,
): Promise<Webhook> {
  const current = await webhookOf(app, organizationId, webhookId);
  if (input.url !== undefined) await checkUrl(app, input.url);
  const now = app.clock.now();
  const enabling = input.enabled === true && !current.enabled;
  const disabling = input.enabled === false && current.enabled;
  const row = await app.db.transaction(async (tx) => {
    const changed = await updateWebhookRow(tx, webhookId, {
      url: input.url,
      events: input.events,
      description: input.description,
      enabled: input.enabled,
      ...(enabling ? { disabledAt: null, disabledReason: null } : {}),
      ...(disabling ? { disabledAt: now, disabledReason: 'Disabled through the API' } : {}),
      updatedAt: now,
    });
    const change = { organizationId, id: webhookId, before: current, after: changed };
    if (changed) await auditWebhook(tx, actor, 'webhook.updated', change, now);
    // Enabled again: what was held while it was disabled is sent now, oldest first.
    if (changed && enabling) await releaseHeldDeliveries(tx, webhookId, retainedSince(now), now);
    return changed;
  });
  if (!row) throw ApiError.notFound('Webhook');
  if (enabling) app.webhooks.nudge();
  return present(row);
}

export async function deleteWebhook(
  app: AppContext,
  organizationId: string,
  webhookId: string,
  actor: AuditActor,
): Promise<void> {
  const current = await webhookOf(app, organizationId, webhookId);
  const deleted = await app.db.transaction(async (tx) => {
    if (!(await deleteWebhookRow(tx, organizationId, webhookId))) return false;
    const change = { organizationId, id: webhookId, before: current };
    await auditWebhook(tx, actor, 'webhook.deleted', change, app.clock.now());
    return true;
  });
  if (!deleted) throw ApiError.notFound('Webhook');
}

async function presentDeliveries(app: AppContext, rows: readonly DeliveryRow[]): Promise<WebhookDelivery[]> {
  const attempts = await attemptsOf(
    app.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    eventType: row.eventType as WebhookEventType,
    state: row.state as WebhookDelivery['state'],
    attempts: attempts
      .filter((a) => a.deliveryId === row.id)
      .map((a) => ({
        attempt: a.attempt,
        attemptedAt: a.attemptedAt.toISOString(),
        durationMs: a.durationMs,
        responseStatus: a.responseStatus,
        error: a.error,
        succeeded: a.succeeded,
      })),
    nextAttemptAt: row.state === 'pending' ? row.nextAttemptAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** The delivery log of an endpoint, newest first, each delivery with its attempts. */
export async function listDeliveries(
  app: AppContext,
  organizationId: string,
  webhookId: string,
  query: { limit: number; cursor?: string },
) {
  await webhookOf(app, organizationId, webhookId);
  const binding = { webhookId };
  const { page, nextCursor, hasMore } = await createdAtPage(app.cursorKey, binding, query, (after) =>
    deliveryPage(app.db, webhookId, after, query.limit),
  );
  return { data: await presentDeliveries(app, page), nextCursor, hasMore };
}

/** The oldest instant whose events an endpoint still receives (held, or replayed). */
/** The oldest time an event is kept at `now`. */
export const retainedSince = (now: Date) => new Date(now.getTime() - WEBHOOK_RETENTION_DAYS * 86_400_000);

/**
 * Queues again the events this endpoint was sent in a range (at most MAX_REPLAY_EVENTS, oldest first, none older
 * than the retention), with their own ids as `webhook-id`. Audited; 409 while the endpoint is disabled.
 */
export async function replayWebhook(
  app: AppContext,
  organizationId: string,
  webhookId: string,
  range: { from?: string; afterEventId?: string; to?: string },
  actor: AuditActor,
): Promise<WebhookReplay> {
  const webhook = await webhookOf(app, organizationId, webhookId);
  if (!webhook.enabled) throw new ApiError('conflict', 'The webhook is disabled; enabling it sends what it missed');
  const now = app.clock.now();
  const to = range.to ? new Date(range.to) : now;
  const from = range.from ? new Date(range.from) : undefined;
  if (from && from > to)
    throw ApiError.badRequest('The range starts after it ends', [{ path: 'from', message: 'after to' }]);
  const replayed = await app.db.transaction(async (tx) => {
    const queued = await replayEvents(
      tx,
      webhook,
      { from, afterEventId: range.afterEventId, to, keptSince: retainedSince(now) },
      now,
      MAX_REPLAY_EVENTS,
    );
    await recordAudit(tx, actor, {
      organizationId,
      action: 'webhook.replayed',
      target: { type: 'webhook', id: webhookId },
      changes: {
        replayed: { before: null, after: { ...range, to: to.toISOString(), events: queued.eventIds.length } },
      },
      at: now,
    });
    return queued;
  });
  app.webhooks.nudge();
  return { queued: replayed.eventIds.length, more: replayed.more, lastEventId: replayed.eventIds.at(-1) ?? null };
}

/** Sends a `webhook.test` event to this endpoint alone, through the outbox like any event. */
export async function sendTestEvent(
  app: AppContext,
  caller: Caller,
  organizationId: string,
  webhookId: string,
): Promise<WebhookDelivery> {
  const webhook = await webhookOf(app, organizationId, webhookId);
  if (!webhook.enabled) throw new ApiError('conflict', 'The webhook is disabled; enable it before testing it');
  const at = app.clock.now();
  const [deliveryId] = await emitEvent(app.db, {
    organizationId,
    webhookId,
    type: 'webhook.test',
    data: { webhookId, requestedBy: { id: caller.id, name: caller.name, email: caller.email } },
    at,
  });
  app.webhooks.nudge();
  const row = deliveryId ? await findDelivery(app.db, deliveryId) : undefined;
  if (!row) throw ApiError.notFound('Webhook');
  const [delivery] = await presentDeliveries(app, [row]);
  return delivery!;
}
