import type { Logger } from 'pino';
import { Webhook as Signer } from 'standardwebhooks';
import { recordActivity } from '../activity/queries.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import {
  type AttemptOutcome,
  type DeliveryTarget,
  findDeliveryTarget,
  holdDelivery,
  recordAttempt,
  updateWebhookRow,
} from './queries.js';
import { postJson } from './sender.js';

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  settings: Config['webhooks'];
}

/** The Standard Webhooks request of one attempt: `webhook-id` is the event's id (the same on every retry). */
export function signedRequest(target: DeliveryTarget, at: Date): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({
    type: target.eventType,
    timestamp: target.eventAt.toISOString(),
    data: target.eventData,
  });
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Sitefile-Webhooks/1',
      'webhook-id': target.eventId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Signer(target.secret).sign(target.eventId, at, body),
    },
  };
}

/**
 * One attempt of a claimed (`queued`) delivery: POST it, record the outcome, and schedule the next attempt by
 * the retry schedule — or, when the schedule is used up, fail it and disable the endpoint with a notice in the
 * organization's activity. A delivery whose endpoint is disabled is held for its return; anything else (already
 * done, endpoint gone) ends without a request.
 */
export async function attemptDelivery(deps: DeliveryDeps, deliveryId: string): Promise<void> {
  const { db, clock, settings } = deps;
  const target = await findDeliveryTarget(db, deliveryId);
  if (target?.state !== 'queued') return;
  if (!target.enabled) return holdDelivery(db, deliveryId);
  const attemptedAt = clock.now();
  const started = performance.now();
  const request = signedRequest(target, attemptedAt);
  const answer = await postJson(target.url, request.headers, request.body, settings);
  const succeeded = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const outcome: AttemptOutcome = {
    attempt: target.attempts + 1,
    attemptedAt,
    durationMs: Math.round(performance.now() - started),
    responseStatus: answer.status,
    error: succeeded ? null : (answer.error ?? `HTTP ${answer.status}`),
    succeeded,
  };
  const delay = settings.retryDelaysMs[target.attempts];
  const retryAt = succeeded || delay === undefined ? undefined : new Date(clock.now().getTime() + delay);
  await db.transaction(async (tx) => {
    const moved = await recordAttempt(tx, target, outcome, retryAt);
    if (!moved || succeeded || retryAt) return;
    const at = clock.now();
    const reason = `Disabled after ${outcome.attempt} failed attempts of one delivery (last: ${outcome.error})`;
    await updateWebhookRow(tx, target.webhookId, {
      enabled: false,
      disabledAt: at,
      disabledReason: reason,
      updatedAt: at,
    });
    await recordActivity(tx, {
      organizationId: target.organizationId,
      actor: { id: null, name: 'Sitefile webhooks', email: '' },
      action: 'webhook_disabled',
      title: `Webhook to ${target.url} disabled: it kept failing`.slice(0, 500),
      details: { webhookId: target.webhookId, url: target.url, deliveryId, lastError: outcome.error },
      at,
    });
  });
  if (!succeeded)
    deps.log.info({ deliveryId, attempt: outcome.attempt, error: outcome.error }, 'webhook attempt failed');
}
