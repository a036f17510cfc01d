import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { ctx, f, server } from '../../test/fixture-server.js';
import { addinSignIn } from '../oauth/browser.fixtures.js';
import { createUser } from './service.js';

/** A fresh person in organization A with a token, for cases that change them. */
const personInA = async (role: 'admin' | 'member' = 'member') => {
  const email = `p-${randomUUID()}@harbor.test`;
  const person = await createUser(server.database.db, {
    email,
    name: `Pat ${email.slice(2, 8)}`,
    password: 'person-pass-1',
    memberships: [{ orgId: f.orgA.id, role }],
  });
  return { ...person, password: 'person-pass-1', token: f.userToken(person.id) };
};

const fresh = async () => ({ userId: (await personInA()).id });

describeAuthMatrix('members list', ctx, { method: 'GET', path: '/v1/organization/{orgId}/members' });
describeAuthMatrix('member role', ctx, {
  method: 'PATCH',
  path: '/v1/organization/{orgId}/members/{userId}',
  json: { role: 'member' },
  vars: fresh,
});
describeAuthMatrix('member removal', ctx, {
  method: 'DELETE',
  path: '/v1/organization/{orgId}/members/{userId}',
  vars: fresh,
  expectOk: (res) => expect(res.status).toBe(204),
});
describeAuthMatrix('disable a person', ctx, {
  method: 'PATCH',
  path: '/v1/admin/users/{userId}',
  json: { disabled: true },
  vars: fresh,
});

const settings = () => `/v1/organization/${f.orgA.id}/email-filing-settings`;
const patchSettings = (token: string) => server.call(settings(), { method: 'PATCH', token, json: { aiSuggest: true } });
const members = (token = f.admin.token, query = '') =>
  server.call(`/v1/organization/${f.orgA.id}/members${query}`, { token });
const setRole = (userId: string, role: string, token = f.admin.token) =>
  server.call(`/v1/organization/${f.orgA.id}/members/${userId}`, { method: 'PATCH', token, json: { role } });
const remove = (userId: string, token = f.admin.token, orgId = f.orgA.id) =>
  server.call(`/v1/organization/${orgId}/members/${userId}`, { method: 'DELETE', token });
const setDisabled = (userId: string, disabled: boolean, token = f.staff.token) =>
  server.call(`/v1/admin/users/${userId}`, { method: 'PATCH', token, json: { disabled } });

