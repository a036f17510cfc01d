import type { ServerResponse } from 'node:http';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../errors.js';
import { outageLog } from '../outage-log.js';

/**
 * What is counted, each in its own key space over a one-minute fixed window:
 * - `api`: every authenticated request, per caller (client key or user);
 * - `token-ip` / `token-client`: token exchanges per source IP and per (client_id, source IP), against secret
 *   guessing (and the argon2 work each attempt costs); keyed on the pair so that nobody's guesses use up the key's
 *   own budget.
 */
export type RateLimitBucket = 'api' | 'token-ip' | 'token-client';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

export interface RateLimiter {
  consume(bucket: RateLimitBucket, key: string): Promise<RateLimitDecision>;
  /** Resolves once the shared store is connected (at once without Redis); for tests and benchmarks. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimiterOptions {
  perMinute: number;
  redisUrl?: string;
  keyPrefix: string;
  log: Logger;
  /** Told of each refusal (the metrics' counter). */
  onRefusal?: (bucket: RateLimitBucket) => void;
}

const WINDOW_SECONDS = 60;

/** Points per minute of each bucket: a healthy client exchanges a token about once an hour, so the
 *  per-(client_id, address) budget is a tenth of the API budget; the per-IP budget is the API budget (NAT'ed offices). */
export const bucketLimits = (perMinute: number): Record<RateLimitBucket, number> => ({
  api: perMinute,
  'token-ip': perMinute,
  'token-client': Math.max(1, Math.ceil(perMinute / 10)),
});

/**
 * Limits shared through Redis when `redisUrl` is set, in-process otherwise. With Redis, an in-memory
 * insurance limiter takes over while Redis is unreachable (each instance then counts on its own), so a
 * Redis outage never fails a request; the switch is logged once each way.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const limits = bucketLimits(options.perMinute);
  const memory = (bucket: RateLimitBucket) =>
    new RateLimiterMemory({ points: limits[bucket], duration: WINDOW_SECONDS, keyPrefix: bucket });

  let redis: Redis | undefined;
  let connected: Promise<void> = Promise.resolve();
  let limiters: Record<RateLimitBucket, RateLimiterAbstract>;
  if (options.redisUrl) {
    // Fail fast instead of queueing while disconnected: the insurance limiter answers at once.
    const client = new Redis(options.redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 1000,
    });
    redis = client;
    const outage = outageLog(options.log, {
      failing: 'rate limiter: Redis unavailable, counting in-process until it returns',
      working: 'rate limiter: Redis reachable again, limits shared across instances',
    });
    client.on('error', outage.failed);
    client.on('ready', outage.recovered);
    connected = new Promise((resolve) => client.once('ready', () => resolve()));
    const shared = (bucket: RateLimitBucket) =>
      new RateLimiterRedis({
        storeClient: client,
        rejectIfRedisNotReady: true,
        points: limits[bucket],
        duration: WINDOW_SECONDS,
        keyPrefix: `${options.keyPrefix}${bucket}`,
        insuranceLimiter: memory(bucket),
      });
    limiters = { api: shared('api'), 'token-ip': shared('token-ip'), 'token-client': shared('token-client') };
  } else {
    limiters = { api: memory('api'), 'token-ip': memory('token-ip'), 'token-client': memory('token-client') };
  }

  return {
    async consume(bucket, key) {
      const limit = limits[bucket];
      const decide = (res: RateLimiterRes, allowed: boolean): RateLimitDecision => ({
        allowed,
        limit,
        remaining: allowed ? res.remainingPoints : 0,
        resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
      });
      try {
        return decide(await limiters[bucket].consume(key), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) {
          options.onRefusal?.(bucket);
          return decide(rejection, false);
        }
        // Both the store and the insurance failed: serving beats refusing on a limiter fault.
        options.log.error({ err: rejection }, 'rate limiter failed; request let through');
        return { allowed: true, limit, remaining: limit, resetSeconds: WINDOW_SECONDS };
      }
    },
    ready: () => connected,
    async close() {
      redis?.disconnect();
    },
  };
}

/** Headers on every limited response: the widely used `RateLimit-Limit/-Remaining/-Reset` trio
 *  (Reset in seconds), plus `Retry-After` when refused. */
export function applyRateLimitHeaders(res: Pick<ServerResponse, 'setHeader'>, decision: RateLimitDecision): void {
  res.setHeader('RateLimit-Limit', String(decision.limit));
  res.setHeader('RateLimit-Remaining', String(decision.remaining));
  res.setHeader('RateLimit-Reset', String(decision.resetSeconds));
}

export const rateLimited = (decision: RateLimitDecision): ApiError =>
  new ApiError('rate_limited', `Rate limit exceeded; retry after ${decision.resetSeconds} seconds`, {
    headers: { 'Retry-After': String(decision.resetSeconds) },
  });

/** Counts one request in each bucket given; sets the headers of the tightest one; throws 429 when any
 *  bucket is over its limit (Retry-After: the longest wait among the refusals). */
export async function enforceRateLimit(
  limiter: RateLimiter,
  res: Pick<ServerResponse, 'setHeader'>,
  ...checks: [bucket: RateLimitBucket, key: string][]
): Promise<void> {
  const decisions = await Promise.all(checks.map(([bucket, key]) => limiter.consume(bucket, key)));
  const refused = decisions.filter((d) => !d.allowed).sort((a, b) => b.resetSeconds - a.resetSeconds);
  const tightest = refused[0] ?? decisions.sort((a, b) => a.remaining / a.limit - b.remaining / b.limit)[0];
  if (!tightest) return;
  applyRateLimitHeaders(res, tightest);
  if (!tightest.allowed) throw rateLimited(tightest);
}
