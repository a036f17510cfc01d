import type { Logger } from 'pino';
import type { BearerGuard } from './auth/guard.js';
import type { TokenService } from './auth/tokens.js';
import type { BlobStore } from './blobs/store.js';
import type { InvalidationBus } from './cache/bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import type { Metrics } from './metrics/metrics.js';
import type { ConcurrencyGates } from './ratelimit/concurrency.js';
import type { RateLimiter } from './ratelimit/limiter.js';
import type { UsageRecorder } from './usage/recorder.js';

/** Everything a handler may use, built once by createApp: no module-level globals. */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  blobs: BlobStore;
  bus: InvalidationBus;
  tokens: TokenService;
  guard: BearerGuard;
  /** Per-caller request limits (shared through Redis when configured). */
  rateLimiter: RateLimiter;
  /** Per-caller and per-instance caps on exports, explorer queries and filings running at once. */
  gates: ConcurrencyGates;
  /** Per-client usage counters, flushed in batches. */
  usage: UsageRecorder;
  /** Prometheus metrics of this app (`/metrics`). */
  metrics: Metrics;
  /** Sends the webhook outbox (graphile-worker on PostgreSQL, in-process on PGlite). */
  webhooks: WebhookDispatcher;
}

/** Moves due deliveries from the outbox to whoever sends them; one per app instance. */
export interface WebhookDispatcher {
  /** Look for due deliveries now (after a commit that emitted events) rather than at the next tick. */
  nudge(): void;
  /** Stops looking, waits for the attempts under way. */
  close(): Promise<void>;
}
