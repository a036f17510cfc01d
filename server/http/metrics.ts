import { timingSafeEqual } from 'node:crypto';
import type { Express, Request, RequestHandler } from 'express';
import { ApiError } from '../errors.js';
import type { Metrics } from '../metrics/metrics.js';
import { refuseOtherMethods } from './route.js';

/** The route label: the declared template's path, else the Express route's (MCP, OAuth, docs); `unmatched`
 *  for the rest (static files, 404s), so a scan of random URLs cannot blow up the label set. */
function routeOf(req: Request): string {
  if (req.routeTemplate) return req.routeTemplate.slice(req.routeTemplate.indexOf(' ') + 1);
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : 'unmatched';
}

/** Counts and times every request by method, route template and status; keeps the in-flight gauge. */
export const measureRequests =
  (metrics: Metrics): RequestHandler =>
  (req, res, next) => {
    metrics.httpInFlight.inc();
    const stopTimer = metrics.httpDuration.startTimer();
    res.once('close', () => {
      metrics.httpInFlight.dec();
      const labels = { method: req.method, route: routeOf(req), status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      stopTimer(labels);
    });
    next();
  };

const bearerMatches = (header: string | undefined, token: string): boolean => {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/**
 * `GET /metrics` in Prometheus text format. With a token, only to `Authorization: Bearer <token>` (401 otherwise);
 * without one, to anyone who reaches it — mounted so only on the METRICS_PORT listener, which the operator keeps
 * off the public network (app.ts, server.ts).
 */
export const serveMetrics =
  (metrics: Metrics, token: string | undefined): RequestHandler =>
  async (req, res) => {
    if (token && !bearerMatches(req.headers.authorization, token)) throw ApiError.unauthorized();
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  };

/** `GET /metrics` on the API port, behind its token (without one, it is served on METRICS_PORT's listener only). */
export function mountMetrics(app: Express, metrics: Metrics, token: string): void {
  app.get('/metrics', serveMetrics(metrics, token));
  refuseOtherMethods(app, '/metrics', ['GET']);
}
