import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type RequestHandler, type Router } from 'express';
import type { AppContext } from '../context.js';
import { ApiError } from '../http/errors.js';
import type { OAuthServer } from '../oauth/router.js';
import { buildMcpServer } from './server.js';

export const MCP_PATH = '/mcp';

/**
 * `POST /mcp` (Streamable HTTP, stateless: each request gets its own server bound to the caller, so
 * any instance can answer any request). `GET` (server-sent stream) and `DELETE` (end session) have
 * nothing to serve without sessions and answer 405, as the transport spec allows.
 */
export function createMcpRouter(app: AppContext, oauth: OAuthServer): Router {
  const bearer = requireBearerAuth({ verifier: oauth.provider, resourceMetadataUrl: oauth.mcpResourceMetadataUrl });

  const handle: RequestHandler = async (req, res, next) => {
    const kind = req.auth?.extra?.kind === 'client' ? 'client' : 'user';
    const caller = await app.guard.callerOf(kind, String(req.auth?.extra?.subject));
    if (!caller) {
      res.setHeader(
        'WWW-Authenticate',
        `Bearer error="invalid_token", error_description="Token no longer valid", resource_metadata="${oauth.mcpResourceMetadataUrl}"`,
      );
      next(ApiError.unauthorized('Token no longer valid'));
      return;
    }
    if (!caller.permissions.has('mcp:access')) {
      next(ApiError.forbidden());
      return;
    }
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      next(new ApiError('method_not_allowed', 'This MCP endpoint is stateless: use POST'));
      return;
    }
    const server = buildMcpServer(app, caller);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };

  const router = express.Router();
  router.all(MCP_PATH, bearer, handle);
  return router;
}
