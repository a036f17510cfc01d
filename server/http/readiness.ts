import type { RequestHandler } from 'express';
import { ApiError } from '../errors.js';

// The probes, and the metrics (they read no table): a starting instance is watched like a running one.
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** While start-up waits for the database, everything but the probes and /metrics answers 503 with Retry-After. */
export const untilReady =
  (isReady: () => boolean): RequestHandler =>
  (req, _res, next) => {
    if (isReady() || PROBES.has(req.path)) return next();
    next(
      new ApiError('service_unavailable', 'Starting: waiting for the database', { headers: { 'Retry-After': '5' } }),
    );
  };
