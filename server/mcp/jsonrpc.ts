import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import express, { type RequestHandler, type Response } from 'express';

/** The first protocol version without JSON-RPC batching. */
const BATCHES_REMOVED_IN = '2025-06-18';

function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', id: null, error: { code, message } });
}

const parseJson = express.json({ limit: '1mb' });

/**
 * Reads the JSON body of an MCP request (the app-wide parser leaves /mcp alone, so this runs after the
 * origin, token and rate-limit checks). A body that is not JSON gets the JSON-RPC answer, error -32700.
 */
export const mcpJsonBody: RequestHandler = (req, res, next) => {
  parseJson(req, res, (err?: { type?: string }) => {
    if (err?.type === 'entity.parse.failed') {
      jsonRpcError(res, 400, -32700, 'Parse error: the body is not valid JSON');
      return;
    }
    next(err);
  });
};

/** The protocol version a request speaks: its header, or the version its initialize asks for. */
function protocolVersionOf(headerValue: unknown, messages: unknown[]): string {
  if (typeof headerValue === 'string') return headerValue;
  const initialize = messages.find(
    (m): m is { params?: { protocolVersion?: unknown } } =>
      typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize',
  );
  const asked = initialize?.params?.protocolVersion;
  // Without either, the transport spec says to assume the version before the header existed.
  return typeof asked === 'string' ? asked : DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
}

/**
 * JSON-RPC batches (an array body) were removed from MCP in 2025-06-18: refused with -32600 for that
 * version and later, accepted for the older versions the SDK still speaks. An empty batch is never valid.
 */
export const refuseRemovedBatches: RequestHandler = (req, res, next) => {
  const body: unknown = req.body;
  if (!Array.isArray(body)) {
    next();
    return;
  }
  const version = protocolVersionOf(req.headers['mcp-protocol-version'], body);
  if (body.length === 0) {
    jsonRpcError(res, 400, -32600, 'Invalid Request: an empty batch');
    return;
  }
  if (version >= BATCHES_REMOVED_IN) {
    jsonRpcError(
      res,
      400,
      -32600,
      `Invalid Request: protocol version ${version} has no JSON-RPC batches; send one message per request`,
    );
    return;
  }
  next();
};
