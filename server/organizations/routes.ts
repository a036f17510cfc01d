import { OrgPath } from '../../shared/common.js';
import {
  Organization,
  OrganizationList,
  OrganizationListQuery,
  ProjectList,
  ProjectListQuery,
} from '../../shared/organizations.js';
import { access, defineRoute } from '../http/route.js';
import { getOrganization, listOrganizations, listProjects } from './service.js';

export const organizationRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization',
    operationId: 'listOrganizations',
    summary: 'The organizations the caller may reach, by name',
    description:
      'A superadmin key reaches every organization; other keys those granted whole or through one of their ' +
      'projects; a person those they belong to. Also answers under `/v1/organizations`.',
    tags: ['Organizations'],
    access: access.needs('organization:read'),
    query: OrganizationListQuery,
    responses: { 200: { description: 'Organizations by name', schema: OrganizationList } },
    handler: ({ app, caller, query }) => listOrganizations(app.db, caller, query),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId',
    operationId: 'getOrganization',
    summary: 'One organization in the caller’s scope',
    tags: ['Organizations'],
    access: access.needs('organization:read', 'org'),
    params: OrgPath,
    responses: { 200: { description: 'The organization', schema: Organization } },
    errors: { 404: 'No such organization' },
    handler: ({ app, params }) => getOrganization(app.db, params.orgId),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/project',
    operationId: 'listProjects',
    summary: 'The organization’s projects within the caller’s scope',
    description: 'A key scoped to single projects sees only those; ordered by name.',
    tags: ['Organizations'],
    access: access.needs('project:read', 'org'),
    params: OrgPath,
    query: ProjectListQuery,
    responses: { 200: { description: 'Projects by name', schema: ProjectList } },
    handler: ({ app, caller, params, query }) => listProjects(app.db, caller, params.orgId, query),
  }),
];
