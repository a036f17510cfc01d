import { and, asc, eq, inArray, isNotNull, isNull, notInArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/connection.js';
import { selectRows } from '../db/rows.js';
import { apiKeyOrgScopes, apiKeys, demoCredentials, organizations, projects, users } from '../db/schema.js';

export const hasOrganizations = (db: Db): Promise<boolean> => hasOrganizationsBesides(db, []);

/** Whether the database holds an organization other than these (the demo's). */
export async function hasOrganizationsBesides(db: Db, ids: string[]): Promise<boolean> {
  const [row] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(ids.length ? notInArray(organizations.id, ids) : undefined)
    .limit(1);
  return row !== undefined;
}

const DEMO_ROW = 'demo';

export async function readStoredDemoCredentials(db: Db): Promise<unknown> {
  const [row] = await db.select({ credentials: demoCredentials.credentials }).from(demoCredentials);
  return row?.credentials;
}

/** Keeps the first credentials stored: a second instance seeding at the same moment gets those back. */
export async function storeDemoCredentials(db: Db, credentials: unknown): Promise<unknown> {
  await db.insert(demoCredentials).values({ id: DEMO_ROW, credentials }).onConflictDoNothing();
  return readStoredDemoCredentials(db);
}

/**
 * People who can still sign in with a password and whose address is at a reserved `.example` domain (RFC 2606):
 * the seed's and earlier starts' demo people; no real mailbox has such an address.
 */
export async function enabledExampleDomainPeople(db: Db) {
  return db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(isNull(users.disabledAt), isNotNull(users.passwordHash), sql`lower(${users.email}) LIKE '%.example'`))
    .orderBy(asc(users.email));
}

/** People with these addresses (any case) who can still sign in. */
export async function enabledPeopleByEmail(db: Db, emails: string[]) {
  if (!emails.length) return [];
  return db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      and(
        isNull(users.disabledAt),
        inArray(
          sql`lower(${users.email})`,
          emails.map((e) => e.toLowerCase()),
        ),
      ),
    )
    .orderBy(asc(users.email));
}

export async function disableUsers(db: Db, ids: string[], at: Date): Promise<void> {
  if (ids.length) await db.update(users).set({ disabledAt: at, updatedAt: at }).where(inArray(users.id, ids));
}

export async function disableClient(db: Db, id: string, at: Date): Promise<void> {
  await db.update(apiKeys).set({ enabled: false, updatedAt: at }).where(eq(apiKeys.id, id));
}

export async function findClientByClientId(db: Db, clientId: string) {
  const [row] = await db
    .select({ id: apiKeys.id, clientId: apiKeys.clientId, enabled: apiKeys.enabled })
    .from(apiKeys)
    .where(and(eq(apiKeys.clientId, clientId), isNull(apiKeys.deletedAt)));
  return row;
}

export async function findClientByName(db: Db, name: string, createdBy: string) {
  const [row] = await db
    .select({ id: apiKeys.id, clientId: apiKeys.clientId, enabled: apiKeys.enabled })
    .from(apiKeys)
    .where(and(eq(apiKeys.name, name), eq(apiKeys.createdBy, createdBy), isNull(apiKeys.deletedAt)))
    .orderBy(asc(apiKeys.createdAt))
    .limit(1);
  return row;
}

/** The organizations a client is scoped to, with their projects, by name. */
export async function organizationsOfClient(db: Db, clientRowId: string) {
  const orgRows = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(apiKeyOrgScopes)
    .innerJoin(organizations, eq(organizations.id, apiKeyOrgScopes.organizationId))
    .where(eq(apiKeyOrgScopes.clientRowId, clientRowId))
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
