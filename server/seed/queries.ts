import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/connection.js';
import { selectRows } from '../db/rows.js';
import {
  oauthClientOrgScopes,
  oauthClients,
  organizationMembers,
  organizations,
  projects,
  users,
} from '../db/schema.js';
import { newId } from '../ids.js';

export async function hasOrganizations(db: Db): Promise<boolean> {
  const [row] = await db.select({ id: organizations.id }).from(organizations).limit(1);
  return row !== undefined;
}

export async function findClientByClientId(db: Db, clientId: string) {
  const [row] = await db
    .select({ id: oauthClients.id, clientId: oauthClients.clientId })
    .from(oauthClients)
    .where(and(eq(oauthClients.clientId, clientId), isNull(oauthClients.deletedAt)));
  return row;
}

export async function findClientByName(db: Db, name: string, createdBy: string) {
  const [row] = await db
    .select({ id: oauthClients.id, clientId: oauthClients.clientId })
    .from(oauthClients)
    .where(and(eq(oauthClients.name, name), eq(oauthClients.createdBy, createdBy), isNull(oauthClients.deletedAt)))
    .orderBy(asc(oauthClients.createdAt))
    .limit(1);
  return row;
}

export async function setClientSecretHash(db: Db, id: string, secretHash: string, at: Date): Promise<void> {
  await db.update(oauthClients).set({ secretHash, updatedAt: at }).where(eq(oauthClients.id, id));
}

export async function setUserPasswordHash(db: Db, id: string, passwordHash: string, at: Date): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, id));
}

/** Makes the user a member of the organization with this role (or gives an existing membership the role). */
export async function setMembershipRole(db: Db, orgId: string, userId: string, role: 'admin' | 'member') {
  await db
    .insert(organizationMembers)
    .values({ id: newId('mem'), organizationId: orgId, userId, role })
    .onConflictDoUpdate({ target: [organizationMembers.organizationId, organizationMembers.userId], set: { role } });
}

/** The organizations a client is scoped to, with their projects, by name. */
export async function organizationsOfClient(db: Db, clientRowId: string) {
  const orgRows = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(oauthClientOrgScopes)
    .innerJoin(organizations, eq(organizations.id, oauthClientOrgScopes.organizationId))
    .where(eq(oauthClientOrgScopes.clientRowId, clientRowId))
    .orderBy(asc(organizations.createdAt), asc(organizations.id));
  const ids = orgRows.map((o) => o.id);
  const projectRows = ids.length
    ? await db
        .select({ id: projects.id, name: projects.name, organizationId: projects.organizationId })
        .from(projects)
        .where(inArray(projects.organizationId, ids))
        .orderBy(asc(projects.createdAt), asc(projects.id))
    : [];
  return orgRows.map((org) => ({
    ...org,
    projects: projectRows.filter((p) => p.organizationId === org.id).map(({ id, name }) => ({ id, name })),
  }));
}

export async function allOrganizationIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: organizations.id }).from(organizations).orderBy(asc(organizations.createdAt));
  return rows.map((r) => r.id);
}

/** Members of these organizations who can sign in with a password, admins first, oldest first. */
export async function passwordMembers(db: Db, orgIds: string[]) {
  if (orgIds.length === 0) return [];
  return db
    .select({
      userId: users.id,
      email: users.email,
      passwordHash: users.passwordHash,
      role: organizationMembers.role,
      orgId: organizationMembers.organizationId,
    })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(and(inArray(organizationMembers.organizationId, orgIds), isNotNull(users.passwordHash)))
    .orderBy(asc(organizationMembers.organizationId), asc(organizationMembers.role), asc(organizationMembers.createdAt))
    .limit(orgIds.length * 10);
}

const IndexDefinition = z.object({ name: z.string(), definition: z.string() });
export type IndexDefinition = z.output<typeof IndexDefinition>;

/** The non-unique indexes of these tables (unique ones stay: they guard the data while it loads). */
export async function secondaryIndexes(db: Db, tables: string[]): Promise<IndexDefinition[]> {
  return selectRows(
    db,
    sql`
    SELECT indexname AS name, indexdef AS definition FROM pg_indexes
    WHERE schemaname = current_schema() AND tablename = ANY(${sql.param(tables)}::text[])
      AND indexdef NOT LIKE 'CREATE UNIQUE INDEX%'
    ORDER BY tablename, indexname`,
    IndexDefinition,
  );
}

export async function dropIndexes(db: Db, indexes: IndexDefinition[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const index of indexes) await tx.execute(sql`DROP INDEX ${sql.identifier(index.name)}`);
  });
}

/** Recreates indexes from their definitions, with enough memory for a sorted build. */
export async function createIndexes(db: Db, indexes: IndexDefinition[], onEach?: () => void): Promise<void> {
  for (const index of indexes) {
    await db.transaction(async (tx: Tx) => {
      await tx.execute(sql`SET LOCAL maintenance_work_mem = '128MB'`);
      await tx.execute(sql.raw(index.definition));
    });
    onEach?.();
  }
}
