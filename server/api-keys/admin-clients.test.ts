import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix, expectRows } from '../../test/auth-matrix.js';
import type { ClientFixture } from '../../test/harness.js';
import { encodeCursor } from '../cursor.js';
import { ctx, exchange, f, server } from './api-keys.fixtures.js';

describe('/v1/admin/clients', () => {
  let target: ClientFixture;
  beforeAll(async () => {
    target = await f.client(['project:read'], { orgs: [f.orgA.id] });
  });

  describeAuthMatrix('admin clients', ctx, {
    method: 'GET',
    path: '/v1/admin/clients',
    expectOk: (res) => {
      expectRows(res);
      expect(res.body.data[0].usageSummary).toBeDefined();
    },
  });
  describeAuthMatrix('admin clients', ctx, {
    method: 'GET',
    path: '/v1/admin/clients/{id}',
    vars: () => ({ id: target.id }),
    expectOk: (res) => {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: target.id, usageSummary: { totalRequests: expect.any(Number) } });
    },
  });
  describeAuthMatrix('admin clients', ctx, {
    method: 'PATCH',
    path: '/v1/admin/clients/{id}',
    vars: () => ({ id: target.id }),
    json: { description: 'patched by the matrix' },
    expectOk: (res) => {
      expect(res.status).toBe(200);
      expect(res.body.description).toBe('patched by the matrix');
    },
  });
  describeAuthMatrix('admin clients', ctx, {
    method: 'POST',
    path: '/v1/admin/clients/{id}/rotate-secret',
    vars: () => ({ id: target.id }),
    expectOk: (res) => {
      expect(res.status).toBe(200);
      expect(res.body.client_secret).toMatch(/^sfs_/);
    },
  });
  describeAuthMatrix('admin clients', ctx, {
    method: 'DELETE',
    path: '/v1/admin/clients/{id}',
    vars: () => ({ id: target.id }),
    expectOk: (res) => expect(res.status).toBe(204),
  });

  const admin = (path: string, init: { method?: string; json?: unknown } = {}) =>
    server.call(`/v1/admin/clients${path}`, { ...init, token: f.staff.token });

  it('pages through every live key exactly once', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: Awaited<ReturnType<typeof admin>> = await admin(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(3);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const all = await admin('?limit=50');
    expect(seen.slice(0, all.body.data.length)).toEqual(all.body.data.map((c: { id: string }) => c.id));
    for (const query of ['?limit=0', '?limit=51', '?cursor=bm9wZQ']) expect((await admin(query)).status).toBe(400);
    // A cursor with the right binding but a position that is not a timestamp: 400, not a database error.
    const forged = encodeCursor(
      server.app.context.cursorKey,
      { k: ['not-a-date'], id: 'x' },
      { list: 'clients', createdBy: null },
    );
    expect(await admin(`?cursor=${forged}`)).toMatchObject({ status: 400, body: { error: 'Invalid cursor' } });
  });

  it('disables and re-enables a key; its tokens stop and resume working at once', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    expect((await server.call('/v1/client/me', { token: key.token })).status).toBe(200);
    const off = await admin(`/${key.id}`, { method: 'PATCH', json: { enabled: false } });
    expect(off.status).toBe(200);
    expect(off.body.enabled).toBe(false);
    const refused = await server.call('/v1/client/me', { token: key.token });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('Token no longer valid');
    expect(await exchange(key.clientId, key.secret)).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: 'This client is disabled' },
    });
    await admin(`/${key.id}`, { method: 'PATCH', json: { enabled: true } });
    expect((await server.call('/v1/client/me', { token: key.token })).status).toBe(200);
  });

  it('changes permissions (merged) and scopes (replaced) with effect on the next request', async () => {
    const key = await f.client(['organization:read', 'project:read'], { orgs: [f.orgA.id] });
    const before = await admin(`/${key.id}`);
    const grantedAt = before.body.scopes.orgs[0].grantedAt;
    const res = await admin(`/${key.id}`, {
      method: 'PATCH',
      json: {
        name: 'Renamed',
        permissions: { 'project:read': false, 'document:read': true },
        scopes: { orgs: [f.orgA.id, f.orgB.id], projects: [] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('Renamed');
    expect(res.body.permissions).toMatchObject({
      'organization:read': true,
      'project:read': false,
      'document:read': true,
    });
    expect(res.body.scopes.orgs).toEqual(
      expect.arrayContaining([
        { orgId: f.orgA.id, grantedAt },
        { orgId: f.orgB.id, grantedAt: expect.any(String) },
      ]),
    );
    expect((await server.call(`/v1/organization/${f.orgB.id}`, { token: key.token })).status).toBe(200);
    expect((await server.call(`/v1/organization/${f.orgA.id}/project`, { token: key.token })).status).toBe(403);

    const narrowed = await admin(`/${key.id}`, { method: 'PATCH', json: { scopes: { orgs: [f.orgB.id] } } });
    expect(narrowed.body.orgIds).toEqual([f.orgB.id]);
    expect((await server.call(`/v1/organization/${f.orgA.id}`, { token: key.token })).status).toBe(403);
  });

  it('answers bad changes with a 400 and unknown keys with a 404', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const cases: [unknown, string][] = [
      [{}, 'Give at least one field to change'],
      [{ permissions: { 'root:all': true } }, 'Unknown permission keys: root:all'],
      [{ scopes: { orgs: ['org_nope'] } }, 'Unknown organizations: org_nope'],
      [{ enabled: 'no' }, 'enabled'],
      [{ secretHash: 'x' }, 'body'],
    ];
    for (const [json, message] of cases) {
      const res = await admin(`/${key.id}`, { method: 'PATCH', json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(JSON.stringify(res.body)).toContain(message);
    }
    const missing = '00000000-0000-0000-0000-000000000000';
    expect((await admin(`/${missing}`)).status).toBe(404);
    expect((await admin(`/${missing}`, { method: 'PATCH', json: { name: 'x' } })).status).toBe(404);
    expect((await admin(`/${missing}`, { method: 'DELETE' })).status).toBe(404);
    expect((await admin(`/${missing}/rotate-secret`, { method: 'POST' })).status).toBe(404);
  });

  it('deletes a key: its token, its secret and its record are gone', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    expect((await server.call('/v1/client/me', { token: key.token })).status).toBe(200);
    const res = await admin(`/${key.id}`, { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expect((await server.call('/v1/client/me', { token: key.token })).status).toBe(401);
    expect((await exchange(key.clientId, key.secret)).body).toEqual({
      error: 'invalid_client',
      error_description: 'Invalid client credentials',
    });
    expect((await admin(`/${key.id}`)).status).toBe(404);
    expect((await admin(`/${key.id}`, { method: 'DELETE' })).status).toBe(404);
    const list = await admin('?limit=50');
    expect(list.body.data.map((c: { id: string }) => c.id)).not.toContain(key.id);
  });

  it('rotates a secret: the new one is shown once, the old one stops working', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const res = await admin(`/${key.id}/rotate-secret`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: key.id,
      clientId: key.clientId,
      client_secret: expect.stringMatching(/^sfs_/),
    });
    expect(res.body.client_secret).not.toBe(key.secret);
    expect((await exchange(key.clientId, key.secret)).status).toBe(401);
    expect((await exchange(key.clientId, res.body.client_secret)).status).toBe(200);
    for (const later of [await admin(`/${key.id}`), await admin('?limit=50')]) {
      expect(JSON.stringify(later.body)).not.toContain(res.body.client_secret);
      expect(JSON.stringify(later.body)).not.toContain('secretHash');
    }
  });
});
