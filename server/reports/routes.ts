import { OrgPath, ProjectPath } from '../../shared/common.js';
import { Report, ReportList, ReportListQuery, ReportPath, ReportSummary } from '../../shared/reports.js';
import { oneRecord } from '../http/declarations.js';
import { access, defineRoute } from '../http/route.js';
import { getReport, listReports, reportSummary } from './service.js';

/** A project's reports are read with document:read. */
const projectReports = { method: 'get' as const, tags: ['Reports'], access: access.needs('document:read', 'project') };

export const reportRoutes = [
  defineRoute({
    ...projectReports,
    path: '/v1/organization/:orgId/project/:projectId/reports',
    operationId: 'listProjectReports',
    summary: 'Reports of a project, newest first',
    description: 'Every version of every report, newest first; `isLatestVersion` marks the current ones.',
    params: ProjectPath,
    query: ReportListQuery,
    responses: { 200: { description: 'A page of reports', schema: ReportList } },
    handler: ({ app, params, query }) => listReports(app, params.projectId, query),
  }),
  defineRoute({
    ...projectReports,
    path: '/v1/organization/:orgId/project/:projectId/reports/:reportId',
    operationId: 'getProjectReport',
    summary: 'Retrieve a report',
    description: '`downloadUrl` is a time-limited signed URL of the PDF, fetched without a bearer token.',
    params: ReportPath,
    ...oneRecord('report', Report, ' in this project'),
    handler: ({ app, params }) => getReport(app, params.projectId, params.reportId),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/organizations/:orgId/report-summary',
    operationId: 'adminReportSummary',
    summary: 'Report counts by kind and status for an organization (staff)',
    description: 'Counts the latest version of each report only (`latestVersionsOnly: true`).',
    tags: ['Reports', 'Admin'],
    access: access.staff,
    params: OrgPath,
    responses: { 200: { description: 'The counts', schema: ReportSummary } },
    errors: { 404: 'No such organization' },
    handler: ({ app, params }) => reportSummary(app.db, params.orgId),
  }),
];
