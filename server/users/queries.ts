import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import { organizationMembers, projectMembers, users } from '../db/schema.js';

/** The person with this e-mail address, compared without regard to case. */
export async function findUserByEmail(db: Db | Tx, email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return user;
}

export async function findUserById(db: Db | Tx, id: string) {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}

/** Inserts a person and their memberships; call it inside the creating transaction. */
export async function insertUser(
  tx: Db | Tx,
  user: typeof users.$inferInsert,
  memberships: readonly (typeof organizationMembers.$inferInsert)[],
): Promise<void> {
  await tx.insert(users).values(user);
  if (memberships.length) await tx.insert(organizationMembers).values([...memberships]);
}

const personColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  staff: users.staff,
  disabledAt: users.disabledAt,
};

export type PersonRow = Awaited<ReturnType<typeof setUserDisabledAt>>;

/** Sets or clears `disabled_at`; the person afterwards, or undefined when there is no such person. A person
 *  already disabled keeps the time they were first disabled. */
export async function setUserDisabledAt(db: Db | Tx, userId: string, disabledAt: Date | null, now: Date) {
  const [row] = await db
    .update(users)
    .set({ disabledAt: disabledAt === null ? null : sql`coalesce(${users.disabledAt}, ${disabledAt})`, updatedAt: now })
    .where(eq(users.id, userId))
    .returning(personColumns);
  return row;
}

/** The organizations a person is a member of. */
export async function membershipOrgIds(db: Db | Tx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ organizationId: organizationMembers.organizationId })
    .from(organizationMembers)
    .where(eq(organizationMembers.userId, userId));
  return rows.map((row) => row.organizationId);
}

const memberColumns = {
  id: organizationMembers.id,
  userId: users.id,
  name: users.name,
  email: users.email,
  role: organizationMembers.role,
  disabledAt: users.disabledAt,
  createdAt: organizationMembers.createdAt,
  updatedAt: sql<Date>`greatest(${users.updatedAt}, ${organizationMembers.updatedAt})`.mapWith(users.updatedAt),
};

const membership = (orgId: string, userId: string) =>
  and(eq(organizationMembers.organizationId, orgId), eq(organizationMembers.userId, userId));

/** One membership with its person, or undefined. */
export async function findMember(db: Db | Tx, orgId: string, userId: string) {
  const [row] = await db
    .select(memberColumns)
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(membership(orgId, userId));
  return row;
}

/** The admins of an organization, locked until the transaction ends: two changes that would each leave one
 *  admin cannot both pass the last-admin check. */
export async function lockOrgAdmins(tx: Tx, orgId: string): Promise<string[]> {
  const rows = await tx
    .select({ userId: organizationMembers.userId })
    .from(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, orgId), eq(organizationMembers.role, 'admin')))
    .for('update');
  return rows.map((r) => r.userId);
}

export async function updateMembershipRole(tx: Tx, orgId: string, userId: string, role: 'admin' | 'member', now: Date) {
  await tx.update(organizationMembers).set({ role, updatedAt: now }).where(membership(orgId, userId));
}

/** Removes the membership and the person's project memberships in that organization. */
export async function deleteMembership(tx: Tx, orgId: string, userId: string): Promise<void> {
  await tx
    .delete(projectMembers)
    .where(and(eq(projectMembers.organizationId, orgId), eq(projectMembers.userId, userId)));
  await tx.delete(organizationMembers).where(membership(orgId, userId));
}
