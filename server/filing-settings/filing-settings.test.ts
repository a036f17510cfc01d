import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { ctx, f, server } from '../../test/fixture-server.js';
import { emailFilingSettings } from '../db/schema.js';
import { createUser } from '../users/service.js';

const adminPath = (orgId = f.orgA.id) => `/v1/admin/organizations/${orgId}/email-filing-settings`;
const staffToken = () => f.userToken(f.staff.id);
const patch = (json: unknown, orgId?: string, token = staffToken()) =>
  server.call(adminPath(orgId), { method: 'PATCH', token, json });

const settingsActivity = async (orgId: string) => {
  const key = await f.client(['organization:read'], { orgs: [orgId] });
  const res = await server.call(`/v1/organization/${orgId}/activity?action=settings_changed`, { token: key.token });
  expect(res.status).toBe(200);
  return res.body.data as { actor: { uid: string; email: string }; title: string; details: unknown }[];
};

describeAuthMatrix('org email-filing settings', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/email-filing-settings',
});

describeAuthMatrix('admin email-filing settings (read)', ctx, {
  method: 'GET',
  path: '/v1/admin/organizations/{orgId}/email-filing-settings',
});

describeAuthMatrix('admin email-filing settings (update)', ctx, {
  method: 'PATCH',
  path: '/v1/admin/organizations/{orgId}/email-filing-settings',
  json: { aiSuggest: false },
});

describe('e-mail filing settings', () => {
  it('starts off, never changed', async () => {
    const res = await server.call(adminPath(), { token: staffToken() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { organizationId: f.orgA.id, aiSuggest: false, updatedAt: null } });
  });

  it('turns aiSuggest on, records who and old → new, and the organization route reads it at once', async () => {
    const res = await patch({ aiSuggest: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { organizationId: f.orgA.id, aiSuggest: true, updatedAt: server.clock.now().toISOString() },
    });
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const read = await server.call(`/v1/organization/${f.orgA.id}/email-filing-settings`, { token: key.token });
    expect(read.body).toEqual(res.body);
    // The plural alias answers too.
    const plural = await server.call(`/v1/organizations/${f.orgA.id}/email-filing-settings`, { token: key.token });
    expect(plural.body).toEqual(res.body);

    const entries = await settingsActivity(f.orgA.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { uid: f.staff.id, email: 'staff@sitefile.test' },
      title: 'E-mail filing AI suggestions turned on',
      details: { setting: 'emailFiling.aiSuggest', from: false, to: true },
    });
    // The other organization is untouched.
    expect((await server.call(adminPath(f.orgB.id), { token: staffToken() })).body.data.aiSuggest).toBe(false);
  });

  it('records each change, and nothing for a PATCH that changes nothing', async () => {
    server.clock.advance(60_000);
    expect((await patch({ aiSuggest: true })).body.data.updatedAt).not.toBe(server.clock.now().toISOString());
    expect(await settingsActivity(f.orgA.id)).toHaveLength(1);
    const off = await patch({ aiSuggest: false });
    expect(off.body.data).toMatchObject({ aiSuggest: false, updatedAt: server.clock.now().toISOString() });
    const entries = await settingsActivity(f.orgA.id);
    expect(entries.map((e) => e.details)).toEqual([
      { setting: 'emailFiling.aiSuggest', from: true, to: false },
      { setting: 'emailFiling.aiSuggest', from: false, to: true },
    ]);
    const [row] = await server.database.db
      .select()
      .from(emailFilingSettings)
      .where(eq(emailFilingSettings.organizationId, f.orgA.id));
    expect(row).toMatchObject({ aiSuggest: false, updatedById: f.staff.id });
  });

  it('rejects anything but {aiSuggest: boolean} with a 400', async () => {
    for (const json of [{}, { aiSuggest: 'true' }, { aiSuggest: 1 }, { aiSuggest: null }, { aiSuggest: true, x: 1 }]) {
      const res = await patch(json);
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe('validation_failed');
    }
    const raw = await server.call(adminPath(), {
      method: 'PATCH',
      token: staffToken(),
      headers: { 'content-type': 'application/json' },
      body: '[true]',
    });
    expect(raw.status).toBe(400);
  });

  it('answers 404 for an unknown organization', async () => {
    expect((await patch({ aiSuggest: true }, 'org_missing')).status).toBe(404);
    expect((await server.call(adminPath('org_missing'), { token: staffToken() })).status).toBe(404);
  });

  it('refuses an organization admin who is not staff', async () => {
    expect((await patch({ aiSuggest: true }, f.orgA.id, f.userToken(f.admin.id))).status).toBe(403);
  });
});

describeAuthMatrix('organization email-filing settings (update by its admins)', ctx, {
  method: 'PATCH',
  path: '/v1/organization/{orgId}/email-filing-settings',
  json: { aiSuggest: false },
});

describe('e-mail filing settings changed by an organization admin', () => {
  const orgPath = (orgId = f.orgB.id) => `/v1/organization/${orgId}/email-filing-settings`;

  it('turns aiSuggest on through the organization route, recorded like the staff PATCH and read at once', async () => {
    const adminB = await createUser(server.database.db, {
      email: 'admin@ridgeline.test',
      name: 'Rae Ridgeline',
      password: 'admin-pass-2',
      memberships: [{ orgId: f.orgB.id, role: 'admin' }],
    });
    const token = f.userToken(adminB.id);
    const res = await server.call(orgPath(), { method: 'PATCH', token, json: { aiSuggest: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { organizationId: f.orgB.id, aiSuggest: true, updatedAt: server.clock.now().toISOString() },
    });
    const key = await f.client(['organization:read'], { orgs: [f.orgB.id] });
    expect((await server.call(orgPath(), { token: key.token })).body).toEqual(res.body);
    const entries = await settingsActivity(f.orgB.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { uid: adminB.id, email: 'admin@ridgeline.test' },
      details: { setting: 'emailFiling.aiSuggest', from: false, to: true },
    });
    // The same validation as the staff route.
    const bad = await server.call(orgPath(), { method: 'PATCH', token, json: { aiSuggest: 'yes' } });
    expect(bad.status).toBe(400);
    // Organization A is not this admin's.
    expect((await server.call(orgPath(f.orgA.id), { method: 'PATCH', token, json: { aiSuggest: true } })).status).toBe(
      403,
    );
  });

  it('answers 404 to staff for an unknown organization', async () => {
    const res = await server.call(orgPath('org_missing'), {
      method: 'PATCH',
      token: staffToken(),
      json: { aiSuggest: true },
    });
    expect(res.status).toBe(404);
  });
});
