// Platform-level records: support issues (staff, no organization) and the command pipeline's bookkeeping.
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { bytea, createdAt, ts } from './columns.js';

export const supportIssues = pgTable('support_issues', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  description: text('description').notNull(),
  approach: text('approach').notNull(),
  createdAt: createdAt(),
  createdBy: text('created_by').notNull(),
});

export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    /** The caller the key belongs to: `client:<clientId>` or `user:<userId>`. */
    callerKey: text('caller_key').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    organizationId: text('organization_id'),
    requestHash: text('request_hash').notNull(),
    state: text('state', { enum: ['in_progress', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    responseBody: bytea('response_body'),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.callerKey, t.idempotencyKey] }),
    index('idempotency_records_expires_idx').on(t.expiresAt),
  ],
);

export const commandEvents = pgTable('command_events', {
  id: text('id').primaryKey(),
  organizationId: text('organization_id'),
  callerKey: text('caller_key').notNull(),
  command: text('command').notNull(),
  entityId: text('entity_id').notNull(),
  note: text('note'),
  createdAt: createdAt(),
});

/**
 * The demo's credentials, kept with the demo data (one row, only in a database seeded as the demo), so that every
 * start and every instance in demo mode shows the same ones and none rotates them.
 */
export const demoCredentials = pgTable('demo_credentials', {
  id: text('id').primaryKey(),
  credentials: jsonb('credentials').notNull(),
  createdAt: createdAt(),
});
