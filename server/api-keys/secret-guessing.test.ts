import { describe, expect, it } from 'vitest';
import { configureFixtureServer, f, server } from '../../test/fixture-server.js';
import { KEY_PAIR_FREE_FAILURES } from './service.js';

configureFixtureServer({ env: { RATE_LIMIT_PER_MINUTE: '100' } });

// Wrong secrets for a key's client_id slow down the address that gives them, never the key's right secret. At a
// rate limit near the default (100 a minute: 10 exchanges per key), whose per-key budget the rule this replaces let
// strangers spend.

const exchange = (clientId: string, secret: string, from: string) =>
  server.call('/v1/oauth/token', {
    method: 'POST',
    json: { client_id: clientId, client_secret: secret },
    headers: { 'x-forwarded-for': from },
  });

describe('wrong key secrets', () => {
  it("strangers' wrong secrets, however many, never block the key's right secret", async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    for (let stranger = 1; stranger <= 20; stranger++) {
      for (let i = 0; i < KEY_PAIR_FREE_FAILURES + 2; i++) {
        const res = await exchange(key.clientId, `sfs_wrong-${i}`, `198.51.100.${stranger}`);
        expect([401, 429]).toContain(res.status);
      }
    }
    const owner = await exchange(key.clientId, key.secret, '203.0.113.20');
    expect(owner.status).toBe(200);
    expect(owner.body.access_token).toBeTruthy();
  });

  it(`one address: after ${KEY_PAIR_FREE_FAILURES} wrong secrets it waits, longer each time; the waits end`, async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const from = '198.51.100.77';
    for (let i = 0; i < KEY_PAIR_FREE_FAILURES; i++) {
      const res = await exchange(key.clientId, 'sfs_wrong', from);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
    }
    const held = await exchange(key.clientId, key.secret, from);
    expect(held.status).toBe(429);
    expect(held.headers.get('retry-after')).toBe('1');
    expect(held.body).toEqual({
      error: 'too_many_requests',
      error_description: expect.stringContaining('retry after 1 seconds'),
    });
    server.clock.advance(1000);
    expect((await exchange(key.clientId, 'sfs_wrong', from)).status).toBe(401);
    expect((await exchange(key.clientId, key.secret, from)).headers.get('retry-after')).toBe('2');
    server.clock.advance(2000);
    expect((await exchange(key.clientId, key.secret, from)).status).toBe(200);
    // Another key from the same address is not held up.
    const other = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    expect((await exchange(other.clientId, other.secret, from)).status).toBe(200);
  });
});
