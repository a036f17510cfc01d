import type { ErrorRequestHandler, RequestHandler } from 'express';
import { z } from 'zod';
import type { OAuthErrorBody } from '../../shared/api-keys.js';
import type { ErrorBody, ErrorCode } from '../../shared/errors.js';
import { databaseUnavailableError } from '../db/budget.js';
import { ApiError, zodDetails } from '../errors.js';

/** The wire status of each error code: the one place an `ApiError` becomes HTTP. */
export const statusOf: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  invalid_json: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  idempotency_key_in_progress: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  header_too_large: 431,
  idempotency_key_mismatch: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
};

/** A 400 naming the offending parameters, from a failed Zod parse of one request part. */
export function validationError(part: 'path' | 'query' | 'body' | 'header', error: z.ZodError): ApiError {
  const details = zodDetails(error);
  const names = [...new Set(details.map((d) => d.path || part))].join(', ');
  return new ApiError('validation_failed', `Invalid ${part} parameter${details.length > 1 ? 's' : ''}: ${names}`, {
    details,
  });
}

export const requestIdOf = (res: { getHeader(name: string): unknown }): string =>
  String(res.getHeader('X-Request-Id') ?? '');

/** Body-parser and other http-errors carry `type`/`status`; map the ones callers cause. */
function fromHttpError(err: { type?: string; status?: number; statusCode?: number }): ApiError | undefined {
  if (err.type === 'entity.parse.failed') return new ApiError('invalid_json', 'Malformed JSON body');
  if (err.type === 'entity.too.large') return new ApiError('payload_too_large', 'Request body too large');
  const status = err.status ?? err.statusCode;
  if (err.type === 'encoding.unsupported' || err.type === 'charset.unsupported')
    return new ApiError('unsupported_media_type', 'Unsupported content encoding or charset');
  if (status && status >= 400 && status < 500) return new ApiError('bad_request', 'Bad request');
  return undefined;
}

/** The ApiError an error stands for; undefined for one the server caused (a 500). */
function apiErrorOf(err: unknown): ApiError | undefined {
  if (err instanceof ApiError) return err;
  if (err instanceof z.ZodError) return validationError('body', err);
  return fromHttpError(err as { type?: string; status?: number }) ?? databaseUnavailableError(err);
}

/** Answers a failure in the shape `toBody` gives (our ErrorBody, OAuth's on the token endpoint, SCIM's on
 *  /scim/v2). */
export const errorHandlerWith =
  (toBody: (apiError: ApiError | undefined, requestId: string) => object): ErrorRequestHandler =>
  (err, req, res, _next) => {
    const apiError = apiErrorOf(err);
    if (res.headersSent) {
      // A streamed response already started: all we can do is cut it and log.
      req.log.error({ err }, 'error after response started');
      res.destroy();
      return;
    }
    if (!apiError) req.log.error({ err }, 'unhandled error');
    for (const [name, value] of Object.entries(apiError?.options.headers ?? {})) res.setHeader(name, value);
    res.status(apiError ? statusOf[apiError.code] : 500).json(toBody(apiError, requestIdOf(res)));
  };

export const errorHandler = errorHandlerWith((apiError, requestId): ErrorBody => {
  if (!apiError) return { error: 'Internal server error', errorCode: 'internal_error', requestId };
  const body: ErrorBody = { error: apiError.message, errorCode: apiError.code, requestId };
  if (apiError.options.details) body.details = apiError.options.details;
  return body;
});

/** RFC 6749 §5.2's code for a failure (and the MCP SDK's `too_many_requests` for a throttled client). */
type OAuthError = z.infer<typeof OAuthErrorBody>;

const oauthCodeOf = (apiError: ApiError): OAuthError['error'] =>
  apiError.code === 'unauthorized'
    ? 'invalid_client'
    : apiError.code === 'rate_limited'
      ? 'too_many_requests'
      : 'invalid_request';

/** The token endpoint's failures, ours and the parsers', in OAuth's shape (mounted in its route's chain). */
export const oauthErrorHandler = errorHandlerWith(
  (apiError): OAuthError =>
    apiError
      ? { error: oauthCodeOf(apiError), error_description: apiError.message }
      : { error: 'server_error', error_description: 'Internal server error' },
);

export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new ApiError('not_found', `No route for ${req.method} ${req.path}`));
};
