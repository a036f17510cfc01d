import { eq } from 'drizzle-orm';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import {
  type ClientFixture,
  createFixtures,
  type Fixtures,
  startTestServer,
  type TestServer,
} from '../../test/harness.js';
import { encodeCursor } from '../cursor.js';
import { requestUsage } from '../db/schema.js';

let server: TestServer;
let f: Fixtures;
beforeAll(async () => {
  server = await startTestServer();
  f = await createFixtures(server);
});
afterAll(async () => {
  await server.close();
});
const ctx = () => ({ server, fixtures: f });

const exchange = (clientId: string, secret: string) =>
  server.call('/v1/oauth/token', { method: 'POST', json: { client_id: clientId, client_secret: secret } });

const form = (fields: Record<string, string>) =>
  server.call('/v1/oauth/token', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

const createAs = (token: string, json: unknown) => server.call('/v1/client', { method: 'POST', token, json });

describe('POST /v1/oauth/token', () => {
  it('exchanges JSON credentials for a one-hour JWT bound to the client', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const res = await exchange(key.clientId, key.secret);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({ access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const decoded = jwt.decode(res.body.access_token, { complete: true })!;
    const claims = decoded.payload as jwt.JwtPayload;
    expect(decoded.header).toMatchObject({ alg: 'HS256', kid: 'test' });
    expect(claims).toMatchObject({ sub: key.clientId, iss: 'http://sitefile.test', aud: 'http://sitefile.test/v1' });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.jti).toEqual(expect.any(String));
    const me = await server.call('/v1/client/me', { token: res.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.clientId).toBe(key.clientId);
  });

  it('accepts the OAuth form body with grant_type=client_credentials', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const res = await form({ grant_type: 'client_credentials', client_id: key.clientId, client_secret: key.secret });
    expect(res.status).toBe(200);
    expect(res.body.token_type).toBe('Bearer');
  });

  it('answers another grant_type with unsupported_grant_type', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const viaForm = await form({ grant_type: 'password', client_id: key.clientId, client_secret: key.secret });
    expect(viaForm.status).toBe(400);
    expect(viaForm.body).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'Only grant_type=client_credentials is supported',
    });
    const viaJson = await server.call('/v1/oauth/token', {
      method: 'POST',
      json: { grant_type: 'authorization_code', client_id: key.clientId, client_secret: key.secret },
    });
    expect(viaJson.status).toBe(400);
    expect(viaJson.body.error).toBe('unsupported_grant_type');
  });

  it('answers a wrong secret and an unknown client_id with the same invalid_client body', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const wrong = await exchange(key.clientId, `${key.secret}x`);
    const unknown = await exchange('00000000-0000-0000-0000-000000000000', key.secret);
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid_client', error_description: 'Invalid client credentials' });
    }
  });

  it('names the missing field of an incomplete body in OAuth’s shape (400 invalid_request)', async () => {
    const res = await server.call('/v1/oauth/token', { method: 'POST', json: { client_id: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid_request', error_description: 'client_secret is required.' });
    const formRes = await form({ grant_type: 'client_credentials', client_secret: 'x' });
    expect(formRes.status).toBe(400);
    expect(formRes.body).toEqual({ error: 'invalid_request', error_description: 'client_id is required.' });
  });

  it('refuses a token once its hour is over (clock advanced 3601 s)', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    const { body } = await exchange(key.clientId, key.secret);
    const start = server.clock.now();
    try {
      server.clock.advance(3599_000);
      expect((await server.call('/v1/client/me', { token: body.access_token })).status).toBe(200);
      server.clock.advance(2_000);
      const res = await server.call('/v1/client/me', { token: body.access_token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ errorCode: 'unauthorized', error: 'Invalid or expired token' });
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    } finally {
      server.clock.set(start);
    }
  });
});

describeAuthMatrix('clients', ctx, {
  method: 'GET',
  path: '/v1/client/me',
  access: 'authenticated',
  expectOk: (res) => {
    expect(res.status).toBe(200);
    expect(res.body.orgIds).toEqual([f.orgA.id]);
  },
});

