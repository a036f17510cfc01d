// API keys (OAuth clients with a secret; the wire calls them clients), the organizations and projects they reach, and their usage.
import { bigint, boolean, doublePrecision, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, emptyTextArray, orgId, refersTo, ts, updatedAt } from './columns.js';
import { organizations, projects } from './organizations.js';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    clientId: text('client_id').notNull().unique(),
    secretHash: text('secret_hash').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    superadmin: boolean('superadmin').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    permissions: text('permissions').array().notNull().default(emptyTextArray()),
    createdBy: text('created_by').notNull(),
    createdByClientId: text('created_by_client_id'),
    createdByUserId: text('created_by_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [index('api_keys_created_by_client_idx').on(t.createdByClientId, t.createdAt, t.id)],
);

/** The key a row belongs to: scopes and usage go with the key. */
const ofClient = () => refersTo('client_row_id', () => apiKeys.id, 'cascade');

export const apiKeyOrgScopes = pgTable(
  'api_key_org_scopes',
  {
    clientRowId: ofClient(),
    organizationId: orgId().references(() => organizations.id),
    grantedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.clientRowId, t.organizationId] })],
);

export const apiKeyProjectScopes = pgTable(
  'api_key_project_scopes',
  {
    clientRowId: ofClient(),
    organizationId: orgId().references(() => organizations.id),
    projectId: refersTo('project_id', () => projects.id),
    grantedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.clientRowId, t.projectId] })],
);

/** Per client and route template: aggregated off the request path, flushed in batches. */
export const requestUsage = pgTable(
  'request_usage',
  {
    clientRowId: ofClient(),
    endpoint: text('endpoint').notNull(),
    count: bigint('count', { mode: 'number' }).notNull().default(0),
    totalMs: doublePrecision('total_ms').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.clientRowId, t.endpoint] })],
);
