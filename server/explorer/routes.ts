import { OrgPath } from '../../shared/common.js';
import { ExplorerQuery, ExplorerResult } from '../../shared/explorer.js';
import { access, defineRoute } from '../http/route.js';
import { runExplorerQuery } from './service.js';

export const explorerRoutes = [
  defineRoute({
    method: 'post',
    path: '/v1/organization/:orgId/explorer/query',
    operationId: 'explorerQuery',
    summary: 'Run a structured explorer query over the organization',
    description:
      'A safe query language (entity, fields, where with eq/in/contains/gte/lte/between/isNull, groupBy with ' +
      'count/min/max, orderBy, limit ≤ 500) compiled to parameterised SQL over an allow-list of fields, restricted ' +
      'to the projects of this organization the caller may reach. The same engine backs the MCP tool explorer_query.',
    tags: ['Explorer'],
    access: access.needs('explorer:query', 'org'),
    params: OrgPath,
    body: ExplorerQuery,
    responses: {
      200: { description: 'Rows (or groups) of the query', schema: ExplorerResult },
    },
    errors: { 503: 'The query ran past the statement timeout' },
    handler: ({ app, caller, params, body }) => runExplorerQuery(app, caller, body, params.orgId),
  }),
];