describe('organization members', () => {
  it('lists members by name with role and disabled, searchable, paged to the end', async () => {
    const res = await members(f.admin.token, '?search=harbor.test&limit=50');
    expect(res.status).toBe(200);
    const ada = res.body.data.find((m: { email: string }) => m.email === 'admin@harbor.test');
    expect(ada).toMatchObject({ userId: f.admin.id, name: 'Ada Admin', role: 'admin', disabled: false });
    const mia = res.body.data.find((m: { email: string }) => m.email === 'member@harbor.test');
    expect(mia).toMatchObject({ userId: f.member.id, role: 'member', disabled: false });
    const names = res.body.data.map((m: { name: string }) => m.name.toLowerCase());
    expect(names).toEqual([...names].sort());

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await members(f.admin.token, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((m: { uid: string }) => m.uid));
      cursor = page.body.nextCursor;
    } while (cursor);
    const all = await members(f.admin.token, '?limit=50');
    expect(seen).toEqual(all.body.data.map((m: { uid: string }) => m.uid));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it('a member promoted to admin manages the organization on the next request; demoted, no longer', async () => {
    const pat = await personInA();
    expect((await patchSettings(pat.token)).status).toBe(403);
    const promoted = await setRole(pat.id, 'admin');
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({ userId: pat.id, role: 'admin', email: pat.email });
    expect((await patchSettings(pat.token)).status).toBe(200);

    const demoted = await setRole(pat.id, 'member', pat.token);
    expect(demoted.status).toBe(200);
    expect(demoted.body.data.role).toBe('member');
    expect((await patchSettings(pat.token)).status).toBe(403);
    expect((await members(pat.token)).status).toBe(403);
  });

  it('a removed member loses the organization on the next request and keeps their account', async () => {
    const pat = await personInA();
    expect((await server.call(`/v1/organization/${f.orgA.id}`, { token: pat.token })).status).toBe(200);
    expect((await remove(pat.id)).status).toBe(204);
    expect((await server.call(`/v1/organization/${f.orgA.id}`, { token: pat.token })).status).toBe(403);
    expect((await server.call('/v1/me', { token: pat.token })).status).toBe(200);
    const listed = await members(f.admin.token, `?search=${encodeURIComponent(pat.email)}`);
    expect(listed.body.data).toEqual([]);
    const again = await remove(pat.id);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ errorCode: 'not_found', error: 'Member not found' });
  });

  it("keeps the organization's last admin: demoting or removing them is a 409, with another admin it is not", async () => {
    // Organization A has Ada as its only admin.
    const demote = await setRole(f.admin.id, 'member');
    expect(demote.status).toBe(409);
    expect(demote.body).toMatchObject({ errorCode: 'conflict', error: 'An organization keeps at least one admin' });
    expect((await remove(f.admin.id)).status).toBe(409);
    expect((await patchSettings(f.admin.token)).status).toBe(200);

    const second = await personInA('admin');
    expect((await remove(second.id, f.admin.token)).status).toBe(204);
    expect((await patchSettings(second.token)).status).toBe(403);
  });

  it('refuses bad input with a 400 naming it, and an unknown member with a 404', async () => {
    const bad = await setRole(f.member.id, 'owner');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/role/);
    const extra = await server.call(`/v1/organization/${f.orgA.id}/members/${f.member.id}`, {
      method: 'PATCH',
      token: f.admin.token,
      json: { role: 'member', staff: true },
    });
    expect(extra.status).toBe(400);
    const missing = await setRole('usr_missing', 'admin');
    expect(missing.status).toBe(404);
    // A member of organization B is not a member of A, even for staff.
    const other = await createUser(server.database.db, {
      email: `b-${randomUUID()}@ridge.test`,
      name: 'Bo',
      memberships: [{ orgId: f.orgB.id, role: 'member' }],
    });
    expect((await remove(other.id, f.staff.token)).status).toBe(404);
    expect((await remove(other.id, f.staff.token, f.orgB.id)).status).toBe(204);
  });
});

describe('disabling a person (staff)', () => {
  it('refuses every token of theirs on the next request and their sign-in; enabling restores them', async () => {
    const pat = await personInA();
    const addin = await addinSignIn(server, { email: pat.email, password: pat.password });
    expect((await server.call('/v1/me', { token: addin.access_token })).status).toBe(200);
    expect((await server.call('/v1/me', { token: pat.token })).status).toBe(200);

    const disabled = await setDisabled(pat.id, true);
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toMatchObject({ id: pat.id, email: pat.email, staff: false });
    expect(disabled.body.data.disabledAt).toBe(server.clock.now().toISOString());
    expect((await server.call('/v1/me', { token: addin.access_token })).status).toBe(401);
    expect((await server.call('/v1/me', { token: pat.token })).status).toBe(401);
    await expect(addinSignIn(server, { email: pat.email, password: pat.password })).rejects.toThrow();
    const listed = await members(f.admin.token, `?search=${encodeURIComponent(pat.email)}`);
    expect(listed.body.data[0]).toMatchObject({ userId: pat.id, disabled: true });

    const enabled = await setDisabled(pat.id, false);
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.disabledAt).toBeNull();
    expect((await server.call('/v1/me', { token: pat.token })).status).toBe(200);
    expect((await addinSignIn(server, { email: pat.email, password: pat.password })).access_token).toBeTruthy();
  });

  it('disabling twice keeps the first time; yourself is a 409; an unknown person a 404', async () => {
    const pat = await personInA();
    const first = await setDisabled(pat.id, true);
    server.clock.advance(60_000);
    const second = await setDisabled(pat.id, true);
    expect(second.body.data.disabledAt).toBe(first.body.data.disabledAt);
    const self = await setDisabled(f.staff.id, true);
    expect(self.status).toBe(409);
    expect(self.body).toMatchObject({ errorCode: 'conflict', error: 'You cannot disable yourself' });
    expect((await server.call('/v1/me', { token: f.staff.token })).status).toBe(200);
    expect((await setDisabled('usr_missing', true)).status).toBe(404);
    const bad = await server.call(`/v1/admin/users/${pat.id}`, {
      method: 'PATCH',
      token: f.staff.token,
      json: { disabled: 'yes' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/disabled/);
  });
});
