import { Id, OrgPath } from '../../shared/common.js';
import { EXPLORER_MAX_LIMIT, ExplorerQuery, ExplorerResult } from '../../shared/explorer.js';
import { explorerEntityDefs } from '../explorer/entities.js';
import { runExplorerQuery } from '../explorer/service.js';
import { restTool } from './rest-tool.js';

const entityGuide = Object.entries(explorerEntityDefs)
  .map(([name, def]) => `- ${name}: ${def.description}. Fields: ${Object.keys(def.fields).join(', ')}`)
  .join('\n');

export const explorerTool = restTool({
  name: 'explorer_query',
  title: 'Explore project data',
  description: `Run a read-only structured query over your organizations' data and get rows or grouped counts.
Use it for questions like "how many open RFIs per project" or "submittals due next week".
Entities and their fields:
${entityGuide}
where: {field, op, value} with op eq | in (array) | contains (text) | gte | lte | between ([from, to]) | isNull (true/false),
or {and: [...]}, {or: [...]}, {not: {...}} (at most 4 levels). Timestamps/dates as ISO 8601.
groupBy (1-3 fields) with aggregates [{fn: "count"}, {fn: "min"|"max", field}] returns one row per group.
limit 1-${EXPLORER_MAX_LIMIT} (default 100); for ungrouped results pass nextCursor back as cursor for the next page.
Example: {"entity":"documents","where":{"and":[{"field":"format","op":"eq","value":"rfi"},{"field":"status","op":"in","value":["pending","submitted"]}]},"groupBy":["projectId"]}`,
  operationId: 'explorerQuery',
  params: OrgPath,
  body: ExplorerQuery,
  input: ExplorerQuery.extend({ organizationId: Id.describe('The organization to query (from organizations_list)') }),
  output: ExplorerResult,
  request: ({ organizationId, ...query }) => ({ params: { orgId: organizationId }, body: query }),
  answer: ({ app, caller, params, body }) => runExplorerQuery(app, caller, body, params.orgId),
});
