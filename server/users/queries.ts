import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import { organizationMembers, users } from '../db/schema.js';

/** The person with this e-mail address, compared without regard to case. */
export async function findUserByEmail(db: Db | Tx, email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
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

/** Whether a person was there to disable. */
export async function markUserDisabled(db: Db | Tx, userId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ disabledAt: now, updatedAt: now })
    .where(eq(users.id, userId))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Whether there was such a membership to delete. */
export async function deleteMembership(db: Db | Tx, orgId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, orgId), eq(organizationMembers.userId, userId)))
    .returning({ id: organizationMembers.id });
  return rows.length > 0;
}