describe('GET /v1/client/me', () => {
  it('refuses a token for another audience or with a tampered payload (401)', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const signingKey = server.config.jwtSigningKey!;
    const otherAudience = jwt.sign({ typ: 'client' }, signingKey.secret, {
      algorithm: 'HS256',
      keyid: signingKey.id,
      subject: key.clientId,
      issuer: server.config.publicUrl,
      audience: 'http://elsewhere.test/v1',
      expiresIn: 3600,
    });
    const [header, , signature] = key.token.split('.');
    const payload = JSON.parse(Buffer.from(key.token.split('.')[1]!, 'base64url').toString());
    const tampered = [
      header,
      Buffer.from(JSON.stringify({ ...payload, sub: f.staff.id, typ: 'user' })).toString('base64url'),
      signature,
    ].join('.');
    for (const token of [otherAudience, tampered]) {
      const res = await server.call('/v1/client/me', { token });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ errorCode: 'unauthorized', error: 'Invalid or expired token' });
    }
  });

  it('returns the calling key with permissions, scopes and organization IDs, never a secret', async () => {
    const key = await f.client(['document:read', 'project:read'], {
      orgs: [f.orgB.id],
      projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id }],
    });
    const res = await server.call('/v1/client/me', { token: key.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: key.id,
      clientId: key.clientId,
      name: 'test key',
      superadmin: false,
      enabled: true,
      createdBy: 'tests@sitefile.test',
      orgIds: [f.orgA.id, f.orgB.id].sort(),
      scopes: {
        orgs: [{ orgId: f.orgB.id, grantedAt: expect.any(String) }],
        projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id, grantedAt: expect.any(String) }],
      },
    });
    expect(res.body.permissions).toEqual({
      'mcp:access': false,
      'organization:read': false,
      'project:read': true,
      'document:read': true,
      'email:read': false,
      'client:read': false,
      'client:create': false,
      'explorer:query': false,
    });
    expect(res.body).not.toHaveProperty('client_secret');
    expect(JSON.stringify(res.body)).not.toContain(key.secret);
  });

  it('lists every organization in orgIds for a superadmin key', async () => {
    const key = await f.client(['organization:read'], { superadmin: true });
    const res = await server.call('/v1/client/me', { token: key.token });
    expect(res.status).toBe(200);
    expect(res.body.orgIds).toEqual([f.orgA.id, f.orgB.id].sort());
    expect(res.body.scopes).toEqual({ orgs: [], projects: [] });
  });

  it('carries the key’s usage summary', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id] });
    await server.call(`/v1/organization/${f.orgA.id}/project`, { token: key.token });
    await server.call(`/v1/organization/${f.orgA.id}/project`, { token: key.token });
    const res = await server.call('/v1/client/me', { token: key.token });
    expect(res.body.usageSummary).toMatchObject({
      totalRequests: 2,
      endpoints: [{ endpoint: 'GET /v1/organization/:orgId/project', count: 2 }],
    });
  });

  it('refuses a person’s token: there is no key behind it (403)', async () => {
    const res = await server.call('/v1/client/me', { token: f.staff.token });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errorCode: 'forbidden', error: 'A client token is required' });
  });
});

describeAuthMatrix('clients', ctx, {
  method: 'POST',
  path: '/v1/client',
  access: { permission: 'client:create' },
  json: (fx: Fixtures) => ({
    name: 'matrix key',
    permissions: { 'project:read': true },
    scopes: { orgs: [fx.orgA.id] },
  }),
  expectOk: (res) => {
    expect(res.status).toBe(201);
    expect(res.body.client_secret).toMatch(/^sfs_/);
  },
});

