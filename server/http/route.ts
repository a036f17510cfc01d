import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import type { z } from 'zod';
import type { oas31 } from 'zod-openapi';
import { strictQuery } from '../../shared/common.js';
import type { Permission } from '../../shared/permissions.js';
import {
  type Caller,
  canAccessOrg,
  canAccessProject,
  canAccessWholeOrg,
  isOrgAdmin,
  isOwnerOrOrgAdmin,
  type RecordOwner,
} from '../auth/caller.js';
import type { ConcurrencyKind } from '../config.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/connection.js';
import { ApiError } from '../errors.js';
import { enforceRateLimit } from '../ratelimit/limiter.js';
import { oauthErrorHandler, validationError } from './errors.js';
import { sendJsonWithEtag } from './etag.js';
import { collectGarbage } from './memory.js';
import { refuseNulInForm, refuseNulInJson } from './nul.js';
import { parseSpooledBody, type SpooledBodyParsers, spoolBody, spooledLength } from './spooled-body.js';

/**
 * Who may call a route. Declared on the route and enforced here, before the handler, in one fixed order:
 * token (401) → rate limit (429; counted once the caller is known, so refusals count too) → the rule's caller
 * check (403) → organization in scope (403) → project belongs to the organization (404) → project in scope (403)
 * → a person (`peopleOnly`, 403) → params, query, headers and body (400) → the record of an `ownerOrOrgAdmin`
 * rule (404, then 403). The kinds:
 * - `public`: no bearer token (token exchange, signed downloads).
 * - `authenticated`: any valid token.
 * - `clientKey`: client keys only; a person's token gets 403 `A client token is required` (a key about itself).
 * - `permission` (+ `scope`): a key or user holding the permission (without it, a 403 whose details name it);
 *   `org` checks `:orgId` against the caller's scope (403), `project` also checks that `:projectId` belongs to
 *   `:orgId` (404) and is in scope (403).
 * - `permission` with `staffToo` (`needsOrStaff`): as `permission`, and staff users pass too (key management).
 * - `permission` with `peopleOnly` (`needsPerson`): as `permission`, and only a signed-in person passes: client
 *   keys (which act for no one) get 403, after the scope checks (a filed e-mail's sent Message-ID, unfiling, moving).
 * - `permission` with `orgAdminsToo` (`needsOrOrgAdmin`, scope `wholeOrg`): a key holding the permission for the
 *   whole of `:orgId` (one scoped to some of its projects gets 403), or an admin of `:orgId`, or staff (webhooks:
 *   integrators' keys and the organization's admins manage them; an endpoint sees every project's events).
 * - `staff`: platform staff users only; every client key, superadmin included, gets 403.
 * - `user`: any signed-in person (staff or not); every client key gets 403.
 * - `orgAdmin`: a signed-in admin of `:orgId` (role admin in its membership), or staff; every client key and
 *   every member gets 403. For what an organization manages itself (its AI switch, its API keys).
 * - `ownerOrOrgAdmin` (`access.ownerOrOrgAdmin({ record, param, load })`): the person who made the record named by
 *   `:param`, an admin of the record's organization, or staff; every client key gets 403 at the caller check.
 *   `load` answers the record's owner, or undefined when there is no such record (404 `<record> not found`). It
 *   runs after the inputs are parsed, so a malformed id stays a 400 (deleting a comment).
 * `test/auth-matrix.ts` derives each route's permission cases from this declaration.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'clientKey' }
  | {
      kind: 'permission';
      permission: Permission;
      scope?: AccessScope;
      staffToo?: boolean;
      peopleOnly?: boolean;
      orgAdminsToo?: boolean;
    }
  | { kind: 'staff' }
  | { kind: 'user' }
  | { kind: 'orgAdmin' }
  | OwnerRule;

/**
 * What of `:orgId` a `permission` rule's caller must reach: `org`, any of it (the whole organization or one of its
 * projects); `wholeOrg`, the whole organization (a key scoped to some of its projects gets 403 saying so);
 * `project`, `:projectId`.
 */
export type AccessScope = 'org' | 'wholeOrg' | 'project';

/** The record an `ownerOrOrgAdmin` rule guards: its name (for the 404), its path parameter, how to find its owner. */
export interface OwnerRule {
  kind: 'ownerOrOrgAdmin';
  record: string;
  param: string;
  load: (db: Db, id: string) => Promise<RecordOwner | undefined>;
}

