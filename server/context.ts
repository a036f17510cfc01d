import type { Logger } from 'pino';
import type { UsageRecorder } from './api-keys/usage.js';
import type { BearerGuard } from './auth/guard.js';
import type { TokenService } from './auth/tokens.js';
import type { BlobStore } from './blobs/store.js';
import type { InvalidationBus } from './cache/bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/connection.js';
import type { Metrics } from './metrics/metrics.js';
import type { RateLimiter } from './ratelimit/limiter.js';

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
  /** Per-client usage counters, flushed in batches. */
  usage: UsageRecorder;
  /** Prometheus metrics of this app (`/metrics`). */
  metrics: Metrics;
  /** False while start-up still waits for the database (`/readyz` 503, every other request but the probes 503). */
  isReady(): boolean;
}
