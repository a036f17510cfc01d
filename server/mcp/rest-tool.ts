import type { z } from 'zod';
import { strictQuery } from '../../shared/common.js';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { ApiError, zodDetails } from '../errors.js';
import { checkAccess, type Route } from '../http/route.js';
import { findProjectOrg } from '../organizations/service.js';
import { allRoutes } from '../routes.js';
import type { ToolSpec } from './tools.js';

/**
 * An MCP tool that is a REST route called another way: the route's access rule, its path and query schemas and
 * the service its handler calls. The tool only says which REST request its arguments stand for; the answer is
 * the route's, so a caller gets the same data (or the same refusal) from both.
 */
export interface RestToolSpec<I extends z.ZodObject, O extends z.ZodObject, P extends z.ZodType, Q extends z.ZodType> {
  name: string;
  title: string;
  /** Written for a model: what it returns, when to use it, how to page. */
  description: string;
  /** The REST operation (`operationId`) this tool answers like. */
  operationId: string;
  /** The route's own path and query schemas (checked at start-up to be the route's). */
  params: P;
  query?: Q;
  input: I;
  output: O;
  /**
   * The REST request the arguments stand for: path parameters and query-string values. A tool that takes a
   * `projectId` without `orgId` gets the project's organization filled in.
   */
  request: (args: z.output<I>) => { params: Record<string, string>; query?: Record<string, string | undefined> };
  /** What the route's handler answers, from the parsed path and query. */
  answer: (ctx: { app: AppContext; caller: Caller; params: z.output<P>; query: z.output<Q> }) => Promise<z.output<O>>;
}

function declaredRoute(operationId: string, params: z.ZodType, query: z.ZodType | undefined): Route {
  const route = allRoutes().find((r) => r.operationId === operationId);
  if (!route || route.params !== params || route.query !== query) {
    throw new Error(`MCP tool over ${operationId}: no such route, or not its path and query schemas`);
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
export function restTool<I extends z.ZodObject, O extends z.ZodObject, P extends z.ZodType, Q extends z.ZodType>(
  spec: RestToolSpec<I, O, P, Q>,
): ToolSpec<I, O> {
  const route = declaredRoute(spec.operationId, spec.params, spec.query);
  const rule = route.access as Extract<Route['access'], { kind: 'permission' }>;
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    permission: rule.permission,
    input: spec.input,
    output: spec.output,
    async run(args, { app, caller }) {
      const request = spec.request(args);
      const path = { ...request.params };
      if (path.projectId && !path.orgId) {
        const orgId = await findProjectOrg(app.db, path.projectId);
        if (!orgId) throw ApiError.notFound('Project');
        path.orgId = orgId;
      }
      // The order of the REST mount: access first, then the inputs.
      await checkAccess(app, rule, caller, path);
      const params = parseAs(spec.params, path, 'path');
      const query = parseAs(spec.query ?? strictQuery({}), definedOnly(request.query ?? {}), 'arguments');
      return spec.answer({ app, caller, params, query: query as z.output<Q> });
    },
  };
}
