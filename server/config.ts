import path from 'node:path';
import { z } from 'zod';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = (protocols: RegExp) =>
  z.preprocess(emptyAsUndefined, z.url({ protocol: protocols, error: 'must be a URL' }).optional());

/** `https://app.example.com` (a trailing slash is tolerated) → its serialized origin; anything else fails. */
const originOf = (value: string): string | undefined => {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const bare = url && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  return bare && /^https?:$/.test(url.protocol) ? url.origin : undefined;
};
const originList = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : [],
  z.array(
    z
      .string()
      .refine((item) => originOf(item) !== undefined, {
        error: 'must be comma-separated origins such as https://app.example.com',
      })
      .transform((item) => originOf(item)!),
  ),
);

const count = (fallback: number, max: number) =>
  z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(max).default(fallback));
const millis = (fallback: number, min: number, max: number) =>
  z.preprocess(emptyAsUndefined, z.coerce.number().int().min(min).max(max).default(fallback));

const envSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  PUBLIC_URL: optionalUrl(/^https?$/),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./.data')),
  DATABASE_URL: optionalUrl(/^postgres(ql)?$/),
  REDIS_URL: optionalUrl(/^rediss?$/),
  LOG_LEVEL: z.preprocess(emptyAsUndefined, z.enum(logLevels).default('info')),
  RATE_LIMIT_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000).default(600)),
  RATE_LIMIT_KEY_PREFIX: z.preprocess(emptyAsUndefined, z.string().max(100).default('sitefile:rl:')),
  SIGNED_URL_TTL_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(10).max(86_400).default(900)),
  AUTH_CACHE_TTL_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(60).default(30)),
  JWT_SIGNING_KEY: optionalString,
  JWT_SIGNING_KEY_ID: optionalString,
  MCP_ALLOWED_ORIGINS: originList,
  EXPLORER_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(300_000).default(5000)),
  EXPLORER_QUERIES_PER_CLIENT: count(2, 100),
  EXPLORER_QUERIES_MAX: count(2, 1000),
  DATABASE_POOL_MAX: count(10, 1000),
  DATABASE_POOL_WAIT_MS: millis(5000, 100, 300_000),
  DATABASE_STATEMENT_TIMEOUT_MS: millis(30_000, 100, 3_600_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: millis(60_000, 100, 3_600_000),
  EXPORTS_PER_CLIENT: count(2, 100),
  EXPORT_STALL_TIMEOUT_MS: millis(30_000, 100, 3_600_000),
  FILINGS_PER_CLIENT: count(2, 100),
  FILINGS_MAX: count(2, 1000),
  FILING_QUEUE_WAIT_MS: millis(30_000, 0, 300_000),
  HTTP_HEADERS_TIMEOUT_MS: millis(10_000, 100, 300_000),
  HTTP_REQUEST_TIMEOUT_MS: millis(120_000, 100, 3_600_000),
  HTTP_MAX_CONNECTIONS: count(1000, 1_000_000),
  AI_BASE_URL: optionalUrl(/^https?$/),
  AI_API_KEY: optionalString,
  AI_MODEL: optionalString,
});

/** The work a caller may only do so many of at once (server/ratelimit/concurrency.ts). */
export type ConcurrencyKind = 'export' | 'explorer' | 'filing';

/** A PostgreSQL pool's budget: connections, the wait for one, and how long a statement or an idle
 *  transaction may hold one. */
export interface PoolLimits {
  max: number;
  waitMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

/** `perClient` (by client key or person) and `total` (all callers; unset: only the per-client cap) at once;
 *  a request over either waits up to `waitMs` (unset: none) for a slot, then is refused. */
export interface ConcurrencyLimit {
  perClient: number;
  total?: number;
  waitMs?: number;
}

export type Config = {
  port: number;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  logLevel: (typeof logLevels)[number];
  rateLimitPerMinute: number;
  /** Prefix of the limiter's Redis keys: separates deployments (or test runs) sharing one Redis. */
  rateLimitKeyPrefix: string;
  signedUrlTtlSeconds: number;
  /** How long an instance trusts a cached authorization entry (caller, revoked grants) without hearing
   *  from the bus: the longest a missed invalidation (Redis outage) can go unnoticed. */
  authCacheTtlSeconds: number;
  jwtSigningKey: { id: string; secret: string } | undefined;
  /** Browser origins allowed to call /mcp besides the server's own (`MCP_ALLOWED_ORIGINS`, comma-separated). */
  mcpAllowedOrigins: string[];
  /** Longest an explorer query (REST and MCP) may run before it is stopped with a 503. */
  explorerTimeoutMs: number;
  /** What one caller — and all callers together — may run at once on this instance (issue 28). */
  concurrency: Record<ConcurrencyKind, ConcurrencyLimit>;
  /** A CSV export whose client reads nothing for this long is cut. */
  exportStallTimeoutMs: number;
  /** The PostgreSQL pool (ignored on PGlite). */
  pool: PoolLimits;
  /** Node's HTTP server: whole headers within `headersTimeout`, the whole request within `requestTimeout`,
   *  at most `maxConnections` open sockets. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; maxConnections: number };
  ai: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
};

export class ConfigError extends Error {}

/** Reads and validates the environment once; a bad value names its variable in one line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0]);
    throw new ConfigError(`Invalid configuration: ${variable}=${JSON.stringify(env[variable])} ${issue.message}`);
  }
  const e = parsed.data;
  if (e.JWT_SIGNING_KEY && e.JWT_SIGNING_KEY.length < 32) {
    throw new ConfigError('Invalid configuration: JWT_SIGNING_KEY must be at least 32 characters');
  }
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  return {
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    logLevel: e.LOG_LEVEL,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    rateLimitKeyPrefix: e.RATE_LIMIT_KEY_PREFIX,
    signedUrlTtlSeconds: e.SIGNED_URL_TTL_SECONDS,
    authCacheTtlSeconds: e.AUTH_CACHE_TTL_SECONDS,
    jwtSigningKey: e.JWT_SIGNING_KEY ? { id: e.JWT_SIGNING_KEY_ID ?? 'env', secret: e.JWT_SIGNING_KEY } : undefined,
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS,
    explorerTimeoutMs: e.EXPLORER_TIMEOUT_MS,
    concurrency: {
      export: { perClient: e.EXPORTS_PER_CLIENT },
      explorer: { perClient: e.EXPLORER_QUERIES_PER_CLIENT, total: e.EXPLORER_QUERIES_MAX },
      filing: { perClient: e.FILINGS_PER_CLIENT, total: e.FILINGS_MAX, waitMs: e.FILING_QUEUE_WAIT_MS },
    },
    exportStallTimeoutMs: e.EXPORT_STALL_TIMEOUT_MS,
    pool: {
      max: e.DATABASE_POOL_MAX,
      waitMs: e.DATABASE_POOL_WAIT_MS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      maxConnections: e.HTTP_MAX_CONNECTIONS,
    },
    ai: e.AI_BASE_URL && e.AI_MODEL ? { baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY, model: e.AI_MODEL } : undefined,
  };
}
