import { existsSync } from 'node:fs';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
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

/** proxy-addr's names for address ranges (Express `trust proxy`). */
const proxyRanges = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (item: string) => proxyRanges.has(item) || ipaddr.isValid(item) || ipaddr.isValidCIDR(item);
/** `TRUST_PROXY`: a hop count (`1`), or comma-separated addresses, CIDR ranges and range names. */
const trustProxy = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .default('loopback')
    .transform((value): number | string[] =>
      /^\d+$/.test(value.trim()) ? Number(value) : value.split(',').map((item) => item.trim()),
    )
    .refine((value) => typeof value === 'number' || (value.length > 0 && value.every(isProxyAddress)), {
      error: 'must be a hop count, or comma-separated addresses, CIDR ranges, loopback, linklocal or uniquelocal',
    }),
);
const isHost = (value: string) => ipaddr.isValid(value) || value === 'localhost';
const hostError = { error: 'must be an IP address (0.0.0.0: every IPv4 interface, :: every interface)' };
const optionalHost = z.preprocess(emptyAsUndefined, z.string().refine(isHost, hostError).optional());

/** `SSO_DNS_SERVERS`: comma-separated resolvers (`1.1.1.1`, `10.0.0.2:5353`, `[2606:4700::1111]:53`). */
const dnsServerAddress = (item: string) => {
  const withPort = /^\[(.+)\]:(\d+)$/.exec(item) ?? /^([^:]+):(\d+)$/.exec(item);
  const port = withPort ? Number(withPort[2]) : 53;
  return ipaddr.isValid(withPort ? withPort[1]! : item) && port >= 1 && port <= 65535;
};
const dnsServers = z.preprocess(
  (value) =>
    typeof value === 'string' && value.trim() !== ''
      ? value
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : undefined,
  z
    .array(
      z
        .string()
        .refine(dnsServerAddress, { error: 'must be comma-separated IP addresses, each with an optional :port' }),
    )
    .optional(),
);

const count = (fallback: number, max: number) =>
  z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(max).default(fallback));
const millis = (fallback: number, min: number, max: number) =>
  z.preprocess(emptyAsUndefined, z.coerce.number().int().min(min).max(max).default(fallback));

const envSchema = z.object({
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyAsUndefined, z.string().refine(isHost, hostError).default('0.0.0.0')),
  TRUST_PROXY: trustProxy,
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
  SECRETS_KEYS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .optional()
      .transform((value) =>
        (value ?? '')
          .split(',')
          .map((key) => key.trim())
          .filter(Boolean),
      )
      .transform((keys) => keys.map((key) => Buffer.from(key, 'base64')))
      .refine((keys) => keys.every((key) => key.length === 32), 'must be base64 keys of 32 bytes, comma-separated'),
  ),
  MCP_ALLOWED_ORIGINS: originList,
  EXPLORER_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(300_000).default(5000)),
  EXPLORER_QUERIES_PER_CLIENT: count(2, 100),
  EXPLORER_QUERIES_MAX: count(4, 1000),
  DATABASE_POOL_MAX: count(10, 1000),
  DATABASE_POOL_WAIT_MS: millis(5000, 100, 300_000),
  DATABASE_STATEMENT_TIMEOUT_MS: millis(30_000, 100, 3_600_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: millis(60_000, 100, 3_600_000),
  EXPORTS_PER_CLIENT: count(2, 100),
  EXPORT_STALL_TIMEOUT_MS: millis(30_000, 100, 3_600_000),
  FILINGS_PER_CLIENT: count(2, 100),
  FILINGS_MAX: count(2, 1000),
  FILING_QUEUE_WAIT_MS: millis(30_000, 0, 300_000),
  FILING_ALONE_FROM_BYTES: count(8 * 1024 * 1024, 1024 * 1024 * 1024),
  HTTP_HEADERS_TIMEOUT_MS: millis(10_000, 100, 300_000),
  HTTP_REQUEST_TIMEOUT_MS: millis(120_000, 100, 3_600_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: millis(65_000, 1000, 3_600_000),
  HTTP_MAX_CONNECTIONS: count(1000, 1_000_000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(1_000_000).optional(),
  ),
  AI_BASE_URL: optionalUrl(/^https?$/),
  AI_API_KEY: optionalString,
  AI_MODEL: optionalString,
  SITEFILE_DEMO: z.preprocess(emptyAsUndefined, z.enum(['0', '1'], { error: 'must be 1 or 0' }).optional()),
  S3_BUCKET: optionalString,
  S3_ENDPOINT: optionalUrl(/^https?$/),
  S3_REGION: z.preprocess(emptyAsUndefined, z.string().default('us-east-1')),
  S3_FORCE_PATH_STYLE: z.preprocess(
    emptyAsUndefined,
    z.enum(['true', 'false'], { error: 'must be true or false' }).default('false'),
  ),
  METRICS_TOKEN: optionalString,
  METRICS_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: optionalHost,
  DATABASE_WAIT_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(3600).default(60)),
  BLOB_SWEEP_GRACE_HOURS: z.preprocess(emptyAsUndefined, z.coerce.number().min(0).max(8760).default(72)),
  BLOB_SWEEP_INTERVAL_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(86400).default(900)),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.preprocess(emptyAsUndefined, z.enum(['0', '1']).default('0')),
  SSO_ALLOW_HTTP_ISSUERS: z.preprocess(emptyAsUndefined, z.enum(['0', '1']).default('0')),
  SSO_DNS_SERVERS: dnsServers,
  WEBHOOK_TIMEOUT_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().min(1).max(60).default(15)),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .default('5,300,1800,7200,18000,36000,36000')
      .transform((value) => value.split(',').map((part) => Number(part.trim())))
      .refine((delays) => delays.length <= 20 && delays.every((d) => Number.isFinite(d) && d >= 0 && d <= 86_400), {
        error: 'must be at most 20 comma-separated delays in seconds, each from 0 to 86400',
      }),
  ),
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
  /** A request whose body is larger runs with no other of its kind on the instance. */
  aloneFromBytes?: number;
}

