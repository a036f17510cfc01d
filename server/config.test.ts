import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('config', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      redisUrl: undefined,
      logLevel: 'info',
      rateLimitPerMinute: 600,
    });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it('derives PUBLIC_URL from PORT and strips a trailing slash', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PUBLIC_URL: 'https://files.example.org/' }).publicUrl).toBe('https://files.example.org');
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PUBLIC_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://localhost/x'],
    ['REDIS_URL', 'http://localhost:6379'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['MCP_ALLOWED_ORIGINS', 'https://app.example.com/path'],
    ['MCP_ALLOWED_ORIGINS', 'https://ok.example.com, not an origin'],
    ['MCP_ALLOWED_ORIGINS', 'ftp://files.example.com'],
    ['S3_ENDPOINT', 'minio:9000'],
    ['S3_FORCE_PATH_STYLE', 'yes'],
  ])('rejects %s=%s with one line naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      const message = (err as Error).message;
      expect(message.startsWith(`Invalid configuration: ${name}=`)).toBe(true);
      expect(message).not.toContain('\n');
    }
  });

  it('reads MCP_ALLOWED_ORIGINS as a list of serialized origins (none by default)', () => {
    expect(loadConfig({}).mcpAllowedOrigins).toEqual([]);
    expect(
      loadConfig({ MCP_ALLOWED_ORIGINS: 'https://Inspector.Example.com/, http://localhost:6274' }).mcpAllowedOrigins,
    ).toEqual(['https://inspector.example.com', 'http://localhost:6274']);
  });

  it('reads the budgets per caller (issue 28) with their documented defaults', () => {
    const config = loadConfig({});
    expect(config.pool).toEqual({
      max: 10,
      waitMs: 5000,
      statementTimeoutMs: 30_000,
      idleInTransactionTimeoutMs: 60_000,
    });
    expect(config.concurrency).toEqual({
      export: { perClient: 2 },
      explorer: { perClient: 2, total: 4 },
      filing: { perClient: 2, total: 2, waitMs: 30_000, aloneFromBytes: 8 * 1024 * 1024 },
    });
    expect(config.http).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 120_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 1000,
      maxConnectionsPerAddress: 100,
    });
    expect(loadConfig({ DATABASE_POOL_MAX: '25', EXPORTS_PER_CLIENT: '1' })).toMatchObject({
      pool: { max: 25 },
      concurrency: { export: { perClient: 1 } },
    });
    expect(() => loadConfig({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX="0"/);
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    );
  });

  it('gives one address a tenth of the sockets unless told, and never more than all of them', () => {
    expect(loadConfig({ HTTP_MAX_CONNECTIONS: '55' }).http.maxConnectionsPerAddress).toBe(6);
    expect(
      loadConfig({ HTTP_MAX_CONNECTIONS: '50', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '50' }).http.maxConnectionsPerAddress,
    ).toBe(50);
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS: '50', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '51' })).toThrow(
      /HTTP_MAX_CONNECTIONS_PER_ADDRESS must not exceed HTTP_MAX_CONNECTIONS/,
    );
  });

  it("keeps one caller's explorer share below the instance's, so a second caller always has a slot", () => {
    expect(() => loadConfig({ EXPLORER_QUERIES_PER_CLIENT: '4', EXPLORER_QUERIES_MAX: '4' })).toThrow(
      /EXPLORER_QUERIES_PER_CLIENT must be less than EXPLORER_QUERIES_MAX/,
    );
    expect(loadConfig({ EXPLORER_QUERIES_PER_CLIENT: '1', EXPLORER_QUERIES_MAX: '2' }).concurrency.explorer).toEqual({
      perClient: 1,
      total: 2,
    });
  });

  it("asks the system's DNS resolvers for SSO domain records unless SSO_DNS_SERVERS names others", () => {
    expect(loadConfig({}).sso.dnsServers).toBeUndefined();
    expect(loadConfig({ SSO_DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[2606:4700::1111]:53' }).sso.dnsServers).toEqual([
      '1.1.1.1',
      '127.0.0.1:5353',
      '[2606:4700::1111]:53',
    ]);
    for (const bad of ['dns.example.com', '127.0.0.1:0', '1.1.1.1:99999']) {
      expect(() => loadConfig({ SSO_DNS_SERVERS: bad })).toThrow(
        `Invalid configuration: SSO_DNS_SERVERS=${JSON.stringify(bad)} must be comma-separated IP addresses, each with an optional :port`,
      );
    }
  });

  it('rejects a signing key shorter than 32 characters', () => {
    expect(() => loadConfig({ JWT_SIGNING_KEY: 'short' })).toThrow(/JWT_SIGNING_KEY/);
  });

  it('reads SECRETS_KEYS as base64 keys of 32 bytes in order (none by default), and names a bad one', () => {
    expect(loadConfig({}).secretsKeys).toEqual([]);
    const a = Buffer.alloc(32, 1);
    const b = Buffer.alloc(32, 2);
    const keys = loadConfig({ SECRETS_KEYS: ` ${b.toString('base64')}, ${a.toString('base64')} ` }).secretsKeys;
    expect(keys).toEqual([b, a]);
    expect(() => loadConfig({ SECRETS_KEYS: `${a.toString('base64')},c2hvcnQ=` })).toThrow(
      /^Invalid configuration: SECRETS_KEYS=.* must be base64 keys of 32 bytes, comma-separated/,
    );
  });

  it('requires the signing key on PostgreSQL, where instances on other machines must verify each other', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/sitefile' })).toThrow(
      /^Invalid configuration: JWT_SIGNING_KEY is required with DATABASE_URL/,
    );
    const key = 'k'.repeat(32);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/sitefile', JWT_SIGNING_KEY: key }).jwtSigningKey?.secret).toBe(
      key,
    );
  });

  it('keeps blobs on disk unless S3_BUCKET names a bucket', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: 'files' }).s3).toEqual({
      bucket: 'files',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
    });
    expect(
      loadConfig({
        S3_BUCKET: 'files',
        S3_ENDPOINT: 'http://minio:9000',
        S3_REGION: 'eu-central-1',
        S3_FORCE_PATH_STYLE: 'true',
      }).s3,
    ).toEqual({ bucket: 'files', endpoint: 'http://minio:9000', region: 'eu-central-1', forcePathStyle: true });
  });

  it('deletes unreferenced blobs 72 hours after their release by default, looking every 15 minutes', () => {
    expect(loadConfig({}).blobSweep).toEqual({ graceMs: 72 * 3_600_000, intervalMs: 900_000 });
    expect(loadConfig({ BLOB_SWEEP_GRACE_HOURS: '0.5', BLOB_SWEEP_INTERVAL_SECONDS: '60' }).blobSweep).toEqual({
      graceMs: 1_800_000,
      intervalMs: 60_000,
    });
    expect(() => loadConfig({ BLOB_SWEEP_GRACE_HOURS: '-1' })).toThrow(/BLOB_SWEEP_GRACE_HOURS/);
    expect(() => loadConfig({ BLOB_SWEEP_INTERVAL_SECONDS: '0' })).toThrow(/BLOB_SWEEP_INTERVAL_SECONDS/);
  });
});
