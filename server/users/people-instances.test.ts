import { describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness.js';
import { twoInstancesWithRedis } from '../../test/redis-server.js';
import { describeNeeds } from '../../test/system-tools.js';
import { createUser } from './service.js';

// Two instances sharing one database and a Redis of this test's own. The cached authorization lives a minute
// and the clock never moves: a change can only reach the other instance through the bus.
describeNeeds(['redis-server'], 'people across two instances sharing a Redis', () => {
  const t = twoInstancesWithRedis({ authCacheTtlSeconds: 60, name: 'people-test' });

  let count = 0;
  const person = async (role: 'admin' | 'member') => {
    count += 1;
    const made = await createUser(t.database.db, {
      email: `two-${count}@harbor.test`,
      name: `Two ${count}`,
      memberships: [{ orgId: t.f.orgA.id, role }],
    });
    return { id: made.id, token: t.f.userToken(made.id) };
  };

  const status = async (
    server: TestServer,
    path: string,
    token: string,
    init: { method?: string; json?: unknown } = {},
  ) => (await server.call(path, { token, ...init })).status;

  describe('a change to a person made on one instance holds on the other from the next request', () => {
    it('disabled on A: refused on B; enabled on A: served on B', async () => {
      const pat = await person('member');
      expect(await status(t.b, '/v1/me', pat.token)).toBe(200);
      expect(
        await status(t.a, `/v1/admin/users/${pat.id}`, t.f.staff.token, { method: 'PATCH', json: { disabled: true } }),
      ).toBe(200);
      expect(await status(t.b, '/v1/me', pat.token)).toBe(401);
      expect(
        await status(t.a, `/v1/admin/users/${pat.id}`, t.f.staff.token, { method: 'PATCH', json: { disabled: false } }),
      ).toBe(200);
      expect(await status(t.b, '/v1/me', pat.token)).toBe(200);
    });

    it('membership removed on A: the organization is out of reach on B', async () => {
      const pat = await person('member');
      const org = `/v1/organization/${t.f.orgA.id}`;
      expect(await status(t.b, org, pat.token)).toBe(200);
      expect(await status(t.a, `${org}/members/${pat.id}`, t.f.admin.token, { method: 'DELETE' })).toBe(204);
      expect(await status(t.b, org, pat.token)).toBe(403);
    });

    it("role changed on A: B grants and withdraws the admin's rights at once", async () => {
      const pat = await person('member');
      const settings = `/v1/organization/${t.f.orgA.id}/email-filing-settings`;
      const change = { method: 'PATCH', json: { aiSuggest: false } };
      expect(await status(t.b, settings, pat.token, change)).toBe(403);
      const member = `/v1/organization/${t.f.orgA.id}/members/${pat.id}`;
      expect(await status(t.a, member, t.f.admin.token, { method: 'PATCH', json: { role: 'admin' } })).toBe(200);
      expect(await status(t.b, settings, pat.token, change)).toBe(200);
      expect(await status(t.a, member, t.f.admin.token, { method: 'PATCH', json: { role: 'member' } })).toBe(200);
      expect(await status(t.b, settings, pat.token, change)).toBe(403);
    });
  });
});