describe('POST /v1/client', () => {
  let creator: ClientFixture;
  beforeAll(async () => {
    creator = await f.client(['client:create', 'client:read', 'project:read', 'organization:read'], {
      orgs: [f.orgA.id],
    });
  });

  it('creates a key within the creator’s rights; its secret works once shown', async () => {
    const res = await createAs(creator.token, {
      name: 'Field reporting',
      description: 'Reads Pier 9 only',
      permissions: { 'project:read': true, 'organization:read': false },
      scopes: { projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id }] },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Field reporting',
      description: 'Reads Pier 9 only',
      superadmin: false,
      enabled: true,
      createdBy: 'tests@sitefile.test',
      orgIds: [f.orgA.id],
      scopes: { orgs: [], projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id, grantedAt: expect.any(String) }] },
      client_secret: expect.stringMatching(/^sfs_/),
      usageSummary: { totalRequests: 0, endpoints: [] },
    });
    expect(res.body.permissions['project:read']).toBe(true);
    expect(res.body.permissions['organization:read']).toBe(false);
    const token = await exchange(res.body.clientId, res.body.client_secret);
    expect(token.status).toBe(200);
    const projects = await server.call(`/v1/organization/${f.orgA.id}/project`, { token: token.body.access_token });
    expect(projects.body.data.map((p: { id: string }) => p.id)).toEqual([f.projectA1.id]);
  });

  it('refuses to grant a permission the creator does not hold (403, naming it)', async () => {
    const res = await createAs(creator.token, {
      name: 'escalation',
      permissions: { 'project:read': true, 'document:read': true, 'email:read': true },
      scopes: { orgs: [f.orgA.id] },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ errorCode: 'forbidden', error: 'Insufficient permissions' });
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual([
      'permissions.document:read',
      'permissions.email:read',
    ]);
  });

  it('refuses superadmin from a key (403), even a superadmin key', async () => {
    const superKey = await f.client('all', { superadmin: true });
    for (const token of [creator.token, superKey.token]) {
      const res = await createAs(token, { name: 'root', permissions: { 'project:read': true }, superadmin: true });
      expect(res.status).toBe(403);
      expect(res.body.details).toEqual([{ path: 'superadmin', message: 'Only staff create superadmin keys' }]);
    }
  });

  it('refuses scopes outside the creator’s own like unknown IDs (400), without telling which exist', async () => {
    const otherOrg = await createAs(creator.token, {
      name: 'x',
      permissions: { 'project:read': true },
      scopes: { orgs: [f.orgB.id] },
    });
    const missingOrg = await createAs(creator.token, {
      name: 'x',
      permissions: { 'project:read': true },
      scopes: { orgs: ['org_does_not_exist'] },
    });
    for (const res of [otherOrg, missingOrg]) {
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^Organizations not found or outside this key's scope: /);
    }
    const otherProject = await createAs(creator.token, {
      name: 'x',
      permissions: { 'project:read': true },
      scopes: { projects: [{ orgId: f.orgB.id, projectId: f.projectB1.id }] },
    });
    expect(otherProject.status).toBe(400);
    expect(otherProject.body.error).toMatch(/^Projects not found or outside this key's scope: /);
    // A project of another organization named under the creator's own organization.
    const smuggled = await createAs(creator.token, {
      name: 'x',
      permissions: { 'project:read': true },
      scopes: { projects: [{ orgId: f.orgA.id, projectId: f.projectB1.id }] },
    });
    expect(smuggled.status).toBe(400);
    expect(smuggled.body.error).toBe(`Unknown projects for their organization: ${f.orgA.id}:${f.projectB1.id}`);
  });

  it('refuses a project-scoped creator widening to its whole organization or a sibling project (400)', async () => {
    const narrow = await f.client(['client:create', 'project:read'], {
      projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id }],
    });
    const whole = await createAs(narrow.token, {
      name: 'x',
      permissions: { 'project:read': true },
      scopes: { orgs: [f.orgA.id] },
    });
    expect(whole.status).toBe(400);
    const sibling = await createAs(narrow.token, {
      name: 'x',
      permissions: { 'project:read': true },
      scopes: { projects: [{ orgId: f.orgA.id, projectId: f.projectA2.id }] },
    });
    expect(sibling.status).toBe(400);
  });

  it('answers unknown permission keys and malformed bodies with a 400 naming the problem', async () => {
    const unknown = await createAs(creator.token, { name: 'x', permissions: { 'admin:everything': false } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('Unknown permission keys: admin:everything');
    const cases: [unknown, string][] = [
      [{ name: '', permissions: {} }, 'name'],
      [{ name: 'x'.repeat(201), permissions: {} }, 'name'],
      [{ name: 'x', description: 'd'.repeat(2001), permissions: {} }, 'description'],
      [{ name: 'x' }, 'permissions'],
      [{ name: 'x', permissions: { 'project:read': 'yes' } }, 'permissions.project:read'],
      [{ name: 'x', permissions: {}, scopes: { orgs: 'org_a' } }, 'scopes.orgs'],
      [{ name: 'x', permissions: {}, owner: 'me' }, 'body'],
    ];
    for (const [json, field] of cases) {
      const res = await createAs(creator.token, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.errorCode).toBe('validation_failed');
      expect(res.body.error).toContain(field);
    }
  });

  it('lets staff create superadmin keys, which reach every organization', async () => {
    const res = await createAs(f.staff.token, {
      name: 'Platform ops',
      permissions: { 'organization:read': true },
      superadmin: true,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ superadmin: true, createdBy: 'staff@sitefile.test' });
    const token = (await exchange(res.body.clientId, res.body.client_secret)).body.access_token;
    for (const org of [f.orgA, f.orgB]) {
      const read = await server.call(`/v1/organization/${org.id}`, { token });
      expect(read.status).toBe(200);
      expect(read.body.name).toBe(org.name);
    }
    // superadmin widens scope only: permissions are still checked.
    const projects = await server.call(`/v1/organization/${f.orgA.id}/project`, { token });
    expect(projects.status).toBe(403);
  });

  it('answers staff naming unknown organizations or mismatched projects with a 400', async () => {
    const res = await createAs(f.staff.token, {
      name: 'x',
      permissions: { 'project:read': true },
      scopes: { orgs: ['org_nope'], projects: [] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('Unknown organizations: org_nope');
  });

  it('refuses a signed-in person who is not staff (403)', async () => {
    const res = await createAs(f.admin.token, { name: 'x', permissions: { 'project:read': true } });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Insufficient permissions');
  });
});

describeAuthMatrix('clients', ctx, {
  method: 'GET',
  path: '/v1/client',
  access: { permission: 'client:read' },
  expectOk: (res) => {
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], nextCursor: null, hasMore: false });
  },
});

