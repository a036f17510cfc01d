import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { Permission } from '../../shared/permissions.js';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { databaseBudgetError } from '../db/budget.js';
import { ApiError } from '../errors.js';

export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  /** Written for a model: what it returns, when to use it, how to page. */
  description: string;
  permission: Permission;
  input: I;
  output: O;
  run: (args: z.output<I>, ctx: { app: AppContext; caller: Caller }) => Promise<z.output<O>>;
}

const toolError = (message: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text: message }] });

const holdsNul = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.includes('\u0000')
    : typeof value === 'object' && value !== null && Object.values(value).some(holdsNul);

/** The first argument holding a NUL character anywhere in its value: PostgreSQL text cannot take one, so it is
 *  refused by name before the tool runs (the arguments were already checked against the tool's schema). */
const argumentWithNul = (args: object): string | undefined => Object.entries(args).find(([, v]) => holdsNul(v))?.[0];

/**
 * Registers a read-only tool: the permission is checked per call, the result goes out both as
 * `structuredContent` (checked against the output schema by the SDK) and as JSON text, and every
 * failure becomes a tool error with a safe message instead of a broken session.
 */
export function registerTool<I extends z.ZodObject, O extends z.ZodObject>(
  server: McpServer,
  ctx: { app: AppContext; caller: Caller },
  spec: ToolSpec<I, O>,
): void {
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: spec.input,
      outputSchema: spec.output,
      annotations: {
        title: spec.title,
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (async (args: z.output<I>): Promise<CallToolResult> => {
      if (!ctx.caller.permissions.has(spec.permission)) {
        return toolError(`Insufficient permissions: ${spec.name} needs the ${spec.permission} permission`);
      }
      const withNul = argumentWithNul(args);
      if (withNul !== undefined) return toolError(`${withNul} must not contain NUL characters (U+0000)`);
      try {
        const data = await spec.run(args, ctx);
        return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
      } catch (err) {
        const apiError = err instanceof ApiError ? err : databaseBudgetError(err);
        if (apiError) return toolError(apiError.message);
        ctx.app.log.error({ err, tool: spec.name }, 'MCP tool failed');
        return toolError(`${spec.name} failed because of a server error; try again later`);
      }
    }) as never,
  );
}
