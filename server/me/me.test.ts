import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { ctx, f, server } from '../../test/fixture-server.js';
import { createOrganization } from '../organizations/service.js';
import { createUser } from '../users/service.js';

describe('GET /v1/me', () => {
  it('refuses a request without a token or with a malformed one (401)', async () => {
    expect((await server.call('/v1/me')).status).toBe(401);
    const bad = await server.call('/v1/me', { token: 'not-a-jwt' });
    expect(bad.status).toBe(401);
    expect(bad.body.errorCode).toBe('unauthorized');
  });

  it('refuses API keys, even superadmin ones (403): keys use /v1/client/me', async () => {
    const key = await f.client('all', { superadmin: true });
    const res = await server.call('/v1/me', { token: key.token });
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe('forbidden');
  });

  it('gives a member their own organizations with their role, and nothing of other organizations', async () => {
    const res = await server.call('/v1/me', { token: f.member.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: f.member.id,
      name: 'Mia Member',
      email: 'member@harbor.test',
      staff: false,
      organizations: [{ id: f.orgA.id, name: 'Harbor Construction', role: 'member' }],
      organizationsTruncated: false,
    });
    const admin = await server.call('/v1/me', { token: f.admin.token });
    expect(admin.body.organizations).toEqual([{ id: f.orgA.id, name: 'Harbor Construction', role: 'admin' }]);
  });

  it('gives staff every organization by name, marking their own memberships', async () => {
    const orgC = await createOrganization(server.database.db, { name: 'Apex Civil' });
    const staffAdmin = await createUser(server.database.db, {
      email: 'staff-admin@sitefile.test',
      name: 'Staff Admin',
      staff: true,
      memberships: [{ orgId: f.orgB.id, role: 'admin' }],
    });
    const res = await server.call('/v1/me', { token: f.userToken(staffAdmin.id) });
    expect(res.status).toBe(200);
    expect(res.body.staff).toBe(true);
    expect(res.body.organizations).toEqual([
      { id: orgC.id, name: 'Apex Civil', role: 'staff' },
      { id: f.orgA.id, name: 'Harbor Construction', role: 'staff' },
      { id: f.orgB.id, name: 'Ridgeline Builders', role: 'admin' },
    ]);
  });
});

describe('GET /v1/admin/organizations/{orgId}/projects', () => {
  it('refuses no token (401), API keys and non-staff people (403)', async () => {
    const path = `/v1/admin/organizations/${f.orgB.id}/projects`;
    expect((await server.call(path)).status).toBe(401);
    const key = await f.client('all', { superadmin: true });
    expect((await server.call(path, { token: key.token })).status).toBe(403);
    const admin = await server.call(`/v1/admin/organizations/${f.orgA.id}/projects`, { token: f.admin.token });
    expect(admin.status).toBe(403);
    expect(admin.body.error).toBe('Insufficient permissions');
  });

  it('gives staff the projects of any organization by name, and 404 for an unknown one', async () => {
    const res = await server.call(`/v1/admin/organizations/${f.orgA.id}/projects?limit=1`, { token: f.staff.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(['Dockside Offices']);
    expect(res.body.hasMore).toBe(true);
    const next = await server.call(
      `/v1/admin/organizations/${f.orgA.id}/projects?limit=1&cursor=${encodeURIComponent(res.body.nextCursor)}`,
      { token: f.staff.token },
    );
    expect(next.body.data.map((p: { name: string }) => p.name)).toEqual(['Pier 9 Terminal']);
    expect(next.body.hasMore).toBe(false);
    const other = await server.call(`/v1/admin/organizations/${f.orgB.id}/projects`, { token: f.staff.token });
    expect(other.body.data.map((p: { id: string }) => p.id)).toEqual([f.projectB1.id]);
    const missing = await server.call('/v1/admin/organizations/org_nope/projects', { token: f.staff.token });
    expect(missing.status).toBe(404);
    const badLimit = await server.call(`/v1/admin/organizations/${f.orgA.id}/projects?limit=500`, {
      token: f.staff.token,
    });
    expect(badLimit.status).toBe(400);
  });
});

describeAuthMatrix('me', ctx, { method: 'GET', path: '/v1/me' });

describeAuthMatrix('organization projects for staff', ctx, {
  method: 'GET',
  path: '/v1/admin/organizations/{orgId}/projects',
});
