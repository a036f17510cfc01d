import type { z } from 'zod';
import type { DirectoryEntry, DirectoryQuery } from '../../shared/directory.js';
import { type Caller, projectsInOrg } from '../auth/caller.js';
import type { ListContext } from '../context.js';
import { cursorPosition, cutPage, type KeysetPosition, keysetCursor } from '../cursor.js';
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

const sortNamePosition = (row: DirectoryRow): KeysetPosition => ({ key: row.sortName, id: row.id });

/** A page of the organization's people, by name. A project-scoped key sees only its projects' members. */
export async function listDirectory(app: ListContext, caller: Caller, orgId: string, query: Query) {
  const { db, cursorKey } = app;
  const binding = { list: 'directory', orgId, search: query.search };
  const position = cursorPosition(cursorKey, query.cursor, binding, 'text');
  const filters = { organizationId: orgId, visibleProjects: projectsInOrg(caller.scope, orgId), search: query.search };
  const rows = await directoryPage(db, filters, position, query.limit);
  const { page, nextCursor, hasMore } = cutPage(rows, query.limit, keysetCursor(cursorKey, binding, sortNamePosition));
  return { data: page.map(toEntry), nextCursor, hasMore };
}
