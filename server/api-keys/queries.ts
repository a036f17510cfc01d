import { and, eq, inArray, isNull, notInArray, type SQL, sql } from 'drizzle-orm';
import type { OAuthClient } from '../../shared/api-keys.js';
import { permissionKeys } from '../../shared/permissions.js';
import type { KeysetPosition } from '../cursor.js';
import type { Db, Tx } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { apiKeyOrgScopes, apiKeyProjectScopes, apiKeys, organizations, projects, requestUsage } from '../db/schema.js';
import type { UsageDelta } from '../usage/recorder.js';

export type ClientRow = typeof apiKeys.$inferSelect;

export async function insertClient(
  tx: Db | Tx,
  row: typeof apiKeys.$inferInsert,
  scopes: { orgs: string[]; projects: { orgId: string; projectId: string }[] },
): Promise<void> {
  await tx.insert(apiKeys).values(row);
  if (scopes.orgs.length > 0) {
    await tx
      .insert(apiKeyOrgScopes)
      .values(scopes.orgs.map((organizationId) => ({ clientRowId: row.id, organizationId })));
  }
  if (scopes.projects.length > 0) {
    await tx
      .insert(apiKeyProjectScopes)
      .values(scopes.projects.map((p) => ({ clientRowId: row.id, organizationId: p.orgId, projectId: p.projectId })));
  }
}

/** Which of the given organizations exist, and which projects exist in the organization named with them. */
export async function existingScopeTargets(
  db: Db | Tx,
  orgIds: string[],
  projectIds: string[],
): Promise<{ orgs: Set<string>; projectOrg: Map<string, string> }> {
  const [orgRows, projectRows] = await Promise.all([
    orgIds.length
      ? db.select({ id: organizations.id }).from(organizations).where(inArray(organizations.id, orgIds))
      : [],
    projectIds.length
      ? db
          .select({ id: projects.id, organizationId: projects.organizationId })
          .from(projects)
          .where(inArray(projects.id, projectIds))
      : [],
  ]);
  return {
    orgs: new Set(orgRows.map((r) => r.id)),
    projectOrg: new Map(projectRows.map((r) => [r.id, r.organizationId])),
  };
}

export async function findClientRow(db: Db | Tx, id: string): Promise<ClientRow | undefined> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.deletedAt)));
  return row;
}

/** The OAuth client resource (never the secret) for rows, with their scopes loaded in one query each. */
/** A client resource before its usage summary is added (server/api-keys/service.ts). */
export type ClientResource = Omit<OAuthClient, 'usageSummary'>;

export async function toClientResources(db: Db | Tx, rows: ClientRow[]): Promise<ClientResource[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [orgScopes, projectScopes, everyOrgId] = await Promise.all([
    db.select().from(apiKeyOrgScopes).where(inArray(apiKeyOrgScopes.clientRowId, ids)),
    db.select().from(apiKeyProjectScopes).where(inArray(apiKeyProjectScopes.clientRowId, ids)),
    // A superadmin key reaches every organization: its orgIds say so.
    rows.some((row) => row.superadmin)
      ? db.select({ id: organizations.id }).from(organizations).orderBy(organizations.id)
      : [],
  ]);
  return rows.map((row) => {
    const orgs = orgScopes
      .filter((s) => s.clientRowId === row.id)
      .map((s) => ({ orgId: s.organizationId, grantedAt: s.grantedAt.toISOString() }));
    const projectList = projectScopes
      .filter((s) => s.clientRowId === row.id)
      .map((s) => ({ orgId: s.organizationId, projectId: s.projectId, grantedAt: s.grantedAt.toISOString() }));
    return {
      id: row.id,
      clientId: row.clientId,
      name: row.name,
      description: row.description,
      superadmin: row.superadmin,
      enabled: row.enabled,
      createdBy: row.createdBy,
      createdAt: row.createdAt.toISOString(),
      permissions: Object.fromEntries(
        permissionKeys.map((key) => [key, row.permissions.includes(key)]),
      ) as OAuthClient['permissions'],
      scopes: { orgs, projects: projectList },
      orgIds: row.superadmin
        ? everyOrgId.map((o) => o.id)
        : [...new Set([...orgs.map((o) => o.orgId), ...projectList.map((p) => p.orgId)])].sort(),
    };
  });
}

/** The live client with this public client id (enabled or not), for the token exchange. */
export async function findClientByClientId(db: Db | Tx, clientId: string): Promise<ClientRow | undefined> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.clientId, clientId), isNull(apiKeys.deletedAt)));
  return row;
}

/**
 * Keys an organization manages itself: not superadmin, at least one scope in the organization and none
 * in any other (a key that spans organizations belongs to staff).
 */
