import type { Logger } from 'pino';
import type { FailureThrottle } from './auth/failure-throttle.js';
import type { BearerGuard } from './auth/guard.js';
import type { ProjectOwners } from './auth/project-owner.js';
import type { TokenService } from './auth/tokens.js';
import type { BlobStore } from './blobs/store.js';
import type { InvalidationBus } from './cache/bus.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { CursorKey } from './cursor.js';
import type { Db } from './db/connection.js';
import type { Metrics } from './metrics/metrics.js';
import type { ConcurrencyGates } from './ratelimit/concurrency.js';
import type { RateLimiter } from './ratelimit/limiter.js';
import type { UsageRecorder } from './usage/recorder.js';

/** What a list needs: its database and the key its cursors are signed with. */
export type ListContext = Pick<AppContext, 'db' | 'cursorKey'>;

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
  /** Signs and checks list cursors (derived from the token signing key). */
  cursorKey: CursorKey;
  /** Signs and checks download links (derived from the token signing key, or kept in DATA_DIR). */
  downloadKey: Buffer;
  /** Per-caller and per-instance caps on exports, explorer queries and filings running at once. */
  gates: ConcurrencyGates;
  /** Wrong API key secrets per (client_id, address), at the token endpoint. */
  keySecrets: FailureThrottle;
  /** Per-client usage counters, flushed in batches. */
  usage: UsageRecorder;
  /** Prometheus metrics of this app (`/metrics`). */
  metrics: Metrics;
  /** Sends the webhook outbox (through graphile-worker). */
  webhooks: WebhookDispatcher;
  /** What this instance keeps in memory between requests (see AppCaches). */
  caches: AppCaches;
  /** False while start-up still waits for the database (`/readyz` 503, every other request but the probes 503). */
  isReady(): boolean;
}

/**
 * What one app instance keeps in memory between requests, made by createApp: no module keeps state of its own.
 * This floor names only what it owns; a resource folder that keeps something adds its entry from its own folder
 * (`declare module '../context.js' { interface AppCaches { … } }`), so the floor imports no resource folder, and
 * createApp, which must fill every entry, shows them all in one place.
 */
export interface AppCaches {
  /** Which organization owns each project asked about (a project never moves). */
  projectOwners: ProjectOwners;
}

/** Moves due deliveries from the outbox to whoever sends them; one per app instance. */
export interface WebhookDispatcher {
  /** Look for due deliveries now (after a commit that emitted events) rather than at the next tick. */
  nudge(): void;
  /** Stops looking, waits for the attempts under way. */
  close(): Promise<void>;
}
