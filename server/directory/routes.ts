import { OrgPath } from '../../shared/common.js';
import { DirectoryList, DirectoryQuery } from '../../shared/directory.js';
import { access, defineRoute } from '../http/route.js';
import { listDirectory } from './service.js';

export const directoryRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/directory',
    operationId: 'listOrganizationDirectory',
    summary: 'The organization directory: its people, by name',
    description:
      'Ordered by name (case-insensitive), ties by entry uid. `search` matches name, e-mail or company. ' +
      'A key scoped to some projects of the organization sees only the members of those projects.',
    tags: ['Directory'],
    access: access.needs('organization:read', 'org'),
    params: OrgPath,
    query: DirectoryQuery,
    responses: { 200: { description: 'A page of directory entries', schema: DirectoryList } },
    handler: ({ app, caller, params, query }) => listDirectory(app, caller, params.orgId, query),
  }),
];
