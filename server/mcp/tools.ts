import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { databaseUnavailableError } from '../db/budget.js';
import { ApiError } from '../errors.js';

export interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  /** Written for a model: what it returns, when to use it, how to page. */
  description: string;
  input: I;
  output: O;
  run: (args: z.output<I>, ctx: { app: AppContext; caller: Caller }) => Promise<z.output<O>>;
}

/** A refusal with REST's message, and its `errorCode` in `_meta` (clients check any structuredContent against
 *  the output schema, errors too). */
const toolError = (error: ApiError): CallToolResult => ({
  isError: true,
  content: [{ type: 'text', text: error.message }],
  _meta: { errorCode: error.code },
});

const holdsNul = (value: unknown): boolean =>
  typeof value === 'string'
    ? value.includes('\u0000')
    : typeof value === 'object' && value !== null && Object.values(value).some(holdsNul);

/** The first argument holding a NUL character anywhere in its value: PostgreSQL text cannot take one, so it is
 *  refused by name before the tool runs (the arguments were already checked against the tool's schema). */
const argumentWithNul = (args: object): string | undefined => Object.entries(args).find(([, v]) => holdsNul(v))?.[0];

/**
 * Registers a read-only tool (access is the REST route's, checked by its run: rest-tool.ts); the result goes out both as
 * `structuredContent` (checked against the output schema by the SDK) and as JSON text, and every
 * failure becomes a tool error with a safe message instead of a broken session.
 */
export function registerTool<I extends z.ZodObject, O extends z.ZodObject>(
  server: McpServer,
  ctx: { app: AppContext; caller: Caller },
  spec: ToolSpec<I, O>,
): ListedTool {
  const annotations = {
    title: spec.title,
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  };
  server.registerTool(
    spec.name,
    {
      title: spec.title,
      description: spec.description,
      inputSchema: spec.input,
      outputSchema: spec.output,
      annotations,
    },
    (async (args: z.output<I>): Promise<CallToolResult> => {
      const withNul = argumentWithNul(args);
      if (withNul !== undefined) {
        return toolError(ApiError.badRequest(`${withNul} must not contain NUL characters (U+0000)`));
      }
      try {
        const data = await spec.run(args, ctx);
        return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
      } catch (err) {
        const apiError = err instanceof ApiError ? err : databaseUnavailableError(err);
        if (apiError) return toolError(apiError);
        ctx.app.log.error({ err, tool: spec.name }, 'MCP tool failed');
        return toolError(
          new ApiError('internal_error', `${spec.name} failed because of a server error; try again later`),
        );
      }
    }) as never,
  );
  return () => ({
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: plainJsonSchema(spec.input, 'input') as Tool['inputSchema'],
    outputSchema: plainJsonSchema(spec.output, 'output') as Tool['outputSchema'],
    annotations,
  });
}

/** A registered tool's entry in tools/list, made when a client asks for the list. */
export type ListedTool = () => Tool;

type JsonSchema = { [key: string]: unknown };

/**
 * A schema as JSON Schema that every MCP client reads alike: an object schema at the top (a named schema,
 * `.meta({ id })`, would be a `$ref` there), and `anyOf` where zod writes a type array (`["string", "null"]`),
 * which MCP Inspector warns about. Named schemas below the top stay `definitions` (the explorer's filter is recursive).
 */
function plainJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io }) as JsonSchema;
  const { $ref, definitions, ...rest } = json as JsonSchema & { definitions?: Record<string, JsonSchema> };
  const top = typeof $ref === 'string' ? definitions?.[$ref.slice('#/definitions/'.length)] : undefined;
  return withoutTypeArrays(top ? { ...rest, ...top, definitions } : json) as JsonSchema;
}

function withoutTypeArrays(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutTypeArrays);
  if (!node || typeof node !== 'object') return node;
  const { type, ...rest } = node as JsonSchema;
  const entries = Object.entries(rest).map(([key, value]) => [key, withoutTypeArrays(value)]);
  if (Array.isArray(type)) entries.push(['anyOf', type.map((t) => ({ type: t }))]);
  else if (type !== undefined) entries.push(['type', type]);
  return Object.fromEntries(entries);
}

/** Answers tools/list with `tools` (the SDK's own list would carry zod's type arrays and `$ref`s). */
export function serveToolList(server: McpServer, tools: readonly ListedTool[]): void {
  server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((listed) => listed()) }));
  // The SDK declares tools.listChanged on the first registration; a server built per request never sends it.
  server.server.registerCapabilities({ tools: { listChanged: false } });
}
