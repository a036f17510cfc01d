import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/connection.js';
import { organizationMembers, organizations } from '../db/schema.js';

/** A person's memberships with organization names, by name. */
export function listMemberships(db: Db | Tx, userId: string) {
  return db
    .select({ id: organizations.id, name: organizations.name, role: organizationMembers.role })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(eq(organizationMembers.userId, userId))
    .orderBy(asc(organizations.name), asc(organizations.id));
}

/** The first `limit` organizations by name (staff reach all of them). */
export function listOrganizationsByName(db: Db | Tx, limit: number) {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .orderBy(asc(organizations.name), asc(organizations.id))
    .limit(limit);
}
