import {
  DocumentActivityList,
  DocumentActivityPath,
  DocumentActivityQuery,
  OrgActivityList,
  OrgActivityQuery,
} from '../../shared/activity.js';
import { OrgPath } from '../../shared/common.js';
import { pageOrCsv } from '../http/csv.js';
import { access, defineRoute } from '../http/route.js';
import { listDocumentActivity, listOrgActivity } from './service.js';

export const activityRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/activity',
    operationId: 'listOrganizationActivity',
    summary: 'Organization activity feed (JSON, or CSV with Accept: text/csv)',
    description:
      'Newest first. `from`/`to` are inclusive; a date-only `to` covers that whole UTC day. A key scoped to some ' +
      'projects of the organization sees only their entries. CSV: `limit` is the row cap (default 100000, larger ' +
      'values clamped); a cut export ends with a `# WARNING: truncated at N rows` row.',
    tags: ['Activity'],
    access: access.needs('organization:read', 'org'),
    params: OrgPath,
    query: OrgActivityQuery,
    responses: {
      200: { description: 'A page of the feed', schema: OrgActivityList, csv: true },
    },
    streams: true,
    errors: { 404: 'projectId is not a project of this organization' },
    handler: ({ req, res, app, caller, params, query }) =>
      pageOrCsv({ app, req, res }, listOrgActivity(app, caller, params.orgId, query)),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/documents/:documentId/activity',
    operationId: 'listDocumentActivity',
    summary: 'Activity history of one document (staff)',
    description: 'Newest first. With includeEmails=true, email_sent entries carry the Email record of each recipient.',
    tags: ['Activity', 'Admin'],
    access: access.staff,
    params: DocumentActivityPath,
    query: DocumentActivityQuery,
    responses: { 200: { description: 'A page of the history', schema: DocumentActivityList } },
    errors: { 404: 'No such document' },
    handler: ({ app, params, query }) => listDocumentActivity(app, params.documentId, query),
  }),
];
