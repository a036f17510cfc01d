import { and, asc, count, eq, isNotNull, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import { organizationMembers, scimTokens, users } from '../db/schema.js';

export type ScimTokenRow = typeof scimTokens.$inferSelect;

/** The organization's token, if it has one. */
export async function findOrgScimToken(db: Db | Tx, orgId: string): Promise<ScimTokenRow | undefined> {
  const [row] = await db.select().from(scimTokens).where(eq(scimTokens.organizationId, orgId));
  return row;
}

/** The token whose digest this is: each provisioning request looks it up (no cache: a revoked or rotated token
 *  is refused on the next request on every instance). */
export async function findScimTokenByDigest(db: Db, tokenDigest: string) {
  const [row] = await db
    .select({ id: scimTokens.id, organizationId: scimTokens.organizationId })
    .from(scimTokens)
    .where(eq(scimTokens.tokenDigest, tokenDigest));
  return row;
}

/** Notes the token's use, at most once a minute (a provisioning cycle is hundreds of requests). */
export async function touchScimToken(db: Db, id: string, now: Date): Promise<void> {
  await db
    .update(scimTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(scimTokens.id, id),
        or(isNull(scimTokens.lastUsedAt), lt(scimTokens.lastUsedAt, new Date(now.getTime() - 60_000))),
      ),
    );
}

/** Replaces the organization's token (there is at most one); the one it replaces, if any, is returned. */
export async function replaceOrgScimToken(tx: Tx, row: typeof scimTokens.$inferInsert) {
  const [before] = await tx.delete(scimTokens).where(eq(scimTokens.organizationId, row.organizationId)).returning();
  const [after] = await tx.insert(scimTokens).values(row).returning();
  return { before, after: after! };
}

export async function deleteOrgScimToken(tx: Tx, orgId: string): Promise<ScimTokenRow | undefined> {
  const [row] = await tx.delete(scimTokens).where(eq(scimTokens.organizationId, orgId)).returning();
  return row;
}

/** What a SCIM filter may ask of an organization's people (every field given must match). */
export interface ScimPeopleFilter {
  /** Case-insensitive, as userName and e-mail addresses are (RFC 7643 §4.1.1: userName is caseExact false). */
  userName?: string;
  email?: string;
  externalId?: string;
  active?: boolean;
}

const scimPersonColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  disabledAt: users.disabledAt,
  externalId: organizationMembers.externalId,
  scimUserName: organizationMembers.scimUserName,
  role: organizationMembers.role,
  createdAt: organizationMembers.createdAt,
  updatedAt: sql<Date>`greatest(${users.updatedAt}, ${organizationMembers.updatedAt})`.mapWith(
    (v: string | Date) => new Date(v),
  ),
};

export type ScimPersonRow = NonNullable<Awaited<ReturnType<typeof findScimPerson>>>;

const inOrg = (orgId: string, filter: ScimPeopleFilter): SQL | undefined =>
  and(
    eq(organizationMembers.organizationId, orgId),
    filter.userName === undefined
      ? undefined
      : sql`lower(coalesce(${organizationMembers.scimUserName}, ${users.email})) = lower(${filter.userName})`,
    filter.email === undefined ? undefined : sql`lower(${users.email}) = lower(${filter.email})`,
    filter.externalId === undefined ? undefined : eq(organizationMembers.externalId, filter.externalId),
    filter.active === undefined ? undefined : filter.active ? isNull(users.disabledAt) : isNotNull(users.disabledAt),
  );

/** One page of the organization's people matching the filter, in membership order, and how many match. */
export async function scimPeoplePage(db: Db, orgId: string, filter: ScimPeopleFilter, offset: number, limit: number) {
  const where = inOrg(orgId, filter);
  const [total] = await db
    .select({ n: count() })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(where);
  const rows =
    limit === 0
      ? []
      : await db
          .select(scimPersonColumns)
          .from(organizationMembers)
          .innerJoin(users, eq(users.id, organizationMembers.userId))
          .where(where)
          .orderBy(asc(organizationMembers.createdAt), asc(organizationMembers.id))
          .offset(offset)
          .limit(limit);
  return { total: total?.n ?? 0, rows };
}

/** A person of the organization (undefined for anyone else, wherever else they belong). */
export async function findScimPerson(db: Db | Tx, orgId: string, userId: string) {
  const [row] = await db
    .select(scimPersonColumns)
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(and(eq(organizationMembers.organizationId, orgId), eq(organizationMembers.userId, userId)));
  return row;
}

/** Whether another member of the organization is already known to the provider by this externalId. */
export async function externalIdTaken(db: Db | Tx, orgId: string, externalId: string, userId: string) {
  const [row] = await db
    .select({ userId: organizationMembers.userId })
    .from(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, orgId), eq(organizationMembers.externalId, externalId)));
  return row !== undefined && row.userId !== userId;
}

export async function updatePersonProfile(tx: Tx, userId: string, fields: { email: string; name: string }, now: Date) {
  await tx
    .update(users)
    .set({ ...fields, updatedAt: now })
    .where(eq(users.id, userId));
}

/** The provider's ids for the person in the organization: externalId and a userName other than the e-mail. */
export async function setMemberScimIds(
  tx: Tx,
  orgId: string,
  userId: string,
  ids: { externalId: string | null; scimUserName: string | null },
  now: Date,
) {
  await tx
    .update(organizationMembers)
    .set({ ...ids, updatedAt: now })
    .where(and(eq(organizationMembers.organizationId, orgId), eq(organizationMembers.userId, userId)));
}
