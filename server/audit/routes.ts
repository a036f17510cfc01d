import { AuditEventList, AuditEventsQuery } from '../../shared/audit.js';
import { OrgPath } from '../../shared/common.js';
import { pageOrCsv } from '../http/csv.js';
import { access, defineRoute } from '../http/route.js';
import { listAuditEvents } from './service.js';

export const auditRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/audit-events',
    operationId: 'listAuditEvents',
    summary: "The organization's audit log, newest first (JSON, or CSV with Accept: text/csv)",
    description:
      'Every administrative change (keys, people, settings, projects, webhook endpoints) and every sign-in, with ' +
      'who, when, from which address and what changed; never editable. `from`/`to` are inclusive; a date-only ' +
      '`to` covers that whole UTC day. CSV: `limit` is the row cap (default 100000, larger values clamped). Each ' +
      'event is also pushed as an `audit.event` webhook event.',
    tags: ['Audit'],
    access: access.orgAdmin,
    params: OrgPath,
    query: AuditEventsQuery,
    responses: { 200: { description: 'A page of audit events', schema: AuditEventList, csv: true } },
    streams: true,
    handler: ({ req, res, app, params, query }) =>
      pageOrCsv({ app, req, res }, listAuditEvents(app, params.orgId, query)),
  }),
];