export const access = {
  public: { kind: 'public' } as Access,
  authenticated: { kind: 'authenticated' } as Access,
  clientKey: { kind: 'clientKey' } as Access,
  staff: { kind: 'staff' } as Access,
  user: { kind: 'user' } as Access,
  orgAdmin: { kind: 'orgAdmin' } as Access,
  needs: (permission: Permission, scope?: 'org' | 'project'): Access => ({ kind: 'permission', permission, scope }),
  needsOrStaff: (permission: Permission): Access => ({ kind: 'permission', permission, staffToo: true }),
  needsPerson: (permission: Permission, scope?: 'org' | 'project'): Access => ({
    kind: 'permission',
    permission,
    scope,
    peopleOnly: true,
  }),
  needsOrOrgAdmin: (permission: Permission): Access => ({
    kind: 'permission',
    permission,
    scope: 'wholeOrg',
    orgAdminsToo: true,
  }),
  ownerOrOrgAdmin: (record: Omit<OwnerRule, 'kind'>): Access => ({ kind: 'ownerOrOrgAdmin', ...record }),
};

/** The 403 of a `needsPerson` route to a key: that no permission would do, and what will. */
export const PERSON_NEEDED =
  'Insufficient permissions: only a signed-in person can do this (it is recorded as theirs); an API key cannot, ' +
  'whatever its permissions';

type AnyObject = z.ZodType<Record<string, unknown>, Record<string, unknown>>;

/** An OpenAPI header object (`schema` is plain JSON Schema there). */
export type HeaderSpec = oas31.HeaderObject;

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  /** Content type of `schema`; defaults to application/json. */
  contentType?: string;
  headers?: Record<string, HeaderSpec>;
  /** Also served as `text/csv` when the request says `Accept: text/csv`. */
  csv?: boolean;
}

export interface RouteSpec<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, S extends boolean = boolean> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path (`/v1/organization/:orgId`); the OpenAPI path is derived from it. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  access: Access;
  params?: P;
  query?: Q;
  /** Request headers the route requires (validated before the body, documented in OpenAPI). */
  headers?: AnyObject;
  body?: B;
  /** Body content types the route accepts besides `body`'s JSON: each one's body is checked against its schema
   *  (400 naming the field). The OAuth form is parsed by the mount; others by the route's own `before`. */
  bodyContentTypes?: Record<string, { schema: z.ZodType }>;
  /** The route reads its own body (`before`, after the access checks): the mount's JSON parser leaves it alone. */
  ownBody?: boolean;
  /** Success responses; error responses follow from `access` and the declared inputs. */
  responses: Record<number, ResponseSpec>;
  /** Extra error statuses the handler itself may produce (beyond the ones `access`/inputs imply). */
  errors?: Record<number, string>;
  /** Every failure in OAuth's shape (RFC 6749 §5.2) rather than ErrorBody, the parsers' too: the token endpoint. */
  errorBody?: 'oauth';
  /** Middleware that runs after access checks and before validation (e.g. a raw-body parser). */
  before?: RequestHandler[];
  /** Work capped per caller and per instance (`app.gates`): a slot is taken after `before`, once the request has
   *  fully arrived (see `gatedBody`), and given back when the response is over. */
  gate?: ConcurrencyKind;
  /** A gated route's own body: read whole first (at most `limit` bytes as sent; http/spooled-body.ts), so that an
   *  upload never holds a slot however slowly it comes; `parsers` parse it once the slot is taken. */
  gatedBody?: { limit: number } & SpooledBodyParsers;
  /** The handler may write its answer to `res` itself as it goes (a file, a CSV export): the mount then sends
   *  nothing; what it returns is sent as on any route. Only such a handler is given the whole response. */
  streams?: S;
  /** Answers the route's first declared status with the value returned (JSON; 204 with none), or a `Reply`. */
  handler: (ctx: HandlerContext<z.output<P>, z.output<Q>, z.output<B>, S>) => Promise<unknown>;
}

/** What a handler that does not stream may do to the response: set headers. The mount sends the rest. */
export type ResponseHeaders = Pick<Response, 'setHeader' | 'getHeader'>;

export interface HandlerContext<P, Q, B, S extends boolean = false> {
  req: Request;
  res: S extends true ? Response : ResponseHeaders;
  app: AppContext;
  /** Undefined only on public routes. */
  caller: Caller;
  params: P;
  query: Q;
  body: B;
}

export type Route = RouteSpec<AnyObject, AnyObject, z.ZodType>;

