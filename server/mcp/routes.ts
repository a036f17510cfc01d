import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import express, { type RequestHandler, type Router } from 'express';
import type { Caller } from '../auth/caller.js';
import type { AppContext } from '../context.js';
import { ApiError } from '../errors.js';
import type { OAuthServer } from '../oauth/router.js';
import { enforceRateLimit } from '../ratelimit/limiter.js';
import { mcpJsonBody, refuseRemovedBatches } from './jsonrpc.js';
import { mcpOriginGuard, mcpPreflight } from './origin.js';

export const MCP_PATH = '/mcp';

/**
 * `POST /mcp` (Streamable HTTP, stateless: each request gets its own server bound to the caller, so
 * any instance can answer any request). `GET` (server-sent stream) and `DELETE` (end session) have
 * nothing to serve without sessions and answer 405, as the transport spec allows.
 *
 * Order of the checks: origin (403) → token (401) → the caller's rate limit, shared with /v1 (429) →
 * `mcp:access` (403) → method (405) → JSON body (-32700) → batches (-32600) → the MCP server.
 */
export function createMcpRouter(app: AppContext, oauth: OAuthServer): Router {
  const metadataUrl = oauth.mcpResourceMetadataUrl;
  const bearer = requireBearerAuth({ verifier: oauth.provider, resourceMetadataUrl: metadataUrl });
  const validator = new AjvJsonSchemaValidator();
  const origins = mcpOriginGuard([new URL(app.config.publicUrl).origin, ...app.config.mcpAllowedOrigins]);

  // RFC 6750 §3.1: a request with no credentials at all gets the challenge without an error code.
  const challengeAnonymous: RequestHandler = (req, _res, next) => {
    if (req.headers.authorization !== undefined) {
      next();
      return;
    }
    const challenge = `Bearer resource_metadata="${metadataUrl}"`;
    next(new ApiError('unauthorized', 'Sign in to use the MCP server', { headers: { 'WWW-Authenticate': challenge } }));
  };

  const authorize = authorizeMcpCaller(app, metadataUrl);

  const postOnly: RequestHandler = (req, res, next) => {
    if (req.method === 'POST') {
      next();
      return;
    }
    res.setHeader('Allow', 'POST');
    next(new ApiError('method_not_allowed', 'This MCP endpoint is stateless: use POST'));
  };

  // The MCP server and its transport are loaded on the first call, not at start-up (a fifth of a second of
  // every start, for an endpoint many installations never use).
  let mcpModules: Promise<
    [typeof import('./server.js'), typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js')]
  >;
  const loadMcpModules = () =>
    (mcpModules ??= Promise.all([import('./server.js'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

  const handle: RequestHandler = async (req, res) => {
    const [{ buildMcpServer }, { StreamableHTTPServerTransport }] = await loadMcpModules();
    const server = buildMcpServer(app, req.caller as Caller, validator);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };

  // Every answer is JSON (enableJsonResponse): a client that accepts JSON, or says nothing, is served. The SDK's
  // transport also insists on text/event-stream and would answer it 406.
  const acceptJson: RequestHandler = (req, _res, next) => {
    if (req.accepts('application/json')) req.headers.accept = 'application/json, text/event-stream';
    next();
  };

  const router = express.Router();
  router.options(MCP_PATH, origins, mcpPreflight);
  router.all(
    MCP_PATH,
    origins,
    challengeAnonymous,
    bearer,
    authorize,
    postOnly,
    mcpJsonBody,
    refuseRemovedBatches,
    acceptJson,
    handle,
  );
  return router;
}

/** The token's caller, still valid, counted against its rate limit and holding `mcp:access`. */
function authorizeMcpCaller(app: AppContext, metadataUrl: string): RequestHandler {
  return async (req, res, next) => {
    const kind = req.auth?.extra?.kind === 'client' ? 'client' : 'user';
    const caller = await app.guard.callerOf(kind, String(req.auth?.extra?.subject));
    if (!caller) {
      const challenge = `Bearer error="invalid_token", error_description="Token no longer valid", resource_metadata="${metadataUrl}"`;
      next(new ApiError('unauthorized', 'Token no longer valid', { headers: { 'WWW-Authenticate': challenge } }));
      return;
    }
    // Counted like /v1: one budget per caller, refusals included.
    await enforceRateLimit(app.rateLimiter, res, ['api', caller.callerKey]);
    if (!caller.permissions.has('mcp:access')) {
      const challenge = `Bearer error="insufficient_scope", error_description="The mcp:access permission is required", resource_metadata="${metadataUrl}"`;
      next(
        new ApiError('forbidden', 'Insufficient permissions: mcp:access is required', {
          headers: { 'WWW-Authenticate': challenge },
        }),
      );
      return;
    }
    req.caller = caller;
    next();
  };
}
