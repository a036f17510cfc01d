import { and, eq, exists, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { KeysetPosition } from '../cursor.js';
import type { Db } from '../db/connection.js';
import { keysetOrder } from '../db/keyset.js';
import { organizationMembers, projectMembers, users } from '../db/schema.js';

export interface DirectoryFilters {
  organizationId: string;
  /** 'all', or: only people who are members of one of these projects. */
  visibleProjects: 'all' | readonly string[];
  search?: string;
}

const sortName = sql<string>`lower(${users.name})`;
const byName = keysetOrder(sortName, organizationMembers.id, 'asc');

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function directoryConditions(db: Db, f: DirectoryFilters): SQL | undefined {
  const pattern = f.search === undefined ? undefined : `%${escapeLike(f.search)}%`;
  const visible = f.visibleProjects;
  return and(
    eq(organizationMembers.organizationId, f.organizationId),
    pattern === undefined
      ? undefined
      : or(ilike(users.name, pattern), ilike(users.email, pattern), ilike(users.company, pattern)),
    visible === 'all'
      ? undefined
      : visible.length === 0
        ? sql`false`
        : exists(
            db
              .select({ one: sql`1` })
              .from(projectMembers)
              .where(
                and(
                  eq(projectMembers.userId, organizationMembers.userId),
                  eq(projectMembers.organizationId, f.organizationId),
                  inArray(projectMembers.projectId, [...visible]),
                ),
              ),
          ),
  );
}

export type DirectoryRow = Awaited<ReturnType<typeof directoryPage>>[number];

/** One page (plus one row) of an organization's directory by name (case-insensitive), then entry id; each entry
 *  with its role and whether the person is disabled (the members list, `users/service.ts`). */
export function directoryPage(db: Db, f: DirectoryFilters, position: KeysetPosition | undefined, limit: number) {
  return db
    .select({
      id: organizationMembers.id,
      userId: users.id,
      sortName,
      name: users.name,
      email: users.email,
      company: users.company,
      phone: users.phone,
      title: users.title,
      role: organizationMembers.role,
      disabledAt: users.disabledAt,
      createdAt: organizationMembers.createdAt,
      // An entry changes when the person's details or their membership change.
      updatedAt: sql<Date>`greatest(${users.updatedAt}, ${organizationMembers.updatedAt})`.mapWith(users.updatedAt),
    })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(and(directoryConditions(db, f), byName.after(position)))
    .orderBy(...byName.orderBy)
    .limit(limit + 1);
}
