import express, { type Express } from 'express';
import pino, { type Logger } from 'pino';
import { addUsage } from './api-keys/queries.js';
import { createKeySecretThrottle } from './api-keys/service.js';
import { createBearerGuard } from './auth/guard.js';
import { type KeyRing, loadKeyRing } from './auth/keys.js';
import { ProjectOwners } from './auth/project-owner.js';
import { createTokenService } from './auth/tokens.js';
import { createBlobStore } from './blobs/configured.js';
import type { BlobStore } from './blobs/store.js';
import { startBlobSweeper } from './blobs/sweep.js';
import { createLocalBus, createRedisBus, type InvalidationBus } from './cache/bus.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { cursorKeyFrom } from './cursor.js';
import type { Db } from './db/connection.js';
import { mountDocs } from './docs/routes.js';
import { downloadSigningKey } from './downloads/signing.js';
import { ProjectIndexCache } from './filing/project-index-cache.js';
import { compressAnswers } from './http/compression.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { measureRequests, mountMetrics } from './http/metrics.js';
import { refuseNulInUrl } from './http/nul.js';
import { untilReady } from './http/readiness.js';
import { requestLog } from './http/request-log.js';
import { mountErrorBodies, mountRoutes } from './http/route.js';
import { securityHeaders } from './http/security-headers.js';
import { recordUsage } from './http/usage.js';
import { createMcpRouter } from './mcp/routes.js';
import { createMetrics } from './metrics/metrics.js';
import { createOAuthServer } from './oauth/router.js';
import { createConcurrencyGates } from './ratelimit/concurrency.js';
import { createRateLimiter } from './ratelimit/limiter.js';
import { allRoutes, documentedSections } from './routes.js';
import { createScimRouter, SCIM_PATH, scimErrorHandler } from './scim/router.js';
import { ProviderDocuments } from './sso/provider-documents.js';
import { RunbookCache } from './support-issues/runbook.js';
import { createUsageRecorder } from './usage/recorder.js';
import { createWebhookDispatcher } from './webhooks/dispatcher.js';

export interface AppOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  log?: Logger;
  blobs?: BlobStore;
  bus?: InvalidationBus;
  keys?: KeyRing;
  /** Whether start-up has finished (database reached, migrated); until then only the probes are served.
   *  Always, when not given. */
  isReady?: () => boolean;
}

export interface App {
  express: Express;
  context: AppContext;
  /** Work to finish on shutdown (flushing counters, closing connections), in order. */
  onShutdown(hook: () => Promise<void>): void;
  shutdown(): Promise<void>;
}

export function createApp(options: AppOptions): App {
  const { config, db } = options;
  const clock = options.clock ?? systemClock;
  const log = options.log ?? pino({ level: config.logLevel });
  const bus = options.bus ?? (config.redisUrl ? createRedisBus(config.redisUrl, log) : createLocalBus());
  const keys = options.keys ?? loadKeyRing({ dataDir: config.dataDir, fixed: config.jwtSigningKey });
  const tokens = createTokenService({ keys, clock, publicUrl: config.publicUrl });
  const metrics = createMetrics(db);
  const context: AppContext = {
    config,
    db,
    clock,
    log,
    bus,
    tokens,
    blobs: options.blobs ?? createBlobStore(config),
    guard: createBearerGuard({ db, tokens, bus, clock, cacheTtlSeconds: config.authCacheTtlSeconds }),
    rateLimiter: createRateLimiter({
      perMinute: config.rateLimitPerMinute,
      redisUrl: config.redisUrl,
      keyPrefix: config.rateLimitKeyPrefix,
      log,
      onRefusal: (bucket) => metrics.rateLimitRefusals.inc({ bucket }),
    }),
    cursorKey: cursorKeyFrom(keys.current.secret),
    downloadKey: downloadSigningKey(config),
    gates: createConcurrencyGates(config.concurrency),
    keySecrets: createKeySecretThrottle(db, clock),
    usage: createUsageRecorder({ write: (deltas) => addUsage(db, deltas), log }),
    metrics,
    webhooks: createWebhookDispatcher({ db, clock, log, settings: config.webhooks }),
    caches: {
      projectOwners: new ProjectOwners(db),
      projectIndex: new ProjectIndexCache(db),
      runbook: new RunbookCache({ db, bus, clock }),
      ssoProviders: new ProviderDocuments(),
      bundleBuilds: new Map(),
      idempotencyPurge: {},
    },
    isReady: options.isReady ?? (() => true),
  };
  // Webhook attempts under way finish first; usage counts are written before the limiter's connection closes;
  // all before the bus.
  const blobSweeper = startBlobSweeper({ db, blobs: context.blobs, clock, log, settings: config.blobSweep });
  const shutdownHooks: Array<() => Promise<void>> = [
    () => blobSweeper.close(),
    () => context.webhooks.close(),
    () => context.usage.close(),
    () => context.rateLimiter.close(),
  ];

  const app = express();
  app.disable('x-powered-by');
  // Express's ETag would hash every answer, POSTs and errors included: declared GETs set their own
  // (http/etag.ts, in the route mount); static files keep theirs (serve-static: size and mtime).
  app.set('etag', false);
  app.set('trust proxy', config.trustProxy);
  app.use(requestLog(log));
  app.use(securityHeaders);
  app.use(measureRequests(metrics));
  app.use(recordUsage(context.usage));
  app.use(refuseNulInUrl);
  app.use(untilReady(context.isReady));
  app.use(compressAnswers());
  // No body is parsed app-wide: the declared routes parse theirs as each declaration says (route.ts), /mcp reads
  // its JSON-RPC, the OAuth server its forms.
  const routes = allRoutes();
  const router = express.Router();
  mountRoutes(router, context, routes);
  app.use(router);
  // People's sign-in (OAuth 2.1 authorization server) and the MCP endpoint it protects.
  const oauth = createOAuthServer(context);
  app.use(createMcpRouter(context, oauth));
  app.use(oauth.router);
  // The identity provider's SCIM 2.0 provisioning, behind the organization's SCIM token.
  app.use(createScimRouter(context));
  mountDocs(app, { routes, sections: documentedSections() }, config.publicUrl);
  // On the API port only behind its token; without one, only on METRICS_PORT's listener (server.ts).
  if (config.metricsToken) mountMetrics(app, metrics, config.metricsToken);

  app.use(notFoundHandler);
  mountErrorBodies(app, routes);
  app.use(SCIM_PATH, scimErrorHandler);
  app.use(errorHandler);

  return {
    express: app,
    context,
    onShutdown: (hook) => shutdownHooks.push(hook),
    async shutdown() {
      for (const hook of shutdownHooks) await hook();
      await bus.close();
    },
  };
}
