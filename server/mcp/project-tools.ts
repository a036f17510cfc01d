import { z } from 'zod';
import { Id } from '../../shared/common.js';
import { type CursorPayload, decodeCursor, encodeCursor } from '../cursor.js';
import { ApiError } from '../errors.js';
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

function namePosition({ k, id }: CursorPayload): { name: string; id: string } {
  const [name] = k;
  if (k.length !== 1 || typeof name !== 'string') throw ApiError.badRequest('Invalid cursor');
  return { name, id };
}

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
    const after = cursor ? namePosition(decodeCursor(cursor, binding)) : undefined;
    const rows = await findProjects(app.db, {
      scope: explorerScope(caller, args.organizationId),
      text: args.query,
      limit,
      after,
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const hasMore = rows.length > limit;
    return {
      data: page,
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ k: [last.name], id: last.id }, binding) : null,
    };
  },
};
