// The audit log: every administrative change and every sign-in, append-only (migration 0025 adds a trigger that
// refuses UPDATE and DELETE, so not even a bug or a hand-typed statement can edit the record).
import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

export const auditEvents = pgTable(
  'audit_events',
  {
    id: text('id').primaryKey(),
    /** The organization the change concerns; null for what concerns none (a staff change to a key of many
     *  organizations, a failed sign-in for an unknown address). */
    organizationId: text('organization_id'),
    /** `user`, `client` (an API key) or `anonymous` (a failed sign-in). */
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    actorEmail: text('actor_email').notNull(),
    /** The client address as the route saw it (`req.ip`, after the configured trusted proxies). */
    ip: text('ip'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** Before and after of the changed fields, never a secret: `{field: {before, after}}`. */
    changes: jsonb('changes').$type<Record<string, { before: unknown; after: unknown }>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_events_org_created_idx').on(t.organizationId, t.createdAt, t.id),
    index('audit_events_org_actor_created_idx').on(t.organizationId, t.actorId, t.createdAt, t.id),
  ],
);
