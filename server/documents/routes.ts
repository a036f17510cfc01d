import type { z } from 'zod';
import { ProjectPath } from '../../shared/common.js';
import {
  AdminDocumentListQuery,
  AdminSubmittalListQuery,
  DocumentItem,
  DocumentList,
  DocumentPath,
  DocumentQuery,
  ProjectDocumentListQuery,
  SubmittalList,
  SubmittalListQuery,
} from '../../shared/documents.js';
import type { AppContext } from '../context.js';
import { pageOrCsv } from '../http/csv.js';
import { access, defineRoute, type RouteSpec } from '../http/route.js';
import type { Listing } from '../listing.js';
import {
  getProjectDocument,
  listAdminDocuments,
  listAdminSubmittals,
  listProjectDocuments,
  listProjectSubmittals,
} from './service.js';

const csvNote =
  'With `Accept: text/csv` the same rows stream as CSV (header row, `limit` = row cap, default and maximum 100000, ' +
  'larger values clamped; a final `# WARNING: truncated at N rows` row when rows were cut).';

type Shape = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/**
 * One of the four lists: a GET answered as a JSON page or, on request, as CSV — the same responses, errors and
 * handler; each names its path, query and the service's listing.
 */
const csvList = <P extends Shape, Q extends Shape>(
  rows: 'submittals' | 'documents',
  schema: z.ZodType,
  spec: Pick<RouteSpec<P, Q, z.ZodType>, 'tags' | 'access' | 'params' | 'path' | 'operationId' | 'summary'> & {
    query: Q;
  },
  listing: (app: AppContext, params: z.output<P>, query: z.output<Q>) => Listing<unknown>,
) =>
  defineRoute<P, Q, z.ZodType, true>({
    ...spec,
    method: 'get',
    description: csvNote,
    responses: { 200: { description: `A page of ${rows}. ${csvNote}`, schema, csv: true } },
    // The CSV is written to the response as the export reads it.
    streams: true,
    errors: { 400: 'Invalid filter, sort, limit or cursor (a cursor made with other filters included)' },
    handler: ({ app, req, res, params, query }) => pageOrCsv({ app, req, res }, listing(app, params, query)),
  });

const inProject = { tags: ['Documents'], access: access.needs('document:read', 'project'), params: ProjectPath };
const platformWide = { tags: ['Admin'], access: access.staff };

export const documentRoutes = [
  csvList(
    'submittals',
    SubmittalList,
    {
      ...inProject,
      path: '/v1/organization/:orgId/project/:projectId/document/submittals',
      operationId: 'listProjectSubmittals',
      summary: 'List submittals in a project',
      query: SubmittalListQuery,
    },
    (app, params, query) => listProjectSubmittals(app, params.projectId, query),
  ),
  csvList(
    'documents',
    DocumentList,
    {
      ...inProject,
      path: '/v1/organization/:orgId/project/:projectId/documents',
      operationId: 'listProjectDocuments',
      summary: 'List documents in a project',
      query: ProjectDocumentListQuery,
    },
    (app, params, query) => listProjectDocuments(app, params.projectId, query),
  ),
  defineRoute({
    ...inProject,
    method: 'get',
    path: '/v1/organization/:orgId/project/:projectId/documents/:documentUid',
    operationId: 'getProjectDocument',
    summary: 'One document of a project',
    description: 'Any format (submittal, RFI, change …) as a row of the generic list, with its `include` options.',
    params: DocumentPath,
    query: DocumentQuery,
    responses: { 200: { description: 'The document', schema: DocumentItem } },
    errors: { 404: 'No document with this UID in the project' },
    handler: ({ app, params, query }) => getProjectDocument(app, params.projectId, params.documentUid, query),
  }),
  csvList(
    'submittals',
    SubmittalList,
    {
      ...platformWide,
      path: '/v1/admin/documents/submittals',
      operationId: 'listAdminSubmittals',
      summary: 'List submittals platform-wide (staff)',
      query: AdminSubmittalListQuery,
    },
    (app, _params, query) => listAdminSubmittals(app, query),
  ),
  csvList(
    'documents',
    DocumentList,
    {
      ...platformWide,
      path: '/v1/admin/documents',
      operationId: 'listAdminDocuments',
      summary: 'List documents platform-wide (staff)',
      query: AdminDocumentListQuery,
    },
    (app, _params, query) => listAdminDocuments(app, query),
  ),
];