/** Keeps the spec's types for the handler while registering routes in one list. */
export const defineRoute = <
  P extends AnyObject = AnyObject,
  Q extends AnyObject = AnyObject,
  B extends z.ZodType = z.ZodType,
  S extends boolean = false,
>(
  spec: RouteSpec<P, Q, B, S>,
): Route => spec as unknown as Route;

/**
 * A handler's answer with a status of its own among the route's declared ones (filing: 201 new, 200 already
 * filed; the token endpoint's OAuth failures) and headers that go with it. `body` is sent as JSON, or as it is
 * when it is JSON already serialized (a command's stored answer, replayed byte for byte); none: no body.
 */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

declare module 'express-serve-static-core' {
  interface Request {
    caller?: Caller;
    /** Route template (`GET /v1/organization/:orgId`) for logs and usage counters. */
    routeTemplate?: string;
  }
}

/** Singular paths published by the spec also answer under the plural aliases of the overview. */
export const pluralAlias = (path: string): string | undefined =>
  /^\/v1\/organization(?=\/|$)/.test(path)
    ? path
        .replace(/^\/v1\/organization(?=\/|$)/, '/v1/organizations')
        .replace(/\/:orgId\/project(?=\/|$)/, '/:orgId/projects')
    : undefined;

async function authorize(app: AppContext, route: Route, req: Request, res: Response): Promise<Caller | undefined> {
  const rule = route.access;
  if (rule.kind === 'public') return undefined;
  const caller = await app.guard.authenticate(req);
  req.caller = caller;
  // Counted once the caller is known, before the permission checks, so refusals count too.
  await enforceRateLimit(app.rateLimiter, res, ['api', caller.callerKey]);
  await checkAccess(app, rule, caller, req.params as AccessPath);
  return caller;
}

/** The path parameters an access rule looks at. */
export interface AccessPath {
  orgId?: string;
  projectId?: string;
}

/**
 * A rule's checks of a known caller (403, and 404 for a project of another organization), without the token and
 * rate limit: a REST request and an MCP tool over the same route are refused alike.
 */
export async function checkAccess(
  app: AppContext,
  rule: Exclude<Access, { kind: 'public' }>,
  caller: Caller,
  { orgId, projectId }: AccessPath,
): Promise<void> {
  if (rule.kind === 'permission') await checkPermission(app, rule, caller, orgId, projectId);
  else checkCaller(rule, caller, orgId);
}

/** The caller check of every rule but `permission`: who the caller is, and for `orgAdmin` their role in `:orgId`. */
function checkCaller(rule: Exclude<Access, { kind: 'public' | 'permission' }>, caller: Caller, orgId?: string): void {
  if (rule.kind === 'authenticated') return;
  if (rule.kind === 'clientKey') {
    if (caller.kind !== 'client') throw new ApiError('forbidden', 'A client token is required');
    return;
  }
  if (caller.kind !== 'user') throw new ApiError('forbidden', PERSON_NEEDED);
  if (rule.kind === 'staff' && !caller.staff) throw ApiError.forbidden();
  if (rule.kind === 'orgAdmin' && (!orgId || !isOrgAdmin(caller, orgId))) throw ApiError.forbidden();
}

async function checkPermission(
  app: AppContext,
  rule: Extract<Access, { kind: 'permission' }>,
  caller: Caller,
  orgId?: string,
  projectId?: string,
): Promise<void> {
  if (rule.orgAdminsToo && orgId && isOrgAdmin(caller, orgId)) return;
  if (!caller.permissions.has(rule.permission) && !(rule.staffToo && caller.staff)) {
    // Which permission is missing: a key's owner can grant it (e.g. email:file to file e-mail).
    throw new ApiError('forbidden', 'Insufficient permissions', {
      details: [{ path: 'permissions', message: `Needs ${rule.permission}, which this token does not hold` }],
    });
  }
  if (rule.scope) {
    if (!orgId || !canAccessOrg(caller.scope, orgId)) throw ApiError.forbidden();
    if (rule.scope === 'wholeOrg' && !canAccessWholeOrg(caller.scope, orgId)) {
      throw new ApiError(
        'forbidden',
        `${rule.permission} needs organization scope: this key reaches only some projects of the organization`,
      );
    }
    if (rule.scope === 'project') {
      if (!projectId || (await app.caches.projectOwners.of(projectId)) !== orgId) throw ApiError.notFound('Project');
      if (!canAccessProject(caller.scope, orgId, projectId)) throw ApiError.forbidden();
    }
  }
  if (rule.peopleOnly && caller.kind !== 'user') throw new ApiError('forbidden', PERSON_NEEDED);
}

