import type { z } from 'zod';
import type {
  DocumentActivityEntry,
  DocumentActivityQuery,
  OrgActivityEntry,
  OrgActivityList,
  OrgActivityQuery,
} from '../../shared/activity.js';
import { type Caller, canAccessProject, projectsInOrg } from '../auth/caller.js';
import type { ProjectOwners } from '../auth/project-owner.js';
import type { AppContext, ListContext } from '../context.js';
import { type CursorKey, createdAtPosition, cursorPosition, cutPage, keysetCursor } from '../cursor.js';
import { dateWindow } from '../date-window.js';
import { csvChunks } from '../db/csv-export.js';
import { emailsOfDispatches, groupBy, toEmailRecord } from '../dispatches/queries.js';
import { ApiError } from '../errors.js';
import { csvRowCap, jsonPageSize, type Listing } from '../listing.js';
import {
  type ActivityRow,
  countOrgActivity,
  documentActivityPage,
  documentExists,
  type OrgActivityFilters,
  orgActivityCsvColumns,
  orgActivityCsvFrom,
  orgActivityPage,
} from './queries.js';

type OrgQuery = z.output<typeof OrgActivityQuery>;

/** The filters of an organization feed request, checked against the caller's scope. */
async function orgFilters(
  owners: ProjectOwners,
  caller: Caller,
  orgId: string,
  query: OrgQuery,
): Promise<OrgActivityFilters> {
  if (query.projectId !== undefined) {
    if ((await owners.of(query.projectId)) !== orgId) throw ApiError.notFound('Project');
    if (!canAccessProject(caller.scope, orgId, query.projectId)) throw ApiError.forbidden();
  }
  return {
    organizationId: orgId,
    // A key scoped to some projects of the organization sees only their entries (none of the org-level ones).
    visibleProjects: projectsInOrg(caller.scope, orgId),
    projectId: query.projectId,
    actorId: query.actorId,
    actions: query.action,
    ...dateWindow(query.from, query.to),
  };
}

// The cursor is bound to the filters it was made with (a cursor reused with other filters is a 400).
const bindingOf = (orgId: string, query: OrgQuery) => ({
  feed: 'org-activity',
  orgId,
  projectId: query.projectId,
  actorId: query.actorId,
  action: query.action,
  from: query.from,
  to: query.to,
});

/** The cursor after a row of either feed (newest first). */
const cursorAfter = (key: CursorKey, binding: unknown) => keysetCursor(key, binding, createdAtPosition);

const actorOf = (row: ActivityRow) => ({ uid: row.actorId, name: row.actorName, email: row.actorEmail });

const toOrgEntry = (row: ActivityRow): OrgActivityEntry => ({
  uid: row.id,
  organizationId: row.organizationId,
  projectId: row.projectId,
  projectName: row.projectName,
  documentId: row.documentId,
  actor: actorOf(row),
  action: row.action,
  title: row.title,
  details: row.details ?? null,
  createdAt: row.createdAt.toISOString(),
});

/** The organization feed: a page of it, or as CSV (`Accept: text/csv`) with `limit` as the row cap. */
export function listOrgActivity(
  app: ListContext & Pick<AppContext, 'caches'>,
  caller: Caller,
  orgId: string,
  query: OrgQuery,
): Listing<z.output<typeof OrgActivityList>> {
  const { db, cursorKey } = app;
  const owners = app.caches.projectOwners;
  const binding = bindingOf(orgId, query);
  return {
    async page() {
      const limit = jsonPageSize(query.limit);
      const filters = await orgFilters(owners, caller, orgId, query);
      const position = cursorPosition(cursorKey, query.cursor, binding, 'timestamp');
      const [rows, total] = await Promise.all([
        orgActivityPage(db, filters, position, limit),
        countOrgActivity(db, filters),
      ]);
      const { page, nextCursor, hasMore } = cutPage(rows, limit, cursorAfter(cursorKey, binding));
      return { data: page.map(toOrgEntry), total, nextCursor, hasMore };
    },
    async csv() {
      const filters = await orgFilters(owners, caller, orgId, query);
      const position = cursorPosition(cursorKey, query.cursor, binding, 'timestamp');
      return {
        fileName: `activity-${orgId}.csv`,
        chunks: csvChunks({
          db,
          from: orgActivityCsvFrom(filters, position),
          columns: orgActivityCsvColumns,
          limit: csvRowCap(query.limit),
        }),
      };
    },
  };
}

type DocumentQuery = z.output<typeof DocumentActivityQuery>;

/** A document's history for staff; with includeEmails, each email_sent entry carries its recipients' records. */
export async function listDocumentActivity(app: ListContext, documentId: string, query: DocumentQuery) {
  const { db, cursorKey } = app;
  if (!(await documentExists(db, documentId))) throw ApiError.notFound('Document');
  const binding = { feed: 'document-activity', documentId };
  const position = cursorPosition(cursorKey, query.cursor, binding, 'timestamp');
  const rows = await documentActivityPage(db, documentId, position, query.limit);
  const { page, nextCursor, hasMore } = cutPage(rows, query.limit, cursorAfter(cursorKey, binding));
  const sends = page.filter((row) => row.action === 'email_sent' && row.dispatchId);
  const emailsByDispatch = query.includeEmails
    ? groupBy(
        await emailsOfDispatches(db, [...new Set(sends.map((row) => row.dispatchId as string))]),
        (e) => e.dispatchId,
      )
    : undefined;
  const data = page.map((row): DocumentActivityEntry => {
    const entry: DocumentActivityEntry = {
      uid: row.id,
      documentId,
      actor: actorOf(row),
      action: row.action,
      title: row.title,
      details: row.details ?? null,
      createdAt: row.createdAt.toISOString(),
    };
    if (emailsByDispatch && row.action === 'email_sent') {
      entry.emails = (row.dispatchId ? (emailsByDispatch.get(row.dispatchId) ?? []) : []).map(toEmailRecord);
    }
    return entry;
  });
  return { data, nextCursor, hasMore };
}