export type Config = {
  port: number;
  /** The address both listeners bind (`HOST`; `METRICS_HOST` for the metrics one): 0.0.0.0 by default. */
  host: string;
  /** Express's `trust proxy` (`TRUST_PROXY`): which peers' X-Forwarded-For names the client, so per-address
   *  throttles and the request log see the client, not the load balancer. Default: loopback only. */
  trustProxy: number | string[];
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
  /** With DATABASE_URL but no JWT_SIGNING_KEY: the earlier release's key file this instance signs with. */
  jwtKeyFile: string | undefined;
  /** Keys that seal stored secrets (the SSO client secret), `SECRETS_KEYS`: the first seals, any opens. Empty: the
   *  key derived from the token signing secret seals, as before the variable existed. */
  secretsKeys: Buffer[];
  /** Browser origins allowed to call /mcp besides the server's own (`MCP_ALLOWED_ORIGINS`, comma-separated). */
  mcpAllowedOrigins: string[];
  /** Longest an explorer query (REST and MCP) may run before it is stopped with a 503. */
  explorerTimeoutMs: number;
  /** What one caller — and all callers together — may run at once on this instance (issue 28). */
  concurrency: Record<ConcurrencyKind, ConcurrencyLimit>;
  /** A streamed answer (a CSV export, a file download) whose client reads nothing for this long is cut. */
  exportStallTimeoutMs: number;
  /** The PostgreSQL pool. */
  pool: PoolLimits;
  /** Node's HTTP server: whole headers within `headersTimeout`, the whole request within `requestTimeout`; an idle
   *  kept-alive socket is closed after `keepAliveTimeout`. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number } & ConnectionLimits;
  ai: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  /** `SITEFILE_DEMO`: `on` (1) seeds and shows the demo, `off` (0) never; `auto` (unset) only on an embedded
   *  database that is empty or holds the demo. */
  demo: 'auto' | 'on' | 'off';
  /** Where blobs are kept when not in `DATA_DIR/blobs`: an S3-compatible bucket (credentials by the AWS SDK's
   *  default chain). */
  s3: S3Config | undefined;
  /** `/metrics` on the API port to `Authorization: Bearer <metricsToken>`; on `metricsPort` (a listener of its
   *  own, for the operator's network only) to anyone, or to the token when both are set. Neither: not served. */
  metricsToken: string | undefined;
  metricsPort: number | undefined;
  metricsHost: string;
  /** How long start-up keeps retrying a database it cannot reach before it gives up (`/readyz` is 503 meanwhile). */
  databaseWaitSeconds: number;
  /** Deleting blobs nothing refers to any more (blobs/sweep.ts). */
  blobSweep: {
    /** How long after its last reference went a blob is kept (an undo, a download under way, a filing storing it). */
    graceMs: number;
    /** How often an instance looks for blobs whose grace period has passed. */
    intervalMs: number;
  };
  webhooks: {
    /** Deliver to loopback, private and link-local addresses too (development and tests only). */
    allowPrivateNetworks: boolean;
    /** How long one delivery attempt may wait for the receiver's answer. */
    timeoutMs: number;
    /** The wait before each retry after a failed attempt; the delivery fails when they are used up. */
    retryDelaysMs: number[];
  };
  sso: {
    /** Accept identity providers at http:// addresses (development and tests only: real ones are https). */
    allowHttpIssuers: boolean;
    /** The resolvers asked for a domain's `_sitefile-challenge` TXT record (`SSO_DNS_SERVERS`); unset: the
     *  system's (/etc/resolv.conf). */
    dnsServers: string[] | undefined;
  };
};

