import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Fixtures, TestServer } from '../../test/harness.js';
import { describeNeeds } from '../../test/system-tools.js';
import { startTwoInstances, type TwoInstances } from '../../test/two-instances.js';
import { ManualClock } from '../clock.js';
import { entra, okta } from './scim.fixtures.js';

// Two instances sharing one database and a Redis of this test's own, as in users/people-instances.test.ts: the
// cached authorization lives a minute and the clock never moves, so a provider's change made on A can only reach
// B through the bus.
let pair: TwoInstances;
let a: TestServer;
let b: TestServer;
let f: Fixtures;
let token: string;

async function scim(server: TestServer, path: string, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(`${server.url}/scim/v2${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** What the add-in pane asks first when it opens, and the organization it works in. */
const pane = async (server: TestServer, personToken: string) => ({
  me: (await server.call('/v1/me', { token: personToken })).status,
  org: (await server.call(`/v1/organization/${f.orgA.id}`, { token: personToken })).status,
});

describeNeeds(['redis-server'], 'SCIM provisioning across two instances sharing a Redis', () => {
  beforeAll(async () => {
    pair = await startTwoInstances({ clock: new ManualClock(), env: { AUTH_CACHE_TTL_SECONDS: '60' } });
    ({ a, b, f } = pair);
    token = (await a.call(`/v1/organization/${f.orgA.id}/scim-token`, { method: 'POST', token: f.admin.token })).body
      .data.token;
  });
  afterAll(() => pair?.close());

  it("Entra ID disables a person on A: their pane's next request on B is refused; enabled: served", async () => {
    const requests = entra(randomUUID().slice(-12));
    const created = await scim(a, '/Users', { method: 'POST', json: requests.create });
    expect(created.status).toBe(201);
    const personToken = f.userToken(created.body.id);
    expect(await pane(b, personToken)).toEqual({ me: 200, org: 200 });

    expect((await scim(a, `/Users/${created.body.id}`, { method: 'PATCH', json: requests.disable })).status).toBe(200);
    expect(await pane(b, personToken)).toEqual({ me: 401, org: 401 });

    expect((await scim(b, `/Users/${created.body.id}`, { method: 'PATCH', json: requests.enable })).status).toBe(200);
    expect(await pane(a, personToken)).toEqual({ me: 200, org: 200 });
  });

  it('Okta deactivates on B: refused on A; a person deleted on A: refused on B', async () => {
    const requests = okta(randomUUID().slice(-12));
    const created = await scim(a, '/Users', { method: 'POST', json: requests.create });
    const personToken = f.userToken(created.body.id);
    expect(await pane(a, personToken)).toEqual({ me: 200, org: 200 });
    await scim(b, `/Users/${created.body.id}`, { method: 'PATCH', json: requests.deactivate });
    expect(await pane(a, personToken)).toEqual({ me: 401, org: 401 });

    const other = await scim(a, '/Users', { method: 'POST', json: entra(randomUUID().slice(-12)).create });
    const otherToken = f.userToken(other.body.id);
    expect(await pane(b, otherToken)).toEqual({ me: 200, org: 200 });
    expect((await scim(a, `/Users/${other.body.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await pane(b, otherToken)).toEqual({ me: 401, org: 401 });
  });
});
