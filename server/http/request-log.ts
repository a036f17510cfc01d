import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

declare module 'express-serve-static-core' {
  interface Request {
    /** The app's logger with this request's id bound lazily: for errors, which are rare. */
    log: Logger;
  }
}

const GIVEN_ID = /^[\w.:-]{1,128}$/;

/** Query parameters that carry a secret: a signed link's signature, OAuth codes, verifiers and tokens. */
const SECRET_PARAMS = new Set([
  'signature',
  'code',
  'code_verifier',
  'token',
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
]);

/** `url` as it may be logged: the value of each secret-carrying query parameter replaced by `redacted`. */
export function loggableUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const params = new URLSearchParams(url.slice(start + 1));
  const secrets = [...params.keys()].filter((name) => SECRET_PARAMS.has(name.toLowerCase()));
  if (secrets.length === 0) return url;
  for (const name of secrets) params.set(name, 'redacted');
  return `${url.slice(0, start)}?${params}`;
}

/**
 * Gives each request its id (the caller's `X-Request-Id` when well formed, else a UUID), echoed on the response,
 * and logs one short line per request when it ends: who called (`caller`, the caller key; `clientAddress`, by
 * TRUST_PROXY), no headers (they hold credentials), no bodies, no query secrets (`loggableUrl`). Written here
 * rather than with pino-http, which builds a child logger and serializer state for every request even when
 * nothing is logged: a third of a millisecond per request on this machine (docs/decisions.md, "Our own
 * request-log middleware").
 */
export function requestLog(log: Logger): RequestHandler {
  const logsEachRequest = log.isLevelEnabled('info');
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && GIVEN_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', id);
    let bound: Logger | undefined;
    Object.defineProperty(req, 'log', { get: () => (bound ??= log.child({ reqId: id })), configurable: true });
    if (logsEachRequest) {
      const started = performance.now();
      res.once('close', () => {
        const line = {
          reqId: id,
          req: { method: req.method, url: loggableUrl(req.originalUrl) },
          caller: req.caller?.callerKey,
          clientAddress: req.ip,
          res: { statusCode: res.statusCode },
          route: req.routeTemplate,
          responseTime: Math.round(performance.now() - started),
        };
        if (!res.writableFinished) log.warn(line, 'request aborted');
        else if (res.statusCode >= 500) log.error(line, 'request errored');
        else log.info(line, 'request completed');
      });
    }
    next();
  };
}
