import { beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import type { ClientFixture, Fixtures } from '../../test/harness.js';
import { createAs, ctx, exchange, f, server } from './api-keys.fixtures.js';

describeAuthMatrix('clients', ctx, {
  method: 'POST',
  path: '/v1/client',
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