export interface S3Config {
  bucket: string;
  /** Unset for AWS itself; MinIO, Ceph, R2… give theirs. */
  endpoint: string | undefined;
  region: string;
  forcePathStyle: boolean;
}

/** The sockets an instance keeps open (http/connection-limits.ts says how a newcomer past them is handled). */
export interface ConnectionLimits {
  maxConnections: number;
  /** Of them, from one address (an IPv6 address's /64). */
  maxConnectionsPerAddress: number;
}

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
  // One caller must not fill the instance's explorer slots: a second caller always finds one (issue 36).
  if (e.EXPLORER_QUERIES_PER_CLIENT >= e.EXPLORER_QUERIES_MAX) {
    throw new ConfigError('Invalid configuration: EXPLORER_QUERIES_PER_CLIENT must be less than EXPLORER_QUERIES_MAX');
  }
  if ((e.HTTP_MAX_CONNECTIONS_PER_ADDRESS ?? 0) > e.HTTP_MAX_CONNECTIONS) {
    throw new ConfigError(
      'Invalid configuration: HTTP_MAX_CONNECTIONS_PER_ADDRESS must not exceed HTTP_MAX_CONNECTIONS',
    );
  }
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError('Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  // Instances on one PostgreSQL must verify each other's tokens and signed URLs: a key per DATA_DIR would not do.
  // An earlier release kept its key in DATA_DIR/keys/jwt.json: an upgraded deployment goes on signing with it,
  // so its tokens, cursors and signed links stay good (main.ts says to set JWT_SIGNING_KEY before a second
  // instance joins).
  const keyFile = path.join(path.resolve(e.DATA_DIR), 'keys', 'jwt.json');
  const keyFromDataDir = Boolean(e.DATABASE_URL && !e.JWT_SIGNING_KEY && existsSync(keyFile));
  if (e.DATABASE_URL && !e.JWT_SIGNING_KEY && !keyFromDataDir) {
    throw new ConfigError(
      'Invalid configuration: JWT_SIGNING_KEY is required with DATABASE_URL (every instance must sign with the same key)',
    );
  }
  if (e.METRICS_TOKEN && e.METRICS_TOKEN.length < 16) {
    throw new ConfigError('Invalid configuration: METRICS_TOKEN must be at least 16 characters');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    trustProxy: e.TRUST_PROXY,
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
    jwtKeyFile: keyFromDataDir ? keyFile : undefined,
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS,
    explorerTimeoutMs: e.EXPLORER_TIMEOUT_MS,
    concurrency: {
      export: { perClient: e.EXPORTS_PER_CLIENT },
      explorer: { perClient: e.EXPLORER_QUERIES_PER_CLIENT, total: e.EXPLORER_QUERIES_MAX },
      filing: {
        perClient: e.FILINGS_PER_CLIENT,
        total: e.FILINGS_MAX,
        waitMs: e.FILING_QUEUE_WAIT_MS,
        aloneFromBytes: e.FILING_ALONE_FROM_BYTES,
      },
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
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.HTTP_MAX_CONNECTIONS,
      // A tenth of the instance's sockets by default: ten addresses, not one, are needed to fill it.
      maxConnectionsPerAddress: e.HTTP_MAX_CONNECTIONS_PER_ADDRESS ?? Math.ceil(e.HTTP_MAX_CONNECTIONS / 10),
    },
    ai: e.AI_BASE_URL && e.AI_MODEL ? { baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY, model: e.AI_MODEL } : undefined,
    demo: e.SITEFILE_DEMO === undefined ? 'auto' : e.SITEFILE_DEMO === '1' ? 'on' : 'off',
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT,
          region: e.S3_REGION,
          forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
        }
      : undefined,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST ?? e.HOST,
    databaseWaitSeconds: e.DATABASE_WAIT_SECONDS,
    blobSweep: { graceMs: e.BLOB_SWEEP_GRACE_HOURS * 3_600_000, intervalMs: e.BLOB_SWEEP_INTERVAL_SECONDS * 1000 },
    webhooks: {
      allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS === '1',
      timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
      retryDelaysMs: e.WEBHOOK_RETRY_SCHEDULE_SECONDS.map((seconds) => seconds * 1000),
    },
    sso: { allowHttpIssuers: e.SSO_ALLOW_HTTP_ISSUERS === '1', dnsServers: e.SSO_DNS_SERVERS },
    secretsKeys: e.SECRETS_KEYS,
  };
}
