import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import {
  type AdminDocumentListQuery,
  type AdminSubmittalListQuery,
  DocumentItem,
  type DocumentQuery,
  type ListMeta,
  type ProjectDocumentListQuery,
  Submittal,
  type SubmittalListQuery,
} from '../../shared/documents.js';
import { todayUtc } from '../clock.js';
import type { AppContext } from '../context.js';
import { type CursorKey, cutPage, decodeCursor, keysetCursor } from '../cursor.js';
import { type CsvColumn, type CsvDownload, csvChunks } from '../db/csv-export.js';
import { currentSyncToken } from '../db/sync-token.js';
import { ApiError } from '../errors.js';
import { csvRowCap, jsonPageSize, type Listing } from '../listing.js';
import { documentCsvColumns, documentCsvFrom, submittalCsvColumns, submittalCsvFrom } from './csv-queries.js';
import {
  type AfterKey,
  countDocuments,
  cursorValueFits,
  type DocumentFilter,
  type DocumentInclude,
  type DocumentSort,
  documentQuery,
  type FilterColumn,
  fetchPage,
  filterValues,
  sortValueOf,
  submittalQuery,
} from './queries.js';

/** What a list request asks for, whichever of the four endpoints it came through. */
interface ListRequest {
  /** Names the list in the cursor binding, so a cursor of one list is refused by another. */
  list: 'submittals' | 'documents';
  filter: DocumentFilter;
  sort: DocumentSort;
  cursor?: string;
  limit?: number;
  includeMeta: boolean;
  /** Counts in meta.filters are computed within this scope (undefined: values only, no counts). */
  metaScope?: DocumentFilter;
  metaColumns: readonly FilterColumn[];
}

export interface Page<T> {
  data: T[];
  total: number;
  nextCursor: string | null;
  hasMore: boolean;
  meta: ListMeta;
  syncToken?: string;
}

const bindingOf = (request: ListRequest) => ({ list: request.list, filter: request.filter, sort: request.sort });

function afterKeyOf(key: CursorKey, request: ListRequest): AfterKey | undefined {
  if (!request.cursor) return undefined;
  const payload = decodeCursor(key, request.cursor, bindingOf(request));
  const [value] = payload.k;
  if (payload.k.length !== 1 || typeof value === 'number' || !cursorValueFits(request.sort, value ?? null)) {
    throw ApiError.badRequest('Invalid cursor');
  }
  return { value: value ?? null, uid: payload.id };
}

async function page<T extends { uid: string }>(
  app: AppContext,
  request: ListRequest,
  queryOf: (after?: AfterKey) => SQL,
  item: z.ZodType<T>,
): Promise<Page<T>> {
  const limit = jsonPageSize(request.limit);
  const after = afterKeyOf(app.cursorKey, request);
  // The first page of a walk hands on the token of the next sync, taken before the page reads anything.
  const syncToken = after ? undefined : await currentSyncToken(app.db);
  // The page, the exact total and the meta counts are independent: on PostgreSQL they run side by side.
  const [rows, total, filters] = await Promise.all([
    fetchPage(app.db, queryOf(after), limit + 1, item),
    countDocuments(app.db, request.filter),
    request.includeMeta ? filterValues(app.db, request.metaColumns, request.metaScope) : undefined,
  ]);
  const position = (row: T) => ({ key: sortValueOf(request.sort, row), id: row.uid });
  const {
    page: data,
    nextCursor,
    hasMore,
  } = cutPage(rows, limit, keysetCursor(app.cursorKey, bindingOf(request), position));
  return { data, total, nextCursor, hasMore, meta: filters ? { filters } : {}, ...(syncToken ? { syncToken } : {}) };
}

/** How each of the four endpoints' queries asks for its page: sort, cursor, limit and whether to count meta. */
const pagingOf = (query: {
  sortBy: DocumentSort['field'];
  sortOrder: DocumentSort['order'];
  cursor?: string;
  limit?: number;
  includeMeta?: boolean;
}) => ({
  sort: { field: query.sortBy, order: query.sortOrder },
  cursor: query.cursor,
  limit: query.limit,
  includeMeta: query.includeMeta === true,
});

/** The list's rows from its cursor on, as CSV: `limit` is the row cap. `fromOf` is the export's query after
 *  its select list, from the request's cursor on. */
function csvOf(
  app: AppContext,
  request: ListRequest,
  fileName: string,
  fromOf: (after?: AfterKey) => SQL,
  columns: readonly CsvColumn[],
): CsvDownload {
  const chunks = csvChunks({
    db: app.db,
    from: fromOf(afterKeyOf(app.cursorKey, request)),
    columns,
    limit: csvRowCap(request.limit),
  });
  return { fileName, chunks };
}

// --- Submittals ---

const submittalFilter = (query: SubmittalListQuery, today: string): DocumentFilter => ({
  formats: ['submittal'],
  statuses: query['filter.status'],
  reviewStatuses: query['filter.reviewStatus'],
  open: query['filter.open'],
  overdueBefore: query['filter.overdue'] ? today : undefined,
  reviewHint: query['filter.reviewHint'],
  search: query.search?.trim() || undefined,
  dueDate: query['filter.dueDate'],
  closedAt: query['filter.closedAt'],
  updatedAt: query['filter.updatedAt'],
  changedSince: query['filter.changedSince'],
});

const submittalMetaColumns: FilterColumn[] = ['status', 'reviewStatus', 'priority', 'type'];

