import { afterEach, describe, expect, it } from 'vitest';
import { createFixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { KEY_PAIR_FREE_FAILURES } from '../api-keys/service.js';

// Behind a load balancer (issue 40): TRUST_PROXY says whose X-Forwarded-For to believe, HOST and METRICS_HOST
// which address each listener binds. Loopback's 127.0.0.0/8 gives distinct local addresses to bind.

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const reaches = (url: string) =>
  fetch(url).then(
    (res) => res.status,
    () => 'refused' as const,
  );

describe('HOST and METRICS_HOST', () => {
  it('bind the API and the metrics listener to the addresses given, and no other', async () => {
    server = await startTestServer({ env: { HOST: '127.0.0.2', METRICS_PORT: '0', METRICS_HOST: '127.0.0.3' } });
    const apiPort = new URL(server.url).port;
    const metricsPort = new URL(server.metricsUrl!).port;
    expect(await reaches(`http://127.0.0.2:${apiPort}/healthz`)).toBe(200);
    expect(await reaches(`http://127.0.0.1:${apiPort}/healthz`)).toBe('refused');
    expect(await reaches(`http://127.0.0.3:${metricsPort}/metrics`)).toBe(200);
    expect(await reaches(`http://127.0.0.2:${metricsPort}/metrics`)).toBe('refused');
  });

  it('refuses a HOST that is not an address', async () => {
    await expect(startTestServer({ env: { HOST: 'every-interface' } })).rejects.toThrow(/HOST="every-interface"/);
  });
});

describe('TRUST_PROXY', () => {
  /** Wrong secrets for one key "from" one forwarded address, then its right secret from another. */
  async function rightSecretAfterStrangersGuess(env: Record<string, string>) {
    server = await startTestServer({ env });
    const f = await createFixtures(server);
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const exchange = (secret: string, from: string) =>
      server!.call('/v1/oauth/token', {
        method: 'POST',
        json: { client_id: key.clientId, client_secret: secret },
        headers: { 'x-forwarded-for': from },
      });
    for (let i = 0; i < KEY_PAIR_FREE_FAILURES; i++) await exchange('sfs_wrong', '198.51.100.7');
    return (await exchange(key.secret, '203.0.113.20')).status;
  }

  it('believes X-Forwarded-For from the proxies it names: two clients behind one balancer are two addresses', async () => {
    expect(await rightSecretAfterStrangersGuess({ TRUST_PROXY: '127.0.0.0/8' })).toBe(200);
  });

  it('ignores X-Forwarded-For from a peer it does not name: the peer is the one address', async () => {
    expect(await rightSecretAfterStrangersGuess({ TRUST_PROXY: '10.0.0.0/8' })).toBe(429);
  });

  it('refuses a value that is neither a hop count nor addresses', async () => {
    await expect(startTestServer({ env: { TRUST_PROXY: 'the balancer' } })).rejects.toThrow(/TRUST_PROXY/);
  });
});
