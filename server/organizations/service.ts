import type { Organization, Project, ReferenceNumber } from '../../shared/organizations.js';
import { type AuditActor, changedFields, recordAudit } from '../audit/queries.js';
import { type Caller, projectsInOrg, reachableOrgIds } from '../auth/caller.js';
import type { ListContext } from '../context.js';
import {
  type CursorKey,
  cursorPosition,
  cutPage,
  encodeCursor,
  type KeysetPosition,
  keysetCursor,
  namePosition,
} from '../cursor.js';
import type { Db, Tx } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { insertDefaultEmailFilingSettings } from '../filing-settings/queries.js';
import { newId } from '../ids.js';
import {
  findOrganization,
  insertOrganization,
  insertProject,
  listOrganizationRows,
  listProjectRows,
  lockProjectRow,
  type ProjectRow,
  searchProjectRows,
  updateProjectRow,
} from './queries.js';

export async function createOrganization(db: Db, input: { name: string; id?: string }) {
  const id = input.id ?? newId('org');
  await db.transaction(async (tx) => {
    await insertOrganization(tx, { id, name: input.name });
    await insertDefaultEmailFilingSettings(tx, id);
  });
  return { id, name: input.name };
}

/** What an admin sets on a project besides its name: what e-mail suggestions match. */
interface ProjectFields {
  code?: string | null;
  aliases?: readonly string[];
  siteAddress?: string | null;
  referenceNumbers?: readonly ReferenceNumber[];
}

/** What the audit log keeps of a project: the fields an admin sets. */
const auditedProject = (r: ProjectRow) => ({
  name: r.name,
  code: r.code,
  aliases: r.aliases,
  siteAddress: r.siteAddress,
  referenceNumbers: r.referenceNumbers,
});

/** A new project; audited when `actor` is given (an admin's or the command line's change, not test data). */
export async function createProject(
  db: Db,
  input: { organizationId: string; name: string; id?: string } & ProjectFields,
  actor?: AuditActor,
): Promise<Project> {
  if (!(await findOrganization(db, input.organizationId)))
    throw ApiError.badRequest(`Unknown organization: ${input.organizationId}`);
  const row = await db.transaction(async (tx) => {
    const created = await insertProject(tx, {
      id: input.id ?? newId('prj'),
      organizationId: input.organizationId,
      name: input.name,
      code: input.code ?? null,
      aliases: [...(input.aliases ?? [])],
      siteAddress: input.siteAddress ?? null,
      referenceNumbers: [...(input.referenceNumbers ?? [])],
    });
    if (actor) await auditProject(tx, actor, 'project.created', {}, created);
    return created;
  });
  return projectOf(row);
}

const auditProject = (tx: Tx, actor: AuditActor, action: string, before: Partial<ProjectRow>, after: ProjectRow) =>
  recordAudit(tx, actor, {
    organizationId: after.organizationId,
    action,
    target: { type: 'project', id: after.id },
    changes: changedFields(before, auditedProject(after)),
    at: new Date(),
  });

/** Changes name, code or site address (null removes them), aliases or reference numbers (the whole list) of
 *  one project of the organization. */
export async function updateProject(
  db: Db,
  target: { organizationId: string; projectId: string },
  change: { name?: string } & ProjectFields,
  actor?: AuditActor,
): Promise<Project> {
  const row = await db.transaction(async (tx) => {
    const before = await lockProjectRow(tx, target);
    if (!before) return undefined;
    const changed = await updateProjectRow(tx, target, {
      ...(change.name !== undefined ? { name: change.name } : {}),
      ...(change.code !== undefined ? { code: change.code } : {}),
      ...(change.aliases !== undefined ? { aliases: [...change.aliases] } : {}),
      ...(change.siteAddress !== undefined ? { siteAddress: change.siteAddress } : {}),
      ...(change.referenceNumbers !== undefined ? { referenceNumbers: [...change.referenceNumbers] } : {}),
    });
    if (actor && changed) await auditProject(tx, actor, 'project.updated', auditedProject(before), changed);
    return changed;
  });
  if (!row) throw ApiError.notFound('Project');
  return projectOf(row);
}

const projectOf = (r: ProjectRow): Project => ({
  id: r.id,
  organizationId: r.organizationId,
  name: r.name,
  code: r.code,
  aliases: r.aliases,
  siteAddress: r.siteAddress,
  referenceNumbers: r.referenceNumbers,
  createdAt: r.createdAt.toISOString(),
});

