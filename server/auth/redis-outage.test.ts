import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Fixtures, TestServer } from '../../test/harness.js';
import { killHard, startRedis } from '../../test/redis-server.js';
import { describeNeeds } from '../../test/system-tools.js';
import { startTwoInstances, type TwoInstances } from '../../test/two-instances.js';
import { ManualClock } from '../clock.js';
import { addinSignIn, oauthForm } from '../oauth/browser.fixtures.js';
import { ADDIN_CLIENT_ID } from '../oauth/first-party.js';

// Two instances sharing one database and a Redis of this test's own (own port, own process), which the
// test kills with SIGKILL and starts again: invalidations published while it is down are lost.
const TTL_SECONDS = 5;

const clock = new ManualClock();
let pair: TwoInstances;
let a: TestServer;
let b: TestServer;
let f: Fixtures;

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

describeNeeds(['redis-server'], 'a missed invalidation heals (two instances, Redis killed and restarted)', () => {
  beforeAll(async () => {
    pair = await startTwoInstances({ clock, env: { AUTH_CACHE_TTL_SECONDS: String(TTL_SECONDS) } });
    ({ a, b, f } = pair);
  });
  afterAll(() => pair?.close());

  it('with Redis up, a key disabled on one instance is refused on the other at once', async () => {
    const key = await keyToken();
    expect(await status(b, '/v1/client/me', key.token)).toBe(200);
    await disableKey(key.id);
    expect(await status(b, '/v1/client/me', key.token)).toBe(401);
  });

  it(`a key disabled while Redis is down stops working on the other instance within the TTL (${TTL_SECONDS} s)`, async () => {
    const key = await keyToken();
    expect(await status(b, '/v1/client/me', key.token)).toBe(200);
    await killHard(pair.redis);
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
    pair.redis = await startRedis(pair.redisPort);
    await reconnected(b);
    expect(await status(b, '/v1/client/me', key.token)).toBe(200);
    expect(await status(b, '/v1/me', addin.access_token)).toBe(200);

    await killHard(pair.redis);
    await disableKey(key.id);
    const revoked = await oauthForm(a, '/oauth/revoke', { token: addin.refresh_token, client_id: ADDIN_CLIENT_ID });
    expect(revoked.status).toBe(200);
    expect(await status(a, '/v1/me', addin.access_token)).toBe(401);
    expect(await status(b, '/v1/client/me', key.token)).toBe(200);
    expect(await status(b, '/v1/me', addin.access_token)).toBe(200);

    const back = reconnected(b);
    pair.redis = await startRedis(pair.redisPort);
    await back;
    expect(await status(b, '/v1/client/me', key.token)).toBe(401);
    expect(await status(b, '/v1/me', addin.access_token)).toBe(401);
  });
});