describe('GET /v1/client', () => {
  it('lists the keys this key created, newest first, in pages, with their usage', async () => {
    const parent = await f.client(['client:create', 'client:read', 'project:read'], { orgs: [f.orgA.id] });
    const bystander = await f.client(['client:create', 'client:read', 'project:read'], { orgs: [f.orgA.id] });
    const children = [];
    for (const name of ['first', 'second', 'third']) {
      const res = await createAs(parent.token, {
        name,
        permissions: { 'project:read': true },
        scopes: { orgs: [f.orgA.id] },
      });
      children.push(res.body);
    }
    await createAs(bystander.token, { name: 'not mine', permissions: { 'project:read': true } });

    const child = children[0];
    const childToken = (await exchange(child.clientId, child.client_secret)).body.access_token;
    await server.call(`/v1/organization/${f.orgA.id}/project`, { token: childToken });
    await server.call(`/v1/organizations/${f.orgA.id}/projects`, { token: childToken });
    await server.call(`/v1/organization/${f.orgA.id}/project?limit=0`, { token: childToken });
    await server.call('/v1/client/me', { token: childToken });

    const page1 = await server.call('/v1/client?limit=2', { token: parent.token });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((c: { name: string }) => c.name)).toEqual(['third', 'second']);
    expect(page1.body.hasMore).toBe(true);
    const page2 = await server.call(`/v1/client?limit=2&cursor=${page1.body.nextCursor}`, { token: parent.token });
    expect(page2.body).toMatchObject({ nextCursor: null, hasMore: false });
    expect(page2.body.data.map((c: { name: string }) => c.name)).toEqual(['first']);

    const summary = page2.body.data[0].usageSummary;
    expect(summary.totalRequests).toBe(4);
    expect(summary.endpoints).toEqual([
      { endpoint: 'GET /v1/organization/:orgId/project', count: 3, averageResponseTimeMs: expect.any(Number) },
      { endpoint: 'GET /v1/client/me', count: 1, averageResponseTimeMs: expect.any(Number) },
    ]);
    expect(page1.body.data[0].usageSummary).toEqual({ totalRequests: 0, endpoints: [] });
    for (const c of [...page1.body.data, ...page2.body.data]) expect(c).not.toHaveProperty('client_secret');

    // Flushed to the database in one batch, the summary does not change (nothing counted twice).
    await server.app.context.usage.flush();
    const rows = await server.database.db.select().from(requestUsage).where(eq(requestUsage.clientRowId, child.id));
    expect(rows.map((r) => [r.endpoint, r.count]).sort()).toEqual([
      ['GET /v1/client/me', 1],
      ['GET /v1/organization/:orgId/project', 3],
    ]);
    const again = await server.call(`/v1/client?limit=2&cursor=${page1.body.nextCursor}`, { token: parent.token });
    expect(again.body.data[0].usageSummary).toEqual(summary);

    // A cursor belongs to one key's list.
    const foreign = await server.call(`/v1/client?cursor=${page1.body.nextCursor}`, { token: bystander.token });
    expect(foreign.status).toBe(400);
  });

  it('bounds the page size and rejects garbage cursors (400)', async () => {
    const key = await f.client(['client:read'], { orgs: [f.orgA.id] });
    for (const query of ['limit=0', 'limit=51', 'limit=abc', 'cursor=%%%garbage']) {
      const res = await server.call(`/v1/client?${query}`, { token: key.token });
      expect(res.status, query).toBe(400);
    }
  });
});