export async function getOrganization(db: Db, orgId: string): Promise<Organization> {
  const row = await findOrganization(db, orgId);
  // Reached only for organizations in the caller's scope, so this is a superadmin key naming an unknown one.
  if (!row) throw ApiError.notFound('Organization');
  return organizationOf(row);
}

const organizationOf = (row: { id: string; name: string; createdAt: Date }): Organization => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
});

type NamePage<T> = { data: T[]; nextCursor: string | null; hasMore: boolean };

/**
 * One page, by name, of the rows the caller may reach: `reachable` is 'all' or the ids granted one by one (none:
 * an empty page without a query). The cursor is bound to `binding`, so a cursor of another list is a 400.
 */
async function pageByName<Row extends { name: string; id: string }, T>(
  cursorKey: CursorKey,
  page: { cursor?: string; limit: number },
  binding: Record<string, string>,
  reachable: 'all' | readonly string[],
  rowsAfter: (only: readonly string[] | undefined, after: KeysetPosition | undefined, limit: number) => Promise<Row[]>,
  present: (row: Row) => T,
): Promise<NamePage<T>> {
  const after = cursorPosition(cursorKey, page.cursor, binding, 'text');
  const rows =
    reachable !== 'all' && reachable.length === 0
      ? []
      : await rowsAfter(reachable === 'all' ? undefined : reachable, after, page.limit + 1);
  const { page: data, nextCursor, hasMore } = cutPage(rows, page.limit, keysetCursor(cursorKey, binding, namePosition));
  return { data: data.map(present), nextCursor, hasMore };
}

/** The organizations the caller may reach, by name, one page at a time. */
export function listOrganizations(
  { db, cursorKey }: ListContext,
  caller: Caller,
  page: { cursor?: string; limit: number },
): Promise<NamePage<Organization>> {
  return pageByName(
    cursorKey,
    page,
    { list: 'organizations' },
    reachableOrgIds(caller.scope),
    (only, after, limit) => listOrganizationRows(db, { only, after, limit }),
    organizationOf,
  );
}

/**
 * The organization's projects the caller may reach (all of them, or the ones granted one by one): by name, or
 * with `search` best match first (`searchProjectRows`).
 */
export function listProjects(
  { db, cursorKey }: ListContext,
  caller: Caller,
  orgId: string,
  page: { cursor?: string; limit: number; search?: string },
): Promise<NamePage<Project>> {
  const reachable = projectsInOrg(caller.scope, orgId);
  if (page.search) return searchProjects({ db, cursorKey }, orgId, reachable, { ...page, search: page.search });
  return pageByName(
    cursorKey,
    page,
    { list: 'projects', orgId },
    reachable,
    (only, after, limit) => listProjectRows(db, { orgId, only, after, limit }),
    projectOf,
  );
}

/**
 * One page of a project search, best match first. A rank has no key a row keeps, so the cursor holds how many
 * rows came before (bound to the search: a cursor of another search, or of the list by name, is a 400).
 */
async function searchProjects(
  { db, cursorKey }: ListContext,
  orgId: string,
  reachable: 'all' | readonly string[],
  page: { cursor?: string; limit: number; search: string },
): Promise<NamePage<Project>> {
  const binding = { list: 'projects', orgId, search: page.search };
  const offset = cursorPosition(cursorKey, page.cursor, binding, 'count')?.key ?? 0;
  const only = reachable === 'all' ? undefined : reachable;
  const rows =
    only?.length === 0
      ? []
      : await searchProjectRows(db, { orgId, only, text: page.search, offset, limit: page.limit + 1 });
  const {
    page: data,
    nextCursor,
    hasMore,
  } = cutPage(rows, page.limit, (last) => encodeCursor(cursorKey, { k: [offset + page.limit], id: last.id }, binding));
  return { data: data.map(projectOf), nextCursor, hasMore };
}

/** Every project of an organization, whatever the caller's scope: for staff tools, which reach organizations
 *  their users are not members of (access is checked by the route). */
export async function listEveryProject(
  app: ListContext,
  caller: Caller,
  orgId: string,
  page: { cursor?: string; limit: number; search?: string },
) {
  if (!(await findOrganization(app.db, orgId))) throw ApiError.notFound('Organization');
  const everyOrganization = { allOrgs: true, orgs: new Set<string>(), projects: new Map() };
  return listProjects(app, { ...caller, scope: everyOrganization }, orgId, page);
}
