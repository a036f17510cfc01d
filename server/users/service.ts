import { CALLERS_CHANNEL } from '../auth/guard.js';
import { hashSecret } from '../auth/secrets.js';
import type { InvalidationBus } from '../cache/bus.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { newId } from '../ids.js';
import { findOrganization } from '../organizations/queries.js';
import { deleteMembership, findUserByEmail, insertUser, markUserDisabled } from './queries.js';

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
  if (await findUserByEmail(db, email)) throw new ApiError('conflict', `A user with e-mail ${email} already exists`);
  for (const m of input.memberships ?? []) {
    if (!(await findOrganization(db, m.orgId))) throw ApiError.badRequest(`Unknown organization: ${m.orgId}`);
  }
  const id = newId('usr');
  const passwordHash = input.password ? await hashSecret(input.password) : null;
  await db.transaction((tx) =>
    insertUser(
      tx,
      {
        id,
        email,
        name: input.name,
        passwordHash,
        staff: input.staff ?? false,
        company: input.company,
        title: input.title,
        phone: input.phone,
      },
      (input.memberships ?? []).map((m) => ({ id: newId('mem'), organizationId: m.orgId, userId: id, role: m.role })),
    ),
  );
  return { id, email, name: input.name, staff: input.staff ?? false };
}

/** Disables a person: no new sign-in, and every token of theirs is refused on the next request on every
 *  instance (the cached caller is dropped through the bus; without the bus, within the cache TTL). */
export async function disableUser(db: Db, bus: InvalidationBus, userId: string, now: Date): Promise<void> {
  if (!(await markUserDisabled(db, userId, now))) throw ApiError.notFound(`User ${userId}`);
  await bus.publish(CALLERS_CHANNEL, `user:${userId}`);
}

/** Removes a person from an organization: their tokens no longer reach it from the next request on. */
export async function removeMembership(db: Db, bus: InvalidationBus, orgId: string, userId: string): Promise<void> {
  if (!(await deleteMembership(db, orgId, userId))) throw ApiError.notFound(`Membership of ${userId} in ${orgId}`);
  await bus.publish(CALLERS_CHANNEL, `user:${userId}`);
}