function listSubmittals(
  app: AppContext,
  request: ListRequest,
  withReviewHints: boolean,
  fileName: string,
): Listing<Page<Submittal>> {
  const queryOf = (after?: AfterKey) =>
    submittalQuery({ filter: request.filter, sort: request.sort, withReviewHints }, after);
  return {
    page: () => page(app, request, queryOf, Submittal),
    csv: async () =>
      csvOf(
        app,
        request,
        fileName,
        (after) => submittalCsvFrom(request, after),
        submittalCsvColumns(withReviewHints && { lens: request.filter.reviewHint }),
      ),
  };
}

export function listProjectSubmittals(
  app: AppContext,
  projectId: string,
  query: SubmittalListQuery,
): Listing<Page<Submittal>> {
  const scope: DocumentFilter = { projectId, formats: ['submittal'] };
  const filter = { ...scope, ...submittalFilter(query, todayUtc(app.clock)) };
  return listSubmittals(
    app,
    {
      list: 'submittals',
      filter,
      ...pagingOf(query),
      metaScope: scope,
      metaColumns: submittalMetaColumns,
    },
    Boolean(query.include?.includes('reviewHints')),
    `submittals-${projectId}.csv`,
  );
}

/** Counts in meta are cheap within one project or organization; platform-wide they would scan everything. */
const adminMetaScope = (base: DocumentFilter, projectId?: string, organizationId?: string) =>
  projectId || organizationId ? { ...base, projectId, organizationId } : undefined;

export function listAdminSubmittals(app: AppContext, query: AdminSubmittalListQuery): Listing<Page<Submittal>> {
  const filter: DocumentFilter = {
    projectId: query.projectId,
    organizationId: query.organizationId,
    ...submittalFilter(query, todayUtc(app.clock)),
    // `format` can only say submittal (the schema refuses the rest); the other generic filters apply as given.
    types: eitherForm('type', query.type, query['filter.type']),
    statuses: eitherForm('status', query.status, query['filter.status']),
    assigneeId: query.assigneeId,
    assigneeName: query.assigneeName || undefined,
    divisionTitle: query['filter.divisionTitle'] || undefined,
    createdAt: query['filter.createdAt'],
    receivedAt: query['filter.receivedAt'],
  };
  return listSubmittals(
    app,
    {
      list: 'submittals',
      filter,
      ...pagingOf(query),
      metaScope: adminMetaScope({ formats: ['submittal'] }, query.projectId, query.organizationId),
      metaColumns: submittalMetaColumns,
    },
    Boolean(query.include?.includes('reviewHints')),
    'submittals.csv',
  );
}

// --- Generic documents ---

/** `status` and `filter.status` (etc.) are two spellings of one filter: both given and different → 400. */
function eitherForm(name: string, plain: string[] | undefined, prefixed: string[] | undefined): string[] | undefined {
  if (plain && prefixed) {
    const same = plain.length === prefixed.length && [...plain].sort().join() === [...prefixed].sort().join();
    if (!same) throw ApiError.badRequest(`${name} and filter.${name} disagree; give one of them`);
  }
  return plain ?? prefixed;
}

const documentFilter = (query: ProjectDocumentListQuery): DocumentFilter => ({
  formats: eitherForm('format', query.format, query['filter.format']),
  types: eitherForm('type', query.type, query['filter.type']),
  statuses: eitherForm('status', query.status, query['filter.status']),
  search: query.search?.trim() || undefined,
  assigneeId: query.assigneeId,
  assigneeName: query.assigneeName || undefined,
  dueDate: query['filter.dueDate'],
  createdAt: query['filter.createdAt'],
  updatedAt: query['filter.updatedAt'],
  changedSince: query['filter.changedSince'],
});

const documentMetaColumns: FilterColumn[] = ['format', 'type', 'status', 'priority'];

function listDocuments(
  app: AppContext,
  request: ListRequest,
  include: readonly DocumentInclude[],
  fileName: string,
): Listing<Page<DocumentItem>> {
  const queryOf = (after?: AfterKey) => documentQuery({ filter: request.filter, sort: request.sort, include }, after);
  return {
    page: () => page(app, request, queryOf, DocumentItem),
    csv: async () =>
      csvOf(app, request, fileName, (after) => documentCsvFrom(request, after), documentCsvColumns(include)),
  };
}

const includesOf = (query: { include?: string[] }) => (query.include ?? []) as DocumentInclude[];

/** One document of the project, whatever its format, with the list's include options; 404 outside it. */
export async function getProjectDocument(
  app: AppContext,
  projectId: string,
  uid: string,
  query: DocumentQuery,
): Promise<DocumentItem> {
  const select = { filter: { projectId, uid }, sort: oneRow, include: includesOf(query) };
  const [row] = await fetchPage(app.db, documentQuery(select), 1, DocumentItem);
  if (!row) throw ApiError.notFound('Document');
  return row;
}

/** The order of a one-row answer: any will do. */
const oneRow: DocumentSort = { field: 'createdAt', order: 'asc' };

export function listProjectDocuments(
  app: AppContext,
  projectId: string,
  query: ProjectDocumentListQuery,
): Listing<Page<DocumentItem>> {
  return listDocuments(
    app,
    {
      list: 'documents',
      filter: { projectId, ...documentFilter(query) },
      ...pagingOf(query),
      metaScope: { projectId },
      metaColumns: documentMetaColumns,
    },
    includesOf(query),
    `documents-${projectId}.csv`,
  );
}

export function listAdminDocuments(app: AppContext, query: AdminDocumentListQuery): Listing<Page<DocumentItem>> {
  return listDocuments(
    app,
    {
      list: 'documents',
      filter: { projectId: query.projectId, organizationId: query.organizationId, ...documentFilter(query) },
      ...pagingOf(query),
      metaScope: adminMetaScope({}, query.projectId, query.organizationId),
      metaColumns: documentMetaColumns,
    },
    includesOf(query),
    'documents.csv',
  );
}
