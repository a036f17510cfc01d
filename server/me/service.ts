import { MAX_ME_ORGANIZATIONS, type Me } from '../../shared/me.js';
import type { Caller } from '../auth/caller.js';
import type { Db } from '../db/connection.js';
import { listMemberships, listOrganizationsByName } from './queries.js';

/** The signed-in person and the organizations they may act in: their memberships, or for staff every
 *  organization (the first MAX_ME_ORGANIZATIONS by name, their own role where they are members). */
export async function describeMe(db: Db, caller: Caller): Promise<Me> {
  const identity = { id: caller.id, name: caller.name, email: caller.email, staff: caller.staff };
  const memberships = await listMemberships(db, caller.id);
  if (!caller.staff) return { ...identity, organizations: memberships, organizationsTruncated: false };
  const all = await listOrganizationsByName(db, MAX_ME_ORGANIZATIONS + 1);
  const roles = new Map(memberships.map((m) => [m.id, m.role]));
  return {
    ...identity,
    organizations: all
      .slice(0, MAX_ME_ORGANIZATIONS)
      .map((org) => ({ ...org, role: roles.get(org.id) ?? ('staff' as const) })),
    organizationsTruncated: all.length > MAX_ME_ORGANIZATIONS,
  };
}
