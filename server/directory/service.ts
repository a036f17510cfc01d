import type { z } from 'zod';
import type { DirectoryEntry, DirectoryQuery } from '../../shared/directory.js';
import { type Caller, projectsInOrg } from '../auth/caller.js';
import { decodeCursor, encodeCursor } from '../cursor.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { type DirectoryRow, directoryPage } from './queries.js';

type Query = z.output<typeof DirectoryQuery>;

const toEntry = (row: DirectoryRow): DirectoryEntry => ({
  uid: row.id,
  userId: row.userId,
  name: row.name,
  email: row.email,
  company: row.company,
  phone: row.phone,
  title: row.title,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A page of the organization's people, by name. A project-scoped key sees only its projects' members. */
export async function listDirectory(db: Db, caller: Caller, orgId: string, query: Query) {
  const binding = { list: 'directory', orgId, search: query.search };
  let position: { sortName: string; id: string } | undefined;
  if (query.cursor !== undefined) {
    const { k, id } = decodeCursor(query.cursor, binding);
    if (k.length !== 1 || typeof k[0] !== 'string') throw ApiError.badRequest('Invalid cursor');
    position = { sortName: k[0], id };
  }
  const filters = { organizationId: orgId, visibleProjects: projectsInOrg(caller.scope, orgId), search: query.search };
  const rows = await directoryPage(db, filters, position, query.limit);
  const hasMore = rows.length > query.limit;
  const page = hasMore ? rows.slice(0, query.limit) : rows;
  const last = page.at(-1);
  return {
    data: page.map(toEntry),
    nextCursor: hasMore && last ? encodeCursor({ k: [last.sortName], id: last.id }, binding) : null,
    hasMore,
  };
}
