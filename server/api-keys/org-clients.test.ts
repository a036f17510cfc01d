import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { f, server } from '../../test/fixture-server.js';
import type { Fixtures } from '../../test/harness.js';
import { createOrganization, createProject } from '../organizations/service.js';
import { createUser } from '../users/service.js';

/** Keys confined to organization A, used up one per request by the DELETE and rotate matrices. */
const disposable: string[] = [];
let orgAKey: string;

beforeAll(async () => {
  orgAKey = (await f.client(['project:read'], { orgs: [f.orgA.id] })).id;
  for (let i = 0; i < 24; i++) disposable.push((await f.client(['project:read'], { orgs: [f.orgA.id] })).id);
});

const base = (orgId = f.orgA.id) => `/v1/organization/${orgId}/clients`;
const asAdmin = (path: string, options: { method?: string; json?: unknown } = {}) =>
  server.call(path, { token: f.admin.token, ...options });
const exchange = (clientId: string, secret: string) =>
  server.call('/v1/oauth/token', { method: 'POST', json: { client_id: clientId, client_secret: secret } });
const keyRequest = (token: string) => server.call('/v1/client/me', { token });
const newKeyBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Harbor integration',
  permissions: { 'project:read': true, 'document:read': true },
  scopes: { orgs: [], projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id }] },
  ...overrides,
});
const ctx = () => ({ server, fixtures: f });
const nextDisposable = () => ({ id: disposable.pop()! });

describeAuthMatrix('org keys (list)', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/clients',
});
describeAuthMatrix('org keys (create)', ctx, {
  method: 'POST',
  path: '/v1/organization/{orgId}/clients',
  json: (fx: Fixtures) => ({
    name: 'matrix key',
    permissions: { 'project:read': true },
    scopes: { orgs: [fx.orgA.id] },
  }),
  expectOk: (res) => expect(res.status).toBe(201),
});
describeAuthMatrix('org keys (get)', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/clients/{id}',
  vars: () => ({ id: orgAKey }),
});
describeAuthMatrix('org keys (update)', ctx, {
  method: 'PATCH',
  path: '/v1/organization/{orgId}/clients/{id}',
  json: { description: 'changed by the matrix' },
  vars: () => ({ id: orgAKey }),
});
describeAuthMatrix('org keys (delete)', ctx, {
  method: 'DELETE',
  path: '/v1/organization/{orgId}/clients/{id}',
  vars: nextDisposable,
  expectOk: (res) => expect(res.status).toBe(204),
});
describeAuthMatrix('org keys (rotate)', ctx, {
  method: 'POST',
  path: '/v1/organization/{orgId}/clients/{id}/rotate-secret',
  vars: nextDisposable,
});

