import { and, eq, sql } from 'drizzle-orm';
import { CALLERS_CHANNEL } from '../auth/guard.js';
import { hashSecret } from '../auth/secrets.js';
import type { InvalidationBus } from '../cache/bus.js';
import type { Db } from '../db/client.js';
import { organizationMembers, organizations, users } from '../db/schema.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';

export interface NewUser {
  email: string;
  name: string;
  password?: string;
  staff?: boolean;
  memberships?: { orgId: string; role: 'admin' | 'member' }[];
  company?: string;
  title?: string;
  phone?: string;
}

export async function createUser(db: Db, input: NewUser) {
  const email = input.email.trim();
  const [existing] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email})`);
  if (existing) throw new ApiError('conflict', `A user with e-mail ${email} already exists`);
  for (const m of input.memberships ?? []) {
    const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, m.orgId));
    if (!org) throw ApiError.badRequest(`Unknown organization: ${m.orgId}`);
  }
  const id = newId('usr');
  const passwordHash = input.password ? await hashSecret(input.password) : null;
  await db.transaction(async (tx) => {
    await tx.insert(users).values({
      id,
      email,
      name: input.name,
      passwordHash,
      staff: input.staff ?? false,
      company: input.company,
      title: input.title,
      phone: input.phone,
    });
    if (input.memberships?.length) {
      await tx
        .insert(organizationMembers)
        .values(
          input.memberships.map((m) => ({ id: newId('mem'), organizationId: m.orgId, userId: id, role: m.role })),
        );
    }
  });
  return { id, email, name: input.name, staff: input.staff ?? false };
}

export async function findUserByEmail(db: Db, email: string) {
  const [user] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  return user;
}

/** Disables a person: no new sign-in, and every token of theirs is refused on the next request on every
 *  instance (the cached caller is dropped through the bus; without the bus, within the cache TTL). */
export async function disableUser(db: Db, bus: InvalidationBus, userId: string, now: Date): Promise<void> {
  const [row] = await db.update(users).set({ disabledAt: now, updatedAt: now }).where(eq(users.id, userId)).returning();
  if (!row) throw ApiError.notFound(`User ${userId}`);
  await bus.publish(CALLERS_CHANNEL, `user:${userId}`);
}

/** Removes a person from an organization: their tokens no longer reach it from the next request on. */
export async function removeMembership(db: Db, bus: InvalidationBus, orgId: string, userId: string): Promise<void> {
  const removed = await db
    .delete(organizationMembers)
    .where(and(eq(organizationMembers.organizationId, orgId), eq(organizationMembers.userId, userId)))
    .returning();
  if (removed.length === 0) throw ApiError.notFound(`Membership of ${userId} in ${orgId}`);
  await bus.publish(CALLERS_CHANNEL, `user:${userId}`);
}
