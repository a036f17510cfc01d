// Webhooks: an organization's endpoints, the outbox of events written with the change they describe, and the
// delivery of each event to each endpoint with every attempt's outcome.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, emptyTextArray, refersTo, tenantRow, ts, updatedAt } from './columns.js';

export const webhooks = pgTable(
  'webhooks',
  {
    ...tenantRow(),
    url: text('url').notNull(),
    events: text('events').array().notNull().default(emptyTextArray()),
    description: text('description'),
    /** `whsec_…`: kept readable because every delivery is signed with it (Standard Webhooks' symmetric scheme). */
    secret: text('secret').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledAt: ts('disabled_at'),
    disabledReason: text('disabled_reason'),
    createdById: text('created_by_id').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhooks_org_idx').on(t.organizationId, t.createdAt)],
);

/** The outbox: one row per event, inserted in the transaction of the change (only when an endpoint wants it). */
export const webhookEvents = pgTable('webhook_events', {
  ...tenantRow(),
  type: text('type').notNull(),
  data: jsonb('data').notNull(),
  createdAt: createdAt(),
});

/**
 * One event to one endpoint. `pending` waits for `next_attempt_at`; `queued` was handed to a worker at
 * `claimed_at` (reclaimed when that worker died); `succeeded` and `failed` are final.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    ...tenantRow(),
    webhookId: refersTo('webhook_id', () => webhooks.id, 'cascade'),
    eventId: refersTo('event_id', () => webhookEvents.id, 'cascade'),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    claimedAt: ts('claimed_at'),
    completedAt: ts('completed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`state in ('pending', 'queued')`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt, t.id),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    ...tenantRow(),
    deliveryId: refersTo('delivery_id', () => webhookDeliveries.id, 'cascade'),
    attempt: integer('attempt').notNull(),
    attemptedAt: ts('attempted_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** The receiver's HTTP status; null when there was no answer (refused, timed out, blocked address). */
    responseStatus: integer('response_status'),
    error: text('error'),
    succeeded: boolean('succeeded').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);