/** The last step of an `ownerOrOrgAdmin` rule, on the parsed path: the record exists (404) and is the caller's to act on (403). */
async function checkRecordOwner(app: AppContext, rule: OwnerRule, caller: Caller, params: unknown): Promise<void> {
  const owner = await rule.load(app.db, (params as Record<string, string>)[rule.param] ?? '');
  if (!owner) throw ApiError.notFound(rule.record);
  if (!isOwnerOrOrgAdmin(caller, owner)) throw ApiError.forbidden();
}

/** A route that declares no query parameters refuses any (a misspelt parameter must not be silently ignored). */
const noQueryParameters = strictQuery({});

function parsePart<T extends z.ZodType>(
  part: 'path' | 'query' | 'body' | 'header',
  schema: T | undefined,
  value: unknown,
) {
  if (!schema) return value;
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw validationError(part, result.error);
  return result.data;
}

/** Whether `pattern` matches the declared path `other` only through a `:param` standing where `other` has a word. */
function shadows(pattern: string, other: string): boolean {
  const [mine, theirs] = [pattern.split('/'), other.split('/')];
  if (pattern === other || mine.length !== theirs.length) return false;
  return mine.every((part, i) => part === theirs[i] || (part.startsWith(':') && !theirs[i]?.startsWith(':')));
}
/** One of the caller's slots of `kind` for as long as the response lasts (finished, failed or abandoned). */
const gateStep =
  (app: AppContext, kind: ConcurrencyKind): RequestHandler =>
  async (req, res, next) => {
    const { aloneFromBytes = Number.POSITIVE_INFINITY } = app.config.concurrency[kind];
    const alone = spooledLength(req) > aloneFromBytes;
    const entered = await app.gates.enter(kind, (req.caller as Caller).callerKey, { alone });
    const release = () => {
      // The message's copies (mailparser's decoded chunks, their concatenation, its strings) are garbage now:
      // collected before the next large one is parsed, rather than when V8 next decides to, so that two
      // messages are never held at once (+50 MB less over eight 24 MB filings; docs/performance.md).
      if (alone) collectGarbage();
      entered();
    };
    if (res.closed)
      release(); // the client left while it waited
    else res.once('close', release);
    next();
  };

/**
 * A streamed answer whose client has taken no byte for `stallMs` while the answer waits on it is cut (within twice
 * that), so that a client that stops reading holds no file or export open. Waiting on the client: a write was
 * refused until 'drain'; before the first byte, the wait is the handler's (a long query), not the client's.
 */
const cutWhenStalled = (res: Response, stallMs: number): void => {
  let sent = -1;
  const check = setInterval(() => {
    const now = res.socket?.bytesWritten ?? 0;
    if (res.writableNeedDrain && now === sent) res.destroy();
    sent = now;
  }, stallMs);
  res.once('close', () => clearInterval(check));
};

const FORM = 'application/x-www-form-urlencoded';
const jsonBody = express.json({ limit: '1mb', verify: refuseNulInJson });
/** A form body (`application/x-www-form-urlencoded`: OAuth's token requests, the sign-in pages' posts). */
export const formBody = express.urlencoded({ extended: false, limit: '64kb', verify: refuseNulInForm });

/** A route's body parsers, before its access checks: JSON, and the OAuth form where declared; none when it reads
 *  its own body. */
const bodyParsers = (route: Route): RequestHandler[] =>
  route.ownBody ? [] : route.bodyContentTypes?.[FORM] ? [jsonBody, formBody] : [jsonBody];

/** The schema a request's body is checked against: its declared content type's, or `body`'s (JSON). */
function bodySchema(route: Route, req: Request): z.ZodType | undefined {
  const declared = Object.entries(route.bodyContentTypes ?? {}).find(([type]) => req.is(type));
  if (declared) return declared[1].schema;
  if (!route.body && route.bodyContentTypes) {
    throw ApiError.badRequest(`body: send ${Object.keys(route.bodyContentTypes).join(' or ')}`);
  }
  return route.body;
}

/**
 * The error body a route declares (`errorBody`) for every failure on its path, also those of the app-wide steps
 * before the routes (a NUL in the URL, the start-up wait): mounted on the app after the routes, before the app's
 * own error handler.
 */
