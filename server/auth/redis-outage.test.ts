import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFixtures,
  type Fixtures,
  freePort,
  openTestDatabase,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { killHard, startRedis } from '../../test/redis-server.js';
import { ManualClock } from '../clock.js';
import type { Database } from '../db/connection.js';
import { addinSignIn, oauthForm } from '../oauth/browser.fixtures.js';
import { ADDIN_CLIENT_ID } from '../oauth/first-party.js';

// Two instances sharing one database and a Redis of this test's own (own port, own process), which the
// test kills with SIGKILL and starts again: invalidations published while it is down are lost.
const TTL_SECONDS = 5;

let redisPort: number;
let redis: ChildProcess;
let database: Database;
const clock = new ManualClock();
let a: TestServer;
let b: TestServer;
let f: Fixtures;

beforeAll(async () => {
  redisPort = await freePort();
  redis = await startRedis(redisPort);
  database = await openTestDatabase();
  const env = {
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    AUTH_CACHE_TTL_SECONDS: String(TTL_SECONDS),
    RATE_LIMIT_KEY_PREFIX: `outage-test-${redisPort}:`,
  };
  a = await startTestServer({ database, clock, env });
  b = await startTestServer({ database, clock, env });
  f = await createFixtures(a);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await database?.close();
  if (redis) await killHard(redis);
});

const keyToken = async () => {
  const key = await f.client(['client:read'], { orgs: [f.orgA.id] });
  const res = await a.call('/v1/oauth/token', {
    method: 'POST',
    json: { client_id: key.clientId, client_secret: key.secret },
  });
  return { id: key.id, token: res.body.access_token as string };
};

const disableKey = async (id: string) => {
  const res = await a.call(`/v1/admin/clients/${id}`, {
    method: 'PATCH',
    token: f.staff.token,
    json: { enabled: false },
  });
  expect(res.status).toBe(200);
};

const status = async (server: TestServer, path: string, token: string) => (await server.call(path, { token })).status;

const reconnected = (server: TestServer) => new Promise<void>((resolve) => server.app.context.bus.onReconnect(resolve));

describe('a missed invalidation heals (two instances, Redis killed and restarted)', () => {
  it('with Redis up, a key disabled on one instance is refused on the other at once', async () => {
    const key = await keyToken();
    expect(await status(b, '/v1/client/me', key.token)).toBe(200);
    await disableKey(key.id);
    expect(await status(b, '/v1/client/me', key.token)).toBe(401);
  });

  it(`a key disabled while Redis is down stops working on the other instance within the TTL (${TTL_SECONDS} s)`, async () => {
    const key = await keyToken();
    expect(await status(b, '/v1/client/me', key.token)).toBe(200);
    await killHard(redis);
    await disableKey(key.id);
    expect(await status(a, '/v1/client/me', key.token)).toBe(401);
    // B never heard of it: its cached entry still answers, but only until the TTL runs out.
    expect(await status(b, '/v1/client/me', key.token)).toBe(200);
    clock.advance(TTL_SECONDS * 1000);
    expect(await status(b, '/v1/client/me', key.token)).toBe(401);
  });

  it('a key disabled and a sign-in revoked while Redis is down are refused as soon as the bus reconnects', async () => {
    const key = await keyToken();
    const addin = await addinSignIn(a, { email: 'member@harbor.test', password: 'member-pass-1' });
    redis = await startRedis(redisPort);
    await reconnected(b);
    expect(await status(b, '/v1/client/me', key.token)).toBe(200);
    expect(await status(b, '/v1/me', addin.access_token)).toBe(200);

    await killHard(redis);
    await disableKey(key.id);
    const revoked = await oauthForm(a, '/oauth/revoke', { token: addin.refresh_token, client_id: ADDIN_CLIENT_ID });
    expect(revoked.status).toBe(200);
    expect(await status(a, '/v1/me', addin.access_token)).toBe(401);
    expect(await status(b, '/v1/client/me', key.token)).toBe(200);
    expect(await status(b, '/v1/me', addin.access_token)).toBe(200);

    const back = reconnected(b);
    redis = await startRedis(redisPort);
    await back;
    expect(await status(b, '/v1/client/me', key.token)).toBe(401);
    expect(await status(b, '/v1/me', addin.access_token)).toBe(401);
  });
});
