import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { f, startInstance } from '../../test/fixture-server.js';
import { type CallResult, type TestServer, testRedisUrl } from '../../test/harness.js';
import { describeWithRedis } from '../../test/system-tools.js';
import { createRateLimiter } from './limiter.js';

// These tests count requests, never time: each window is a minute, far longer than a test takes. Each block runs
// its own instances (their own limits and budgets) over the file's database and fixtures.
const REDIS_URL = testRedisUrl;

const expectRefused = (res: CallResult) => {
  expect(res.status).toBe(429);
  expect(res.body).toMatchObject({ errorCode: 'rate_limited', error: expect.stringMatching(/^Rate limit exceeded/) });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(res.headers.get('ratelimit-remaining')).toBe('0');
};

/** The token endpoint refuses in OAuth's shape (RFC 6749 §5.2), with the same headers. */
const expectTokenRefused = (res: CallResult) => {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({
    error: 'too_many_requests',
    error_description: expect.stringMatching(/^Rate limit exceeded/),
  });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
};

const exchange = (server: TestServer, clientId: string, secret: string) =>
  server.call('/v1/oauth/token', { method: 'POST', json: { client_id: clientId, client_secret: secret } });

describe('rate limits in one process', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startInstance({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });

  it('counts each caller’s requests, with headers on every answer, and refuses the excess with 429', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const remaining: (string | null)[] = [];
    for (const path of [`/v1/organization/${f.orgA.id}`, `/v1/organization/${f.orgB.id}`, '/v1/client/me']) {
      const res = await server.call(path, { token: key.token });
      expect(res.status).not.toBe(429);
      expect(res.headers.get('ratelimit-limit')).toBe('3');
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      remaining.push(res.headers.get('ratelimit-remaining'));
    }
    // The 403 for organization B counted too.
    expect(remaining).toEqual(['2', '1', '0']);
    expectRefused(await server.call(`/v1/organization/${f.orgA.id}`, { token: key.token }));

    const other = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const res = await server.call(`/v1/organization/${f.orgA.id}`, { token: other.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe('2');
  });

  it('limits signed-in people per person too', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await server.call(`/v1/organization/${f.orgA.id}`, { token: f.member.token })).status).toBe(200);
    }
    expectRefused(await server.call(`/v1/organization/${f.orgA.id}`, { token: f.member.token }));
  });
});

describe('rate limits of the token endpoint', () => {
  let server: TestServer;
  beforeAll(async () => {
    // 20 per minute per IP; a tenth of that, 2, per client_id from one address.
    server = await startInstance({ env: { RATE_LIMIT_PER_MINUTE: '20' } });
  });

  it('limits exchanges per client_id from one address, then per source address', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const first = await exchange(server, key.clientId, key.secret);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect((await exchange(server, key.clientId, 'wrong-guess')).status).toBe(401);
    expectTokenRefused(await exchange(server, key.clientId, key.secret));

    // Three attempts so far from this address; guesses at other client_ids use up the rest of its 20.
    for (let i = 0; i < 17; i++) {
      const res = await exchange(server, randomUUID(), 'guess');
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
    }
    expectTokenRefused(await exchange(server, randomUUID(), 'guess'));
  });
});

describeWithRedis('rate limits shared through Redis', () => {
  let one: TestServer;
  let two: TestServer;
  beforeAll(async () => {
    const env = { REDIS_URL, RATE_LIMIT_PER_MINUTE: '5', RATE_LIMIT_KEY_PREFIX: `test:${randomUUID()}:` };
    one = await startInstance({ env });
    two = await startInstance({ env });
    await Promise.all([one.app.context.rateLimiter.ready(), two.app.context.rateLimiter.ready()]);
  });

  it('refuses the N+1th request across two instances with 429 and Retry-After', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const remaining: (string | null)[] = [];
    for (const server of [one, two, one, two, one]) {
      const res = await server.call(`/v1/organization/${f.orgA.id}`, { token: key.token });
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    expectRefused(await two.call(`/v1/organization/${f.orgA.id}`, { token: key.token }));
    expectRefused(await one.call(`/v1/organization/${f.orgA.id}`, { token: key.token }));
  });

  it('stops a key disabled on one instance on the other as well', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    expect((await two.call('/v1/client/me', { token: key.token })).status).toBe(200);
    const patched = await one.call(`/v1/admin/clients/${key.id}`, {
      method: 'PATCH',
      token: f.staff.token,
      json: { enabled: false },
    });
    expect(patched.status).toBe(200);
    // Pub/sub delivery is asynchronous: wait for it, do not time it.
    await expect.poll(async () => (await two.call('/v1/client/me', { token: key.token })).status).toBe(401);
  });
});

describe('rate limits while Redis is unreachable', () => {
  let server: TestServer;
  beforeAll(async () => {
    // Nothing listens on port 1: every Redis command fails at once.
    server = await startInstance({ env: { REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_PER_MINUTE: '3' } });
  });

  it('keeps serving, counting in-process (never a 500)', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    for (const expected of ['2', '1', '0']) {
      const res = await server.call(`/v1/organization/${f.orgA.id}`, { token: key.token });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-remaining')).toBe(expected);
    }
    expectRefused(await server.call(`/v1/organization/${f.orgA.id}`, { token: key.token }));
  });
});

describe('the limiter itself while Redis is unreachable', () => {
  it('logs the fall-back once and still enforces the limit in-process', async () => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
    const limiter = createRateLimiter({ perMinute: 2, redisUrl: 'redis://127.0.0.1:1', keyPrefix: 'unit:', log });
    try {
      await expect.poll(() => lines.some((l) => l.includes('Redis unavailable'))).toBe(true);
      const decisions = [];
      for (let i = 0; i < 3; i++) decisions.push(await limiter.consume('api', 'client:abc'));
      expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      expect(lines.filter((l) => l.includes('Redis unavailable'))).toHaveLength(1);
    } finally {
      await limiter.close();
    }
  });
});
