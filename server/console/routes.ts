import { OrgPath } from '../../shared/common.js';
import { MAX_ME_ORGANIZATIONS, Me } from '../../shared/me.js';
import { ProjectList, ProjectListQuery } from '../../shared/organizations.js';
import { ApiError } from '../errors.js';
import { access, defineRoute } from '../http/route.js';
import { findOrganization } from '../organizations/queries.js';
import { listProjects } from '../organizations/service.js';
import { listMemberships, listOrganizationsByName } from './queries.js';

/** What the Outlook add-in and the admin console need beyond the resource routes. */
export const consoleRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/me',
    operationId: 'getMe',
    summary: 'The signed-in person and the organizations they may act in',
    description:
      'For the Outlook add-in and the admin console. Needs a person’s token (keys use GET /v1/client/me). ' +
      `Staff reach every organization: the first ${MAX_ME_ORGANIZATIONS} by name are listed.`,
    tags: ['People'],
    access: access.user,
    responses: { 200: { description: 'The caller', schema: Me } },
    handler: async ({ app, caller }) => {
      const memberships = await listMemberships(app.db, caller.id);
      if (!caller.staff) {
        return { ...identity(caller), organizations: memberships, organizationsTruncated: false };
      }
      const all = await listOrganizationsByName(app.db, MAX_ME_ORGANIZATIONS + 1);
      const roles = new Map(memberships.map((m) => [m.id, m.role]));
      return {
        ...identity(caller),
        organizations: all
          .slice(0, MAX_ME_ORGANIZATIONS)
          .map((org) => ({ ...org, role: roles.get(org.id) ?? ('staff' as const) })),
        organizationsTruncated: all.length > MAX_ME_ORGANIZATIONS,
      };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/organizations/:orgId/projects',
    operationId: 'adminListOrganizationProjects',
    summary: 'Every project of an organization, by name (staff)',
    description: 'For the admin console’s key scopes: staff reach organizations they are not members of.',
    tags: ['Admin'],
    access: access.staff,
    params: OrgPath,
    query: ProjectListQuery,
    responses: { 200: { description: 'Projects by name', schema: ProjectList } },
    errors: { 404: 'No such organization' },
    handler: async ({ app, caller, params, query }) => {
      if (!(await findOrganization(app.db, params.orgId))) throw ApiError.notFound('Organization');
      const everyOrganization = { allOrgs: true, orgs: new Set<string>(), projects: new Map() };
      return listProjects(app.db, { ...caller, scope: everyOrganization }, params.orgId, query);
    },
  }),
];

const identity = (caller: { id: string; name: string; email: string; staff: boolean }) => ({
  id: caller.id,
  name: caller.name,
  email: caller.email,
  staff: caller.staff,
});