describe('organization key management by an organization admin', () => {
  it('creates a key inside the organization; the secret works and is shown only in the create answer', async () => {
    const created = await asAdmin(base(), { method: 'POST', json: newKeyBody() });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Harbor integration',
      superadmin: false,
      enabled: true,
      createdBy: 'admin@harbor.test',
      orgIds: [f.orgA.id],
      permissions: { 'project:read': true, 'document:read': true, 'client:create': false },
    });
    const secret = created.body.client_secret as string;
    expect(secret.length).toBeGreaterThan(20);
    expect((await exchange(created.body.clientId, secret)).status).toBe(200);

    const one = await asAdmin(`${base()}/${created.body.id}`);
    expect(one.status).toBe(200);
    expect(one.body).not.toHaveProperty('client_secret');
    const list = await asAdmin(`${base()}?limit=50`);
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect(list.body.data.map((k: { id: string }) => k.id)).toContain(created.body.id);
  });

  it('lists only keys confined to the organization, newest first, with usage, through a keyset cursor', async () => {
    // An organization of its own in this file's database: its list holds exactly the keys made here.
    const db = server.database.db;
    const org = await createOrganization(db, { name: 'Keyset Builders' });
    const tower = await createProject(db, { organizationId: org.id, name: 'Keyset Tower' });
    const admin = await createUser(db, {
      email: 'kay@keyset.test',
      name: 'Kay Keys',
      memberships: [{ orgId: org.id, role: 'admin' }],
    });
    const adminToken = f.userToken(admin.id);
    const whole = await f.client(['project:read'], { orgs: [org.id] });
    const project = await f.client(['project:read'], { projects: [{ orgId: org.id, projectId: tower.id }] });
    await f.client(['project:read'], { orgs: [f.orgB.id] });
    await f.client(['project:read'], { orgs: [org.id, f.orgB.id] });
    await f.client(['project:read'], {
      orgs: [org.id],
      projects: [{ orgId: f.orgB.id, projectId: f.projectB1.id }],
    });
    await f.client('all', { superadmin: true });
    await f.client(['project:read'], {});
    expect((await server.call(`/v1/organization/${org.id}/project`, { token: whole.token })).status).toBe(200);

    const first = await server.call(`/v1/organization/${org.id}/clients?limit=1`, { token: adminToken });
    expect(first.status).toBe(200);
    expect(first.body.data.map((k: { id: string }) => k.id)).toEqual([project.id]);
    expect(first.body.hasMore).toBe(true);
    const second = await server.call(`/v1/organization/${org.id}/clients?limit=1&cursor=${first.body.nextCursor}`, {
      token: adminToken,
    });
    expect(second.body.data.map((k: { id: string }) => k.id)).toEqual([whole.id]);
    expect(second.body).toMatchObject({ hasMore: false, nextCursor: null });
    expect(second.body.data[0].usageSummary).toEqual({
      totalRequests: 1,
      endpoints: [
        { endpoint: 'GET /v1/organization/:orgId/project', count: 1, averageResponseTimeMs: expect.any(Number) },
      ],
    });

    // The admin route's cursor is bound to its own list, and limits stay 1–50.
    const staffList = await server.call('/v1/admin/clients?limit=1', { token: f.staff.token });
    const crossed = await server.call(`/v1/organization/${org.id}/clients?cursor=${staffList.body.nextCursor}`, {
      token: adminToken,
    });
    expect(crossed.status).toBe(400);
    for (const limit of [0, 51, 'x']) {
      const res = await server.call(`/v1/organization/${org.id}/clients?limit=${limit}`, {
        token: adminToken,
      });
      expect(res.status).toBe(400);
    }
  });

  it('refuses scopes that reach another organization, no scope at all, superadmin and unknown permissions', async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ scopes: { orgs: [f.orgB.id] } }, 400],
      [{ scopes: { orgs: [f.orgA.id, f.orgB.id] } }, 400],
      [{ scopes: { projects: [{ orgId: f.orgB.id, projectId: f.projectB1.id }] } }, 400],
      [{ scopes: { projects: [{ orgId: f.orgA.id, projectId: f.projectB1.id }] } }, 400],
      [{ scopes: { orgs: [], projects: [] } }, 400],
      [{ scopes: { orgs: ['org_missing'] } }, 400],
      [{ permissions: { 'project:read': true, 'org:destroy': true } }, 400],
      [{ superadmin: true }, 403],
    ];
    const before = (await asAdmin(`${base()}?limit=50`)).body.data.length;
    for (const [overrides, status] of cases) {
      const res = await asAdmin(base(), { method: 'POST', json: newKeyBody(overrides) });
      expect(res.status, JSON.stringify(overrides)).toBe(status);
      expect(res.body.errorCode).toBe(status === 400 ? 'bad_request' : 'forbidden');
    }
    expect((await asAdmin(`${base()}?limit=50`)).body.data.length).toBe(before);
  });

  it('answers 404 for keys outside the organization or spanning others, on every route', async () => {
    const foreign = await f.client(['project:read'], { orgs: [f.orgB.id] });
    const spanning = await f.client(['project:read'], { orgs: [f.orgA.id, f.orgB.id] });
    const superKey = await f.client(['project:read'], { superadmin: true });
    for (const key of [foreign, spanning, superKey]) {
      const path = `${base()}/${key.id}`;
      expect((await asAdmin(path)).status).toBe(404);
      expect((await asAdmin(path, { method: 'PATCH', json: { enabled: false } })).status).toBe(404);
      expect((await asAdmin(`${path}/rotate-secret`, { method: 'POST' })).status).toBe(404);
      expect((await asAdmin(path, { method: 'DELETE' })).status).toBe(404);
      // Untouched: the key still works.
      expect((await keyRequest(key.token)).status).toBe(200);
    }
    expect((await asAdmin(`${base()}/no-such-key`)).status).toBe(404);
    // Organization B's key is not reachable through organization B's path either: that admin is not B's.
    expect((await asAdmin(`${base(f.orgB.id)}/${foreign.id}`)).status).toBe(403);
  });

  it('refuses changes that would take a key out of the organization or make it superadmin', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const path = `${base()}/${key.id}`;
    const cases: [Record<string, unknown>, number][] = [
      [{ scopes: { orgs: [f.orgB.id] } }, 400],
      [{ scopes: { orgs: [f.orgA.id], projects: [{ orgId: f.orgB.id, projectId: f.projectB1.id }] } }, 400],
      [{ scopes: { orgs: [], projects: [] } }, 400],
      [{ permissions: { 'no:such': true } }, 400],
      [{ superadmin: true }, 403],
    ];
    for (const [json, status] of cases) {
      expect((await asAdmin(path, { method: 'PATCH', json })).status, JSON.stringify(json)).toBe(status);
    }
    const unchanged = await asAdmin(path);
    expect(unchanged.body).toMatchObject({ superadmin: false, orgIds: [f.orgA.id] });

    const narrowed = await asAdmin(path, {
      method: 'PATCH',
      json: {
        name: 'Narrowed',
        permissions: { 'document:read': true },
        scopes: { projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }] },
      },
    });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body).toMatchObject({
      name: 'Narrowed',
      permissions: { 'project:read': true, 'document:read': true },
    });
    expect(narrowed.body.scopes.orgs).toEqual([]);
    // The narrowed scope applies to the key's very next request.
    const projects = await server.call(`/v1/organization/${f.orgA.id}/project`, { token: key.token });
    expect(projects.body.data.map((p: { id: string }) => p.id)).toEqual([f.projectA2.id]);
  });

  it('disables and enables a key with immediate effect, rotates its secret once, and deletes it', async () => {
    const created = await asAdmin(base(), {
      method: 'POST',
      json: newKeyBody({ permissions: { 'project:read': true } }),
    });
    const path = `${base()}/${created.body.id}`;
    const token = (await exchange(created.body.clientId, created.body.client_secret)).body.access_token as string;
    expect((await keyRequest(token)).status).toBe(200);

    expect((await asAdmin(path, { method: 'PATCH', json: { enabled: false } })).body.enabled).toBe(false);
    expect((await keyRequest(token)).status).toBe(401);
    expect((await exchange(created.body.clientId, created.body.client_secret)).status).toBe(401);
    expect((await asAdmin(path, { method: 'PATCH', json: { enabled: true } })).body.enabled).toBe(true);
    expect((await keyRequest(token)).status).toBe(200);

    const rotated = await asAdmin(`${path}/rotate-secret`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.body.client_secret).not.toBe(created.body.client_secret);
    expect((await exchange(created.body.clientId, created.body.client_secret)).status).toBe(401);
    expect((await exchange(created.body.clientId, rotated.body.client_secret)).status).toBe(200);
    expect((await asAdmin(path)).body).not.toHaveProperty('client_secret');

    expect((await asAdmin(path, { method: 'DELETE' })).status).toBe(204);
    expect((await keyRequest(token)).status).toBe(401);
    expect((await asAdmin(path)).status).toBe(404);
    expect((await asAdmin(path, { method: 'DELETE' })).status).toBe(404);
  });

  it('answers under the plural alias too, and staff keep the /v1/admin routes', async () => {
    const plural = await asAdmin(`/v1/organizations/${f.orgA.id}/clients?limit=1`);
    expect(plural.status).toBe(200);
    expect((await asAdmin('/v1/admin/clients')).status).toBe(403);
    expect((await server.call('/v1/admin/clients', { token: f.staff.token })).status).toBe(200);
  });
});
