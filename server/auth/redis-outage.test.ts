import { expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { killHard, startRedis, twoInstancesWithRedis } from '../../test/redis-server.js';
import { describeNeeds } from '../../test/system-tools.js';
import { addinSignIn, oauthForm } from '../oauth/browser.fixtures.js';
import { ADDIN_CLIENT_ID } from '../oauth/first-party.js';

// Two instances sharing one database and a Redis of this test's own (own port, own process), which the
// test kills with SIGKILL and starts again: invalidations published while it is down are lost.
const TTL_SECONDS = 5;

const keyToken = async () => {
  const key = await t.f.client(['client:read'], { orgs: [t.f.orgA.id] });
  const res = await t.a.call('/v1/oauth/token', {
    method: 'POST',
    json: { client_id: key.clientId, client_secret: key.secret },
  });
  return { id: key.id, token: res.body.access_token as string };
};

const disableKey = async (id: string) => {
  const res = await t.a.call(`/v1/admin/clients/${id}`, {
    method: 'PATCH',
    token: t.f.staff.token,
    json: { enabled: false },
  });
  expect(res.status).toBe(200);
};

const status = async (server: TestServer, path: string, token: string) => (await server.call(path, { token })).status;

const reconnected = (server: TestServer) => new Promise<void>((resolve) => server.app.context.bus.onReconnect(resolve));

let t: ReturnType<typeof twoInstancesWithRedis>;

describeNeeds(['redis-server'], 'a missed invalidation heals (two instances, Redis killed and restarted)', () => {
  t = twoInstancesWithRedis({ authCacheTtlSeconds: TTL_SECONDS, name: 'outage-test' });

  it('with Redis up, a key disabled on one instance is refused on the other at once', async () => {
    const key = await keyToken();
    expect(await status(t.b, '/v1/client/me', key.token)).toBe(200);
    await disableKey(key.id);
    expect(await status(t.b, '/v1/client/me', key.token)).toBe(401);
  });

  it(`a key disabled while Redis is down stops working on the other instance within the TTL (${TTL_SECONDS} s)`, async () => {
    const key = await keyToken();
    expect(await status(t.b, '/v1/client/me', key.token)).toBe(200);
    await killHard(t.redis);
    await disableKey(key.id);
    expect(await status(t.a, '/v1/client/me', key.token)).toBe(401);
    // B never heard of it: its cached entry still answers, but only until the TTL runs out.
    expect(await status(t.b, '/v1/client/me', key.token)).toBe(200);
    t.clock.advance(TTL_SECONDS * 1000);
    expect(await status(t.b, '/v1/client/me', key.token)).toBe(401);
  });

  it('a key disabled and a sign-in revoked while Redis is down are refused as soon as the bus reconnects', async () => {
    const key = await keyToken();
    const addin = await addinSignIn(t.a, { email: 'member@harbor.test', password: 'member-pass-1' });
    t.redis = await startRedis(t.redisPort);
    await reconnected(t.b);
    expect(await status(t.b, '/v1/client/me', key.token)).toBe(200);
    expect(await status(t.b, '/v1/me', addin.access_token)).toBe(200);

    await killHard(t.redis);
    await disableKey(key.id);
    const revoked = await oauthForm(t.a, '/oauth/revoke', { token: addin.refresh_token, client_id: ADDIN_CLIENT_ID });
    expect(revoked.status).toBe(200);
    expect(await status(t.a, '/v1/me', addin.access_token)).toBe(401);
    expect(await status(t.b, '/v1/client/me', key.token)).toBe(200);
    expect(await status(t.b, '/v1/me', addin.access_token)).toBe(200);

    const back = reconnected(t.b);
    t.redis = await startRedis(t.redisPort);
    await back;
    expect(await status(t.b, '/v1/client/me', key.token)).toBe(401);
    expect(await status(t.b, '/v1/me', addin.access_token)).toBe(401);
  });
});
