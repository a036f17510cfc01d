import { z } from 'zod';
import { Id } from '../../shared/common.js';
import { cursorPosition, cutPage, keysetCursor, namePosition } from '../cursor.js';
import { explorerScope } from '../explorer/service.js';
import { findProjects } from './queries.js';
import type { ToolSpec } from './tools.js';

const ProjectsFindInput = z
  .object({
    query: z.string().min(1).max(200).optional().describe('Part of the project name or code, e.g. "hospital"'),
    organizationId: Id.optional().describe('Only projects of this organization'),
    limit: z.number().int().min(1).max(50).default(20),
    cursor: z.string().min(1).max(2000).optional().describe('nextCursor from the previous call'),
  })
  .strict();

const ProjectsFindOutput = z.object({
  data: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      code: z.string().nullable(),
      organizationId: z.string(),
      organizationName: z.string(),
    }),
  ),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});

export const projectsFindTool: ToolSpec<typeof ProjectsFindInput, typeof ProjectsFindOutput> = {
  name: 'projects_find',
  title: 'Find projects',
  description: `Find the projects you can reach, by name or code, sorted by name. Returns each project's id and its
organization's id — the ids the other tools (documents_list, submittals_list, emails_search, explorer_query) take.
Up to 50 per call; pass nextCursor back as cursor for more.`,
  permission: 'project:read',
  input: ProjectsFindInput,
  output: ProjectsFindOutput,
  async run(args, { app, caller }) {
    const { cursor, limit, ...filters } = args;
    const binding = { tool: 'projects_find', filters };
    const after = cursorPosition(app.cursorKey, cursor, binding, 'text');
    const rows = await findProjects(app.db, {
      scope: explorerScope(caller, args.organizationId),
      text: args.query,
      limit,
      after,
    });
    const { page, hasMore, nextCursor } = cutPage(rows, limit, keysetCursor(app.cursorKey, binding, namePosition));
    return { data: page, hasMore, nextCursor };
  },
};
