import { ProjectPath } from '../../shared/common.js';
import { CommsQuery, DispatchList } from '../../shared/comms.js';
import { access, defineRoute } from '../http/route.js';
import { listComms } from './service.js';

export const commsRoutes = [
  defineRoute({
    method: 'get',
    path: '/v1/organization/:orgId/project/:projectId/comms',
    operationId: 'listProjectComms',
    summary: 'E-mail dispatches of a project, with per-recipient delivery status',
    description:
      '`recent` (default): newest first, cursor `{d, id}`. `largest`: most recipients first, ties by id, cursor ' +
      '`{n, id}`. Cursors are base64url JSON; a malformed one, or one of the other sort, is a 400. ' +
      '`from`/`to` are inclusive; a date-only `to` covers that whole UTC day.',
    tags: ['E-mail'],
    access: access.needs('email:read', 'project'),
    params: ProjectPath,
    query: CommsQuery,
    responses: { 200: { description: 'A page of dispatches', schema: DispatchList } },
    handler: ({ app, params, query }) => listComms(app.db, params.projectId, query),
  }),
];
