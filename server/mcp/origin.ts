import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID';
const EXPOSED_HEADERS =
  'WWW-Authenticate, Mcp-Session-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id';

/**
 * Cross-site and DNS-rebinding protection for /mcp (Streamable HTTP, "Security Warning"): a request whose
 * `Origin` is not allowed is refused with 403 before its token is even read. Requests without `Origin`
 * (desktop agents, servers) pass as before. Allowed browser origins get the CORS headers that let a web
 * client read the answer, including the `WWW-Authenticate` challenge it needs to start signing in.
 */
export function mcpOriginGuard(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    res.vary('Origin');
    const origin = req.headers.origin;
    if (origin === undefined) {
      next();
      return;
    }
    if (!allowed.has(origin)) {
      next(new ApiError('forbidden', 'This origin may not call the MCP endpoint'));
      return;
    }
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
  };
}

/** CORS preflight (after `mcpOriginGuard`): the methods and headers a Streamable HTTP client sends. */
export const mcpPreflight: RequestHandler = (_req, res) => {
  res.setHeader('Allow', 'GET, POST, DELETE, OPTIONS');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE');
  res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
};
