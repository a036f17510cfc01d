import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { OAuthClient } from '../../shared/clients.js';
import { permissionKeys } from '../../shared/permissions.js';
import type { Db, Tx } from '../db/client.js';
import { oauthClientOrgScopes, oauthClientProjectScopes, oauthClients, organizations, projects } from '../db/schema.js';

type ClientRow = typeof oauthClients.$inferSelect;

export async function insertClient(
  tx: Db | Tx,
  row: typeof oauthClients.$inferInsert,
  scopes: { orgs: string[]; projects: { orgId: string; projectId: string }[] },
): Promise<void> {
  await tx.insert(oauthClients).values(row);
  if (scopes.orgs.length > 0) {
    await tx
      .insert(oauthClientOrgScopes)
      .values(scopes.orgs.map((organizationId) => ({ clientRowId: row.id, organizationId })));
  }
  if (scopes.projects.length > 0) {
    await tx
      .insert(oauthClientProjectScopes)
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
    .from(oauthClients)
    .where(and(eq(oauthClients.id, id), isNull(oauthClients.deletedAt)));
  return row;
}

/** The OAuth client resource (never the secret) for rows, with their scopes loaded in one query each. */
export async function toClientResources(db: Db | Tx, rows: ClientRow[]): Promise<OAuthClient[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [orgScopes, projectScopes] = await Promise.all([
    db.select().from(oauthClientOrgScopes).where(inArray(oauthClientOrgScopes.clientRowId, ids)),
    db.select().from(oauthClientProjectScopes).where(inArray(oauthClientProjectScopes.clientRowId, ids)),
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
      orgIds: [...new Set([...orgs.map((o) => o.orgId), ...projectList.map((p) => p.orgId)])].sort(),
    };
  });
}
