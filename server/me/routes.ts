import { MAX_ME_ORGANIZATIONS, Me } from '../../shared/me.js';
import { access, defineRoute } from '../http/route.js';
import { projectListing } from '../organizations/routes.js';
import { listEveryProject } from '../organizations/service.js';
import { describeMe } from './service.js';

/** What the Outlook add-in and the admin console need beyond the resource routes. */
export const meRoutes = [
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
    handler: ({ app, caller }) => describeMe(app.db, caller),
  }),
  defineRoute({
    method: 'get',
    path: '/v1/admin/organizations/:orgId/projects',
    operationId: 'adminListOrganizationProjects',
    summary: 'Every project of an organization, by name (staff)',
    description: 'For the admin console’s key scopes: staff reach organizations they are not members of.',
    tags: ['Admin'],
    access: access.staff,
    ...projectListing,
    errors: { 404: 'No such organization' },
    handler: ({ app, caller, params, query }) => listEveryProject(app, caller, params.orgId, query),
  }),
];
