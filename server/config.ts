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
  AI_BASE_URL: optionalUrl(/^https?$/),
  AI_API_KEY: optionalString,
  AI_MODEL: optionalString,
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: z.preprocess(emptyAsUndefined, z.enum(['0', '1']).default('0')),
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
  ai: { baseUrl: string; apiKey: string | undefined; model: string } | undefined;
  webhooks: {
    /** Deliver to loopback, private and link-local addresses too (development and tests only). */
    allowPrivateNetworks: boolean;
    /** How long one delivery attempt may wait for the receiver's answer. */
    timeoutMs: number;
    /** The wait before each retry after a failed attempt; the delivery fails when they are used up. */
    retryDelaysMs: number[];
  };
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
    ai: e.AI_BASE_URL && e.AI_MODEL ? { baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY, model: e.AI_MODEL } : undefined,
    webhooks: {
      allowPrivateNetworks: e.WEBHOOK_ALLOW_PRIVATE_NETWORKS === '1',
      timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
      retryDelaysMs: e.WEBHOOK_RETRY_SCHEDULE_SECONDS.map((seconds) => seconds * 1000),
    },
  };
}