export function mountErrorBodies(app: Router, routes: readonly Route[]): void {
  for (const route of routes.filter((r) => r.errorBody === 'oauth')) {
    const method = route.method.toUpperCase();
    // Other methods on the path are not the route: their 405 keeps the API's shape.
    const ownError: ErrorRequestHandler = (error, req, res, next) =>
      req.method === method ? oauthErrorHandler(error, req, res, next) : next(error);
    for (const path of [route.path, pluralAlias(route.path)].filter((p): p is string => Boolean(p))) {
      app.use(path, ownError);
    }
  }
}

/** The status a handler's plain value is answered with: the route's first declared one. */
const firstStatus = (route: Route, result: unknown): number =>
  Number(Object.keys(route.responses)[0] ?? (result === undefined ? 204 : 200));

/** Sends a handler's answer: a GET's JSON with its ETag (304 when the client has it). */
function send(route: Route, res: Response, { status, body, headers }: Reply): void {
  res.status(status);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (body === undefined) res.end();
  else if (Buffer.isBuffer(body)) res.setHeader('Content-Length', body.length).end(body);
  else if (route.method === 'get') sendJsonWithEtag(res, body);
  else res.json(body);
}

export function mountRoutes(router: Router, app: AppContext, routes: readonly Route[]): void {
  const methodsByPath = new Map<string, string[]>();
  const declared = routes.flatMap((route) =>
    [route.path, pluralAlias(route.path)].filter((p): p is string => Boolean(p)).map((path) => ({ path, route })),
  );
  // GET …/drawings/bundle is the bundle's path with a method it does not serve (405), not the drawing "bundle".
  const refuseShadowed = (path: string, method: Route['method']) => {
    for (const other of new Set(declared.filter((d) => shadows(path, d.path)).map((d) => d.path))) {
      const methods = declared.filter((d) => d.path === other).map((d) => d.route.method.toUpperCase());
      if (!methods.includes(method.toUpperCase())) refuseOtherMethods(router, other, methods, method);
    }
  };
  for (const route of routes) {
    const template = `${route.method.toUpperCase()} ${route.path}`;
    const authorizeStep: RequestHandler = async (req, res, next) => {
      req.routeTemplate = template;
      req.caller = await authorize(app, route, req, res);
      next();
    };
    const runStep: RequestHandler = async (req, res) => {
      const params = parsePart('path', route.params, req.params);
      const query = parsePart('query', route.query ?? noQueryParameters, req.query);
      parsePart('header', route.headers, req.headers);
      const body = parsePart('body', bodySchema(route, req), req.body);
      if (route.access.kind === 'ownerOrOrgAdmin')
        await checkRecordOwner(app, route.access, req.caller as Caller, params);
      if (route.streams) cutWhenStalled(res, app.config.exportStallTimeoutMs);
      const result = await route.handler({ req, res, app, caller: req.caller as Caller, params, query, body } as never);
      if (route.streams && (res.headersSent || res.writableEnded)) return;
      send(route, res, result instanceof Reply ? result : new Reply(firstStatus(route, result), result));
    };
    for (const path of [route.path, pluralAlias(route.path)].filter((p): p is string => Boolean(p))) {
      refuseShadowed(path, route.method);
      router[route.method](
        path,
        ...bodyParsers(route),
        authorizeStep,
        ...(route.before ?? []),
        ...(route.gatedBody ? [spoolBody(route.gatedBody.limit)] : []),
        ...(route.gate ? [gateStep(app, route.gate)] : []),
        ...(route.gatedBody ? [parseSpooledBody(route.gatedBody)] : []),
        runStep,
      );
      methodsByPath.set(path, [...(methodsByPath.get(path) ?? []), route.method.toUpperCase()]);
    }
  }
  // Paths with fewer parameters first: a path answers for itself before a pattern that also matches it.
  const byParameters = [...methodsByPath].sort(([a], [b]) => a.split(':').length - b.split(':').length);
  for (const [path, methods] of byParameters) refuseOtherMethods(router, path, methods);
}

/** A known path with a method it does not serve: 405 with Allow, not a 404. Mount after the path's handlers. */
export function refuseOtherMethods(
  router: Pick<Router, 'all' | Route['method']>,
  path: string,
  methods: readonly string[],
  only: Route['method'] | 'all' = 'all',
): void {
  const allow = methods.join(', ');
  router[only](path, (_req, res, next) => {
    res.setHeader('Allow', allow);
    next(new ApiError('method_not_allowed', `Method not allowed; use ${allow}`));
  });
}

/** An Express path as an OpenAPI path: `:orgId` → `{orgId}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');