describe('/v1/admin/clients', () => {
  let target: ClientFixture;
  beforeAll(async () => {
    target = await f.client(['project:read'], { orgs: [f.orgA.id] });
  });

  describeAuthMatrix('admin clients', ctx, {
    method: 'GET',
    path: '/v1/admin/clients',
    access: 'staff',
    expectOk: (res) => {
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      expect(res.body.data[0].usageSummary).toBeDefined();
    },
  });
  describeAuthMatrix('admin clients', ctx, {
    method: 'GET',
    path: '/v1/admin/clients/{id}',
    access: 'staff',
    vars: () => ({ id: target.id }),
    expectOk: (res) => {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: target.id, usageSummary: { totalRequests: expect.any(Number) } });
    },
  });
  describeAuthMatrix('admin clients', ctx, {
    method: 'PATCH',
    path: '/v1/admin/clients/{id}',
    access: 'staff',
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
    access: 'staff',
    vars: () => ({ id: target.id }),
    expectOk: (res) => {
      expect(res.status).toBe(200);
      expect(res.body.client_secret).toMatch(/^sfs_/);
    },
  });
  describeAuthMatrix('admin clients', ctx, {
    method: 'DELETE',
    path: '/v1/admin/clients/{id}',
    access: 'staff',
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
    const forged = encodeCursor({ k: ['not-a-date'], id: 'x' }, { list: 'clients', createdBy: null });
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

describe('usage counters on shutdown', () => {
  it('are written to the database when an instance shuts down gracefully', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const instance = await startTestServer({ database: server.database });
    for (let i = 0; i < 3; i++) {
      expect((await instance.call(`/v1/organization/${f.orgA.id}`, { token: key.token })).status).toBe(200);
    }
    await instance.close();
    const after = await server.database.db.select().from(requestUsage).where(eq(requestUsage.clientRowId, key.id));
    expect(after.map((r) => [r.endpoint, r.count])).toEqual([['GET /v1/organization/:orgId', 3]]);
    // Another instance reads the written counts.
    const detail = await server.call(`/v1/admin/clients/${key.id}`, { token: f.staff.token });
    expect(detail.body.usageSummary).toMatchObject({ totalRequests: 3 });
  });
});
