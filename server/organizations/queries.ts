import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../cursor.js';
import type { Db, Tx } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { likeContains } from '../db/like.js';
import { organizations, projects } from '../db/schema.js';

export async function insertOrganization(tx: Db | Tx, row: { id: string; name: string }): Promise<void> {
  await tx.insert(organizations).values(row);
}

export async function findOrganization(db: Db | Tx, orgId: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, orgId));
  return row;
}

const organizationsByName = keysetOrder(organizations.name, organizations.id, 'asc');
const projectsByName = keysetOrder(projects.name, projects.id, 'asc');

/** One page of organizations by name (every one, or only some ids). */
export async function listOrganizationRows(
  db: Db | Tx,
  options: { only?: readonly string[]; after?: KeysetPosition; limit: number },
) {
  const conditions: SQL[] = [];
  if (options.only) conditions.push(inArray(organizations.id, [...options.only]));
  return db
    .select()
    .from(organizations)
    .where(and(...conditions, organizationsByName.after(options.after)))
    .orderBy(...organizationsByName.orderBy)
    .limit(options.limit);
}

/** A project whose name, code or one of its aliases contains `text`, whatever the case. */
const projectMatches = (text: string): SQL => {
  const like = likeContains(text);
  return sql`(${projects.name} ilike ${like} or ${projects.code} ilike ${like} or exists (select 1 from unnest(${projects.aliases}) as alias where alias ilike ${like}))`;
};

/** One page of an organization's projects by name (index projects_org_name_idx), optionally only some ids, or
 *  only those matching a search text. */
export async function listProjectRows(
  db: Db | Tx,
  options: { orgId: string; only?: readonly string[]; search?: string; after?: KeysetPosition; limit: number },
) {
  const conditions: SQL[] = [eq(projects.organizationId, options.orgId)];
  if (options.only) conditions.push(inArray(projects.id, [...options.only]));
  if (options.search) conditions.push(projectMatches(options.search));
  return db
    .select()
    .from(projects)
    .where(and(...conditions, projectsByName.after(options.after)))
    .orderBy(...projectsByName.orderBy)
    .limit(options.limit);
}

export type ProjectRow = typeof projects.$inferSelect;

export async function insertProject(db: Db | Tx, row: typeof projects.$inferInsert): Promise<ProjectRow> {
  const [inserted] = await db.insert(projects).values(row).returning();
  return inserted!;
}

/** The updated row, or undefined when the organization has no such project. */
export async function updateProjectRow(
  db: Db | Tx,
  target: { organizationId: string; projectId: string },
  change: Partial<Pick<ProjectRow, 'name' | 'code' | 'aliases' | 'siteAddress' | 'referenceNumbers'>>,
): Promise<ProjectRow | undefined> {
  const [row] = await db
    .update(projects)
    .set(change)
    .where(and(eq(projects.id, target.projectId), eq(projects.organizationId, target.organizationId)))
    .returning();
  return row;
}
