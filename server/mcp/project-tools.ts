import { z } from 'zod';
import { Id, OrgPath } from '../../shared/common.js';
import { OrganizationList, OrganizationListQuery, ProjectList, ProjectListQuery } from '../../shared/organizations.js';
import { listOrganizations, listProjects } from '../organizations/service.js';
import { restTool } from './rest-tool.js';
import { cursor, pageSize, text } from './tool-args.js';

const limit = pageSize(50);

export const organizationsListTool = restTool({
  name: 'organizations_list',
  title: 'List your organizations',
  description: `The organizations you can reach, by name: each one's id, which projects_find, emails_search,
emails_timeline, explorer_query, directory_search and activity_feed take. Up to 50 per call; pass nextCursor back as cursor.`,
  operationId: 'listOrganizations',
  query: OrganizationListQuery,
  input: z.object({ limit, cursor }).strict(),
  output: OrganizationList,
  request: (args) => ({ params: {}, query: { limit: text(args.limit), cursor: args.cursor } }),
  answer: ({ app, caller, query }) => listOrganizations(app, caller, query),
});

export const projectsFindTool = restTool({
  name: 'projects_find',
  title: 'Find projects',
  description: `Find the projects of an organization (id from organizations_list) that you can reach, by name, code
or alias, sorted by name. Returns each project's id — the id the other tools (documents_list, submittals_list,
emails_search, filed_emails_search, reports_list …) take. Up to 50 per call; pass nextCursor back as cursor for more.`,
  operationId: 'listProjects',
  params: OrgPath,
  query: ProjectListQuery,
  input: z
    .object({
      organizationId: Id.describe('Organization id (from organizations_list)'),
      query: z.string().min(1).max(200).optional().describe('Part of the project name, code or alias, e.g. "hospital"'),
      limit,
      cursor,
    })
    .strict(),
  output: ProjectList,
  request: (args) => ({
    params: { orgId: args.organizationId },
    query: { search: args.query, limit: text(args.limit), cursor: args.cursor },
  }),
  answer: ({ app, caller, params, query }) => listProjects(app, caller, params.orgId, query),
});
