import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { keepsScimContract } from '../../test/response-contract.js';
import { createUser } from '../users/service.js';
import { entra, okta } from './scim.fixtures.js';

let server: TestServer;
let f: Fixtures;
let tokenA: string;
let adminB: { id: string; token: string };
let tokenB: string;

const SCIM_JSON = 'application/scim+json';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** A request as a provider sends it: its bearer token, a SCIM JSON body. */
async function scim(path: string, token: string | undefined, init: { method?: string; json?: unknown } = {}) {
  const headers: Record<string, string> = { accept: SCIM_JSON };
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.json !== undefined) headers['content-type'] = SCIM_JSON;
  const res = await fetch(`${server.url}/scim/v2${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  const body = text ? JSON.parse(text) : undefined;
  // Every answer, errors included, as the OpenAPI document declares it.
  keepsScimContract(init.method ?? 'GET', res, body);
  return { status: res.status, type: res.headers.get('content-type') ?? '', body };
}

const mint = async (orgId: string, adminToken: string) => {
  const res = await server.call(`/v1/organization/${orgId}/scim-token`, { method: 'POST', token: adminToken });
  expect(res.status).toBe(201);
  return res.body.data.token as string;
};

const filtered = (filter: string) => `/Users?filter=${encodeURIComponent(filter)}`;

/** The organization's audit events of this action (the test clock stands still: several share a time). */
const auditsOf = async (action: string) =>
  (await server.call(`/v1/organization/${f.orgA.id}/audit-events?action=${action}&limit=50`, { token: f.admin.token }))
    .body.data as { actor: { kind: string }; target: { id: string }; changes: Record<string, { after: unknown }> }[];
/** The event of this action about this person. */
const auditOf = async (action: string, id: string) => (await auditsOf(action)).find((e) => e.target.id === id);

beforeAll(async () => {
  server = await startTestServer();
  f = await createFixtures(server);
  const b = await createUser(server.database.db, {
    email: `b-admin-${randomUUID()}@ridgeline.test`,
    name: 'Bea Admin',
    memberships: [{ orgId: f.orgB.id, role: 'admin' }],
  });
  adminB = { id: b.id, token: f.userToken(b.id) };
  tokenA = await mint(f.orgA.id, f.admin.token);
  tokenB = await mint(f.orgB.id, adminB.token);
});
afterAll(() => server?.close());

describe('the SCIM token', () => {
  it('is shown once, known afterwards only by when it was made; members cannot make one', async () => {
    const seen = await server.call(`/v1/organization/${f.orgA.id}/scim-token`, { token: f.admin.token });
    expect(seen.status).toBe(200);
    expect(seen.body.data).toMatchObject({ baseUrl: 'http://sitefile.test/scim/v2' });
    expect(JSON.stringify(seen.body)).not.toContain(tokenA);
    const byMember = await server.call(`/v1/organization/${f.orgA.id}/scim-token`, {
      method: 'POST',
      token: f.member.token,
    });
    expect(byMember.status).toBe(403);
  });

  it('rotated: the old token is refused at once, the new one served; revoked: refused', async () => {
    const first = await mint(f.orgB.id, adminB.token);
    const second = await mint(f.orgB.id, adminB.token);
    expect((await scim('/Users', first)).status).toBe(401);
    expect((await scim('/Users', second)).status).toBe(200);
    expect(
      (await server.call(`/v1/organization/${f.orgB.id}/scim-token`, { method: 'DELETE', token: adminB.token })).status,
    ).toBe(204);
    const refused = await scim('/Users', second);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ schemas: [ERROR], status: '401' });
    tokenB = await mint(f.orgB.id, adminB.token);
  });

  it('no token, or an API or person token, is a 401 in SCIM’s error shape', async () => {
    for (const token of [undefined, f.admin.token, 'sfscim_not-a-token']) {
      const res = await scim('/Users', token);
      expect(res.status).toBe(401);
      expect(res.type).toContain(SCIM_JSON);
      expect(res.body).toMatchObject({ schemas: [ERROR], status: '401' });
    }
  });
});

describe('Microsoft Entra ID provisioning one person', () => {
  const n = randomUUID().slice(-12);
  const requests = entra(n);
  let id: string;
  let personToken: string;

  it('asks by userName, finds nobody, creates them as a member of the organization', async () => {
    const before = await scim(filtered(requests.filterByUserName), tokenA);
    expect(before.status).toBe(200);
    expect(before.type).toContain(SCIM_JSON);
    expect(before.body).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await scim('/Users', tokenA, { method: 'POST', json: requests.create });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      userName: `Test_User_${n}`,
      externalId: requests.create.externalId,
      active: true,
      emails: [{ value: `Test_User_${n}@testuser.com`, type: 'work', primary: true }],
      displayName: 'givenName familyName',
    });
    id = created.body.id;
    personToken = f.userToken(id);
    const members = await server.call(`/v1/organization/${f.orgA.id}/members?search=Test_User_${n}`, {
      token: f.admin.token,
    });
    expect(members.body.data).toMatchObject([{ userId: id, role: 'member', disabled: false }]);
    expect(await auditOf('person.created', id)).toMatchObject({
      actor: { kind: 'scim', name: 'SCIM provisioning' },
      target: { id },
      createdAt: server.clock.now().toISOString(),
    });

    const again = await scim(filtered(requests.filterByUserName), tokenA);
    expect(again.body.totalResults).toBe(1);
    expect(again.body.Resources[0].id).toBe(id);
    const byExternal = await scim(filtered(`externalId eq "${requests.create.externalId}"`), tokenA);
    expect(byExternal.body.Resources.map((u: { id: string }) => u.id)).toEqual([id]);
    const byEmail = await scim(filtered(`emails[type eq "work"].value eq "test_user_${n}@TESTUSER.com"`), tokenA);
    expect(byEmail.body.Resources.map((u: { id: string }) => u.id)).toEqual([id]);
  });

  it('creating them twice is a 409 uniqueness', async () => {
    const twice = await scim('/Users', tokenA, { method: 'POST', json: requests.create });
    expect(twice.status).toBe(409);
    expect(twice.body).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });
  });

  it('patches the work e-mail and family name, then the userName', async () => {
    const patched = await scim(`/Users/${id}`, tokenA, { method: 'PATCH', json: requests.updateMultiValued });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      emails: [{ value: `updatedEmail_${n}@microsoft.com` }],
      name: { familyName: 'updatedFamilyName' },
    });
    expect((await server.call('/v1/me', { token: personToken })).body.data ?? {}).toBeDefined();
    const renamed = await scim(`/Users/${id}`, tokenA, { method: 'PATCH', json: requests.updateSingleValued });
    expect(renamed.body.userName).toBe(`5b50642d-79fc-4410-9e90-${n}@testuser.com`);
    const updates = (await auditsOf('person.updated')).filter((e) => e.target.id === id);
    expect(updates.map((e) => e.actor.kind)).toEqual(['scim', 'scim']);
    expect(updates.map((e) => e.changes.userName?.after)).toContain(`5b50642d-79fc-4410-9e90-${n}@testuser.com`);
    const noPath = await scim(`/Users/${id}`, tokenA, { method: 'PATCH', json: requests.noPathAdd });
    expect(noPath.body.displayName).toBe('Babs Jensen');
    const added = await scim(`/Users/${id}`, tokenA, { method: 'PATCH', json: requests.addEmail });
    expect(added.body.emails[0].value).toBe(`added_${n}@joe.com`);
  });

  it('disables them ("False" as a string): their add-in pane is refused; enables them: served again', async () => {
    const org = `/v1/organization/${f.orgA.id}`;
    expect((await server.call(org, { token: personToken })).status).toBe(200);
    const off = await scim(`/Users/${id}`, tokenA, { method: 'PATCH', json: requests.disable });
    expect(off.status).toBe(200);
    expect(off.body.active).toBe(false);
    expect((await server.call('/v1/me', { token: personToken })).status).toBe(401);
    expect((await server.call(org, { token: personToken })).status).toBe(401);
    expect(await auditOf('person.disabled', id)).toMatchObject({ actor: { kind: 'scim' }, target: { id } });
    const inactive = await scim(filtered('active eq false'), tokenA);
    expect(inactive.body.Resources.map((u: { id: string }) => u.id)).toContain(id);

    const on = await scim(`/Users/${id}`, tokenA, { method: 'PATCH', json: requests.enable });
    expect(on.body.active).toBe(true);
    expect((await server.call(org, { token: personToken })).status).toBe(200);
    await scim(`/Users/${id}`, tokenA, { method: 'PATCH', json: requests.disableCompliant });
    expect((await server.call(org, { token: personToken })).status).toBe(401);
  });

  it('deletes them: gone from the organization, every token of theirs refused', async () => {
    const gone = await scim(`/Users/${id}`, tokenA, { method: 'DELETE' });
    expect(gone.status).toBe(204);
    expect((await scim(`/Users/${id}`, tokenA)).status).toBe(404);
    expect((await server.call('/v1/me', { token: personToken })).status).toBe(401);
    expect(await auditOf('member.removed', id)).toMatchObject({ actor: { kind: 'scim' }, target: { id } });
  });
});

describe('Okta provisioning one person', () => {
  const n = randomUUID().slice(-12);
  const requests = okta(n);

  it('creates, replaces, deactivates and reactivates them', async () => {
    expect((await scim(`${filtered(requests.filterByUserName)}&startIndex=1&count=100`, tokenA)).body).toMatchObject({
      totalResults: 0,
      startIndex: 1,
    });
    const created = await scim('/Users', tokenA, { method: 'POST', json: requests.create });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ userName: requests.create.userName, displayName: 'Test User' });
    const id = created.body.id as string;
    const pane = f.userToken(id);

    const replaced = await scim(`/Users/${id}`, tokenA, { method: 'PUT', json: requests.replace(id) });
    expect(replaced.status).toBe(200);
    expect(replaced.body.displayName).toBe('Another User');

    const off = await scim(`/Users/${id}`, tokenA, { method: 'PATCH', json: requests.deactivate });
    expect(off.body.active).toBe(false);
    expect((await server.call('/v1/me', { token: pane })).status).toBe(401);
    const on = await scim(`/Users/${id}`, tokenA, { method: 'PATCH', json: requests.reactivate });
    expect(on.body.active).toBe(true);
    expect((await server.call('/v1/me', { token: pane })).status).toBe(200);
  });
});

describe('lists', () => {
  it('pages by startIndex and count, capped at 200', async () => {
    for (let i = 0; i < 4; i++) {
      const made = await scim('/Users', tokenB, {
        method: 'POST',
        json: { ...okta(`page${i}-${randomUUID().slice(-6)}`).create, externalId: undefined },
      });
      expect(made.status).toBe(201);
    }
    const all = await scim('/Users?count=1000', tokenB);
    expect(all.body.itemsPerPage).toBe(all.body.totalResults);
    const total = all.body.totalResults as number;
    const second = await scim('/Users?startIndex=2&count=2', tokenB);
    expect(second.body).toMatchObject({ totalResults: total, startIndex: 2, itemsPerPage: 2 });
    expect(second.body.Resources.map((u: { id: string }) => u.id)).toEqual(
      all.body.Resources.slice(1, 3).map((u: { id: string }) => u.id),
    );
    expect((await scim('/Users?count=0', tokenB)).body).toMatchObject({ totalResults: total, Resources: [] });
  });

  it('an unsupported filter is a 400 invalidFilter', async () => {
    for (const filter of ['userName co "a"', 'title eq "x"', 'userName eq']) {
      const res = await scim(filtered(filter), tokenA);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' });
    }
  });
});

describe("one organization's token and another's people", () => {
  it('never sees, changes or removes them', async () => {
    const listed = await scim('/Users?count=200', tokenB);
    expect(listed.body.Resources.map((u: { id: string }) => u.id)).not.toContain(f.member.id);
    expect((await scim(filtered('userName eq "member@harbor.test"'), tokenB)).body.totalResults).toBe(0);
    expect((await scim(`/Users/${f.member.id}`, tokenB)).status).toBe(404);
    const patch = await scim(`/Users/${f.member.id}`, tokenB, { method: 'PATCH', json: okta('x').deactivate });
    expect(patch.status).toBe(404);
    expect((await scim(`/Users/${f.member.id}`, tokenB, { method: 'DELETE' })).status).toBe(404);
    expect((await server.call('/v1/me', { token: f.member.token })).status).toBe(200);
  });
});

describe('discovery', () => {
  it('answers ServiceProviderConfig, ResourceTypes and Schemas', async () => {
    const config = await scim('/ServiceProviderConfig', tokenA);
    expect(config.body).toMatchObject({ patch: { supported: true }, filter: { supported: true, maxResults: 200 } });
    expect((await scim('/ResourceTypes', tokenA)).body.Resources[0]).toMatchObject({ id: 'User', endpoint: '/Users' });
    expect((await scim('/Schemas', tokenA)).body.Resources[0].id).toBe('urn:ietf:params:scim:schemas:core:2.0:User');
    expect((await scim('/ResourceTypes', tokenA)).body.totalResults).toBe(1);
    for (const [method, path] of [
      ['GET', '/Groups'],
      ['POST', '/Groups'],
      ['PATCH', '/Groups/some-group'],
    ] as const) {
      const groups = await scim(path, tokenA, { method, json: method === 'GET' ? undefined : {} });
      expect(groups).toMatchObject({ status: 404, type: expect.stringContaining(SCIM_JSON) });
      expect(groups.body).toMatchObject({ schemas: [ERROR], status: '404', detail: expect.stringContaining('Groups') });
    }
  });
});
