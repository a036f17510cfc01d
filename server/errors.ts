import type { z } from 'zod';
import type { ErrorBody, ErrorCode } from '../shared/errors.js';

/**
 * The one error type of the server. It sits on the ground floor so that every layer — auth, rate limits,
 * services, MCP tools — can throw it without importing the HTTP layer; `http/errors.ts` maps it to the wire.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: {
      details?: ErrorBody['details'];
      headers?: Record<string, string>;
      /** SCIM's `scimType` (RFC 7644 §3.12) for an error answered on /scim/v2; other answers leave it out. */
      scimType?: string;
    } = {},
  ) {
    super(message);
  }

  static badRequest = (message: string, details?: ErrorBody['details']) =>
    new ApiError('bad_request', message, { details });
  static unauthorized = (message = 'Missing or invalid bearer token') =>
    new ApiError('unauthorized', message, { headers: { 'WWW-Authenticate': 'Bearer' } });
  static forbidden = () => new ApiError('forbidden', 'Insufficient permissions');
  static notFound = (what = 'Resource') => new ApiError('not_found', `${what} not found`);
}

/** One entry per offending field; an unknown key is reported under its own name. */
export const zodDetails = (error: z.ZodError): NonNullable<ErrorBody['details']> =>
  error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: [...issue.path, key].join('.'), message: issue.message }))
      : [{ path: issue.path.join('.'), message: issue.message }],
  );
