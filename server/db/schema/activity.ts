// The activity feeds: what happened in an organization, a project or to a document.
import { bigint, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, tenantRow } from './columns.js';

/** One table serves both feeds: the organization feed (every row of the org) and a document's
 *  history (rows with document_id). Non-document events (settings changes) leave document_id null. */
export const activity = pgTable(
  'activity',
  {
    ...tenantRow(),
    projectId: text('project_id'),
    documentId: text('document_id'),
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    title: text('title').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>(),
    dispatchId: text('dispatch_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('activity_org_created_idx').on(t.organizationId, t.createdAt, t.id),
    index('activity_org_project_created_idx').on(t.organizationId, t.projectId, t.createdAt, t.id),
    index('activity_org_actor_created_idx').on(t.organizationId, t.actorId, t.createdAt, t.id),
    index('activity_org_action_created_idx').on(t.organizationId, t.action, t.createdAt, t.id),
    index('activity_document_created_idx').on(t.documentId, t.createdAt, t.id),
  ],
);

/** Exact row counts of `activity` per organization and project ('' for the organization's own entries), kept by
 *  statement-level triggers in the same transaction as the rows (migration 0004, hand-written): the unfiltered
 *  feed totals without counting the rows. */
export const activityCounts = pgTable(
  'activity_counts',
  {
    organizationId: text('organization_id').notNull(),
    projectId: text('project_id').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.projectId] })],
);
