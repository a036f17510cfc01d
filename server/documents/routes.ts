import { ProjectPath } from '../../shared/common.js';
import {
  AdminDocumentListQuery,
  AdminSubmittalListQuery,
  DocumentList,
  ProjectDocumentListQuery,
  SubmittalList,
  SubmittalListQuery,
} from '../../shared/documents.js';
import { pageOrCsv } from '../http/csv.js';
import { access, defineRoute } from '../http/route.js';
import { listAdminDocuments, listAdminSubmittals, listProjectDocuments, listProjectSubmittals } from './service.js';

const csvNote =
  'With `Accept: text/csv` the same rows stream as CSV (header row, `limit` = row cap, default and maximum 100000, ' +
  'larger values clamped; a final `# WARNING: truncated at N rows` row when rows were cut).';

const listErrors = { 400: 'Invalid filter, sort, limit or cursor (a cursor made with other filters included)' };

export const documentRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/project/:projectId/document/submittals',
    operationId: 'listProjectSubmittals',
    summary: 'List submittals in a project',
    description: csvNote,
    tags: ['Documents'],
    access: access.needs('document:read', 'project'),
    params: ProjectPath,
    query: SubmittalListQuery,
    responses: { 200: { description: `A page of submittals. ${csvNote}`, schema: SubmittalList, csv: true } },
    errors: listErrors,
    handler: ({ app, req, res, params, query }) =>
      pageOrCsv(req, res, listProjectSubmittals(app, params.projectId, query)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/project/:projectId/documents',
    operationId: 'listProjectDocuments',
    summary: 'List documents in a project',
    description: csvNote,
    tags: ['Documents'],
    access: access.needs('document:read', 'project'),
    params: ProjectPath,
    query: ProjectDocumentListQuery,
    responses: { 200: { description: `A page of documents. ${csvNote}`, schema: DocumentList, csv: true } },
    errors: listErrors,
    handler: ({ app, req, res, params, query }) =>
      pageOrCsv(req, res, listProjectDocuments(app, params.projectId, query)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/documents/submittals',
    operationId: 'listAdminSubmittals',
    summary: 'List submittals platform-wide (staff)',
    description: csvNote,
    tags: ['Admin'],
    access: access.staff,
    query: AdminSubmittalListQuery,
    responses: { 200: { description: `A page of submittals. ${csvNote}`, schema: SubmittalList, csv: true } },
    errors: listErrors,
    handler: ({ app, req, res, query }) => pageOrCsv(req, res, listAdminSubmittals(app, query)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/documents',
    operationId: 'listAdminDocuments',
    summary: 'List documents platform-wide (staff)',
    description: csvNote,
    tags: ['Admin'],
    access: access.staff,
    query: AdminDocumentListQuery,
    responses: { 200: { description: `A page of documents. ${csvNote}`, schema: DocumentList, csv: true } },
    errors: listErrors,
    handler: ({ app, req, res, query }) => pageOrCsv(req, res, listAdminDocuments(app, query)),
  }),
];