const confinedToOrg = (orgId: string): SQL => sql`not ${apiKeys.superadmin}
  and (exists (select 1 from ${apiKeyOrgScopes} s where s.client_row_id = ${apiKeys.id} and s.organization_id = ${orgId})
    or exists (select 1 from ${apiKeyProjectScopes} p where p.client_row_id = ${apiKeys.id} and p.organization_id = ${orgId}))
  and not exists (select 1 from ${apiKeyOrgScopes} s where s.client_row_id = ${apiKeys.id} and s.organization_id <> ${orgId})
  and not exists (select 1 from ${apiKeyProjectScopes} p where p.client_row_id = ${apiKeys.id} and p.organization_id <> ${orgId})`;

/** The live client with this id if it reaches only this organization (see `confinedToOrg`). */
export async function findOrgClientRow(db: Db | Tx, id: string, orgId: string): Promise<ClientRow | undefined> {
  const [row] = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.deletedAt), confinedToOrg(orgId)));
  return row;
}

const newestFirst = keysetOrder(apiKeys.createdAt, apiKeys.id, 'desc', 'timestamptz');

/**
 * One page of live clients, newest first, optionally only those a key created or those confined to one
 * organization; `after` is the last row seen.
 */
export async function listClientRows(
  db: Db | Tx,
  options: {
    createdByClientId?: string;
    confinedToOrgId?: string;
    after?: KeysetPosition;
    limit: number;
  },
): Promise<ClientRow[]> {
  const conditions: SQL[] = [isNull(apiKeys.deletedAt)];
  if (options.createdByClientId) conditions.push(eq(apiKeys.createdByClientId, options.createdByClientId));
  if (options.confinedToOrgId) conditions.push(confinedToOrg(options.confinedToOrgId));
  return db
    .select()
    .from(apiKeys)
    .where(and(...conditions, newestFirst.after(options.after)))
    .orderBy(...newestFirst.orderBy)
    .limit(options.limit);
}

export async function updateClientRow(
  tx: Db | Tx,
  id: string,
  changes: Partial<
    Pick<ClientRow, 'name' | 'description' | 'enabled' | 'superadmin' | 'permissions' | 'secretHash'>
  > & {
    updatedAt: Date;
  },
): Promise<void> {
  await tx.update(apiKeys).set(changes).where(eq(apiKeys.id, id));
}

export async function softDeleteClientRow(tx: Db | Tx, id: string, at: Date): Promise<void> {
  await tx.update(apiKeys).set({ deletedAt: at, enabled: false, updatedAt: at }).where(eq(apiKeys.id, id));
}

/** Makes the client's scopes exactly these; scopes it already had keep their grantedAt. */
export async function replaceClientScopes(
  tx: Db | Tx,
  clientRowId: string,
  scopes: { orgs: string[]; projects: { orgId: string; projectId: string }[] },
): Promise<void> {
  const keepOrgs = scopes.orgs.length
    ? and(eq(apiKeyOrgScopes.clientRowId, clientRowId), notInArray(apiKeyOrgScopes.organizationId, scopes.orgs))
    : eq(apiKeyOrgScopes.clientRowId, clientRowId);
  await tx.delete(apiKeyOrgScopes).where(keepOrgs);
  const projectIds = scopes.projects.map((p) => p.projectId);
  const keepProjects = projectIds.length
    ? and(eq(apiKeyProjectScopes.clientRowId, clientRowId), notInArray(apiKeyProjectScopes.projectId, projectIds))
    : eq(apiKeyProjectScopes.clientRowId, clientRowId);
  await tx.delete(apiKeyProjectScopes).where(keepProjects);
  if (scopes.orgs.length) {
    await tx
      .insert(apiKeyOrgScopes)
      .values(scopes.orgs.map((organizationId) => ({ clientRowId, organizationId })))
      .onConflictDoNothing();
  }
  if (scopes.projects.length) {
    await tx
      .insert(apiKeyProjectScopes)
      .values(scopes.projects.map((p) => ({ clientRowId, organizationId: p.orgId, projectId: p.projectId })))
      .onConflictDoNothing();
  }
}

/** Adds counts to `request_usage` in one upsert. */
export async function addUsage(db: Db | Tx, deltas: UsageDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  await db
    .insert(requestUsage)
    .values(deltas)
    .onConflictDoUpdate({
      target: [requestUsage.clientRowId, requestUsage.endpoint],
      set: {
        count: sql`${requestUsage.count} + excluded.count`,
        totalMs: sql`${requestUsage.totalMs} + excluded.total_ms`,
      },
    });
}

export async function usageRows(db: Db | Tx, clientRowIds: string[]): Promise<UsageDelta[]> {
  if (clientRowIds.length === 0) return [];
  return db
    .select({
      clientRowId: requestUsage.clientRowId,
      endpoint: requestUsage.endpoint,
      count: requestUsage.count,
      totalMs: requestUsage.totalMs,
    })
    .from(requestUsage)
    .where(inArray(requestUsage.clientRowId, clientRowIds));
}
