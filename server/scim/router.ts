import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import { errorHandlerWith, statusOf } from '../http/errors.js';
import { refuseNulInJson } from '../http/nul.js';
import { enforceRateLimit } from '../ratelimit/limiter.js';
import { discovery } from './discovery.js';
import { SCHEMA, type ScimError, type ScimType } from './resources.js';
import {
  authenticateScim,
  createScimUser,
  deleteScimUser,
  getScimUser,
  listScimUsers,
  patchScimUser,
  replaceScimUser,
  type ScimCaller,
  scimBaseUrl,
} from './service.js';

export const SCIM_PATH = '/scim/v2';
export const SCIM_JSON = 'application/scim+json';

/** The same cap as the MCP endpoint's JSON: a User resource is a few hundred bytes. NUL refused as on every route
 *  (PostgreSQL cannot store it: a `\u0000` in a userName would be a 500). */
const parseJson = express.json({
  limit: '1mb',
  type: ['application/scim+json', 'application/json'],
  verify: refuseNulInJson,
});

/** RFC 7644 §3.12: `status` as a string, `scimType` where the RFC names one. */
const answerScimError = errorHandlerWith(
  (apiError): ScimError => ({
    schemas: [SCHEMA.error],
    status: String(apiError ? statusOf[apiError.code] : 500),
    // Set by scimError alone, which takes a ScimType.
    ...(apiError?.options.scimType ? { scimType: apiError.options.scimType as ScimType } : {}),
    detail: apiError?.message ?? 'Internal server error',
  }),
);

/**
 * Every failure on /scim/v2 as an RFC 7644 error in `application/scim+json`: the SCIM router's own, and (mounted
 * app-wide on SCIM_PATH by app.ts) those of the middleware before it, such as a NUL in the URL.
 */
export const scimErrorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (!res.headersSent) res.type(SCIM_JSON);
  answerScimError(err, req, res, next);
};

/** The path with its escapes decoded; undefined when one is malformed (`%E0%A4%A`): it names no document, a 404
 *  rather than decodeURIComponent's URIError (a 500). */
function decodedPath(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

const callerOf = (res: Response) => res.locals.scimCaller as ScimCaller;

/**
 * SCIM 2.0 provisioning (RFC 7643/7644) for an organization's identity provider, behind the organization's SCIM
 * token. Order of the checks: token (401) → the token's rate limit, in the same `api` bucket as every caller (429)
 * → body (400, 413) → the resource. Every answer, errors included, is `application/scim+json`.
 */
export function createScimRouter(app: AppContext): Router {
  const router = express.Router({ caseSensitive: false });

  const authenticate: RequestHandler = async (req, res, next) => {
    const caller = await authenticateScim(app, req.headers.authorization, req.ip ?? null);
    await enforceRateLimit(app.rateLimiter, res, ['api', `scim:${caller.tokenId}`]);
    res.locals.scimCaller = caller;
    next();
  };

  const send = (res: Response, status: number, body: unknown) => {
    res.status(status).type(SCIM_JSON).send(JSON.stringify(body));
  };

  const userId = (req: Request) => String(req.params.id);

  const scim = express.Router({ caseSensitive: false });
  scim.use(authenticate, parseJson);
  // Looked up by path (a schema's id has colons, which Express would read as parameters).
  const documents = new Map(
    Object.entries(discovery(scimBaseUrl(app))).map(([path, body]) => [`/${path}`.toLowerCase(), body]),
  );
  scim.get(/^\/(ServiceProviderConfig|ResourceTypes|Schemas)/i, (req, res, next) => {
    const path = decodedPath(req.path);
    const body = path === undefined ? undefined : documents.get(path.toLowerCase());
    if (body === undefined) next();
    else send(res, 200, body);
  });
  scim.get('/Users', async (req, res) => {
    const query = req.query as Record<string, unknown>;
    const one = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : undefined);
    send(
      res,
      200,
      await listScimUsers(app, callerOf(res), {
        filter: one('filter'),
        startIndex: one('startIndex'),
        count: one('count'),
      }),
    );
  });
  scim.post('/Users', async (req, res) => {
    const created = await createScimUser(app, callerOf(res), req.body);
    res.setHeader('Location', created.meta.location);
    send(res, 201, created);
  });
  scim.get('/Users/:id', async (req, res) => send(res, 200, await getScimUser(app, callerOf(res), userId(req))));
  scim.put('/Users/:id', async (req, res) =>
    send(res, 200, await replaceScimUser(app, callerOf(res), userId(req), req.body)),
  );
  scim.patch('/Users/:id', async (req, res) =>
    send(res, 200, await patchScimUser(app, callerOf(res), userId(req), req.body)),
  );
  scim.delete('/Users/:id', async (req, res) => {
    await deleteScimUser(app, callerOf(res), userId(req));
    res.status(204).end();
  });
  // Omitted by decision: a group at the identity provider must never grant a Sitefile role (org-admin above all).
  scim.all(/^\/Groups(\/.*)?$/i, (_req, _res, next) => {
    next(
      new ApiError(
        'not_found',
        'Groups are not provisioned: Sitefile has no groups, and an identity provider group never grants a role. ' +
          'Provision Users only (see ResourceTypes).',
      ),
    );
  });
  scim.use((req, _res, next) => {
    next(new ApiError('not_found', `No SCIM resource at ${req.method} ${req.path}`));
  });
  scim.use(scimErrorHandler);

  router.use(SCIM_PATH, scim);
  return router;
}
