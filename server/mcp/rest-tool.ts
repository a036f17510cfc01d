import type { z } from 'zod';
import { strictQuery } from '../../shared/common.js';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { ApiError, zodDetails } from '../errors.js';
import { checkAccess, type Route } from '../http/route.js';
import { allRoutes } from '../routes.js';
import type { ToolSpec } from './tools.js';

/**
 * An MCP tool that is a REST route called another way: the route's access rule, its path and query schemas and
 * the service its handler calls. The tool only says which REST request its arguments stand for; the answer is
 * the route's, so a caller gets the same data (or the same refusal) from both.
 */
export interface RestToolSpec<
  I extends z.ZodObject,
  O extends z.ZodObject,
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType = z.ZodType,
> {
  name: string;
  title: string;
  /** Written for a model: what it returns, when to use it, how to page. */
  description: string;
  /** The REST operation (`operationId`) this tool answers like. */
  operationId: string;
  /** The route's own path, query and body schemas (checked at start-up to be the route's). */
  params?: P;
  query?: Q;
  body?: B;
  input: I;
  output: O;
  /** The REST request the arguments stand for: path parameters, query-string values and the body. */
  request: (args: z.output<I>) => {
    params: Record<string, string>;
    query?: Record<string, string | undefined>;
    body?: unknown;
  };
  /** What the route's handler answers, from the parsed path, query and body. */
  answer: (ctx: {
    app: AppContext;
    caller: Caller;
    params: z.output<P>;
    query: z.output<Q>;
    body: z.output<B>;
  }) => Promise<z.output<O>>;
}

function declaredRoute(spec: { operationId: string; params?: unknown; query?: unknown; body?: unknown }): Route {
  const { operationId } = spec;
  const route = allRoutes().find((r) => r.operationId === operationId);
  if (!route || route.params !== spec.params || route.query !== spec.query || route.body !== spec.body) {
    throw new Error(`MCP tool over ${operationId}: no such route, or not its path, query and body schemas`);
  }
  if (route.access.kind !== 'permission') throw new Error(`MCP tool over ${operationId}: needs a permission rule`);
  return route;
}

/** The route's parse of one part of the request; a refusal names each field, as the REST 400's details do. */
function parseAs<S extends z.ZodType>(schema: S, value: unknown, part: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const details = zodDetails(parsed.error).map((d) => `${d.path || part}: ${d.message}`);
  throw ApiError.badRequest(`Invalid ${part}: ${details.join('; ')}`);
}

const definedOnly = (values: Record<string, string | undefined>) =>
  Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));

/** The tool over the REST route, in the form `registerTool` takes. */
export function restTool<
  I extends z.ZodObject,
  O extends z.ZodObject,
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType = z.ZodType,
>(spec: RestToolSpec<I, O, P, Q, B>): ToolSpec<I, O> {
  const route = declaredRoute(spec);
  const rule = route.access as Extract<Route['access'], { kind: 'permission' }>;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    async run(args, { app, caller }) {
      const request = spec.request(args);
      const path = request.params;
      // The order of the REST mount: access first, then the inputs.
      await checkAccess(app, rule, caller, path);
      const params = parseAs(spec.params ?? strictQuery({}), path, 'path') as z.output<P>;
      const query = parseAs(spec.query ?? strictQuery({}), definedOnly(request.query ?? {}), 'arguments');
      const body = spec.body ? parseAs(spec.body, request.body, 'arguments') : undefined;
      return spec.answer({ app, caller, params, query: query as z.output<Q>, body: body as z.output<B> });
    },
  };
}
