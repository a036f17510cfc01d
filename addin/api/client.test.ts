import { describe, expect, it } from 'vitest';
import { f, server } from '../../test/fixture-server.js';
import { ApiCallError, createApiClient } from './client.js';

/** The add-in's API client against a real server: every answer parsed by the shared schemas, errors in plain words. */

const clientFor = (token: string | undefined, onRejected: () => void = () => {}) =>
  createApiClient({ accessToken: async () => token, rejected: onRejected }, server.url);

describe('the add-in API client', () => {
  it('reads the signed-in person, projects and settings through the shared schemas', async () => {
    const api = clientFor(f.member.token);
    const me = await api.me();
    expect(me.organizations.map((o) => o.name)).toEqual(['Harbor Construction']);
    const projects = await api.searchProjects(f.orgA.id, '', 10);
    expect(projects.data.map((p) => p.name)).toEqual(['Dockside Offices', 'Pier 9 Terminal']);
    const found = await api.searchProjects(f.orgA.id, 'pier9', 10);
    expect(found.data.map((p) => p.name)).toEqual(['Pier 9 Terminal']);
    const asStaff = await clientFor(f.staff.token).searchProjects(f.orgB.id, 'summit', 10, true);
    expect(asStaff.data.map((p) => p.name)).toEqual(['Summit Hospital']);
    expect(await api.filingSettings(f.orgA.id)).toMatchObject({ organizationId: f.orgA.id, aiSuggest: false });
  });

  it('files an e-mail with the JSON form and finds it again', async () => {
    const api = clientFor(f.member.token);
    const target = { orgId: f.orgA.id, projectId: f.projectA1.id };
    const form = {
      subject: 'Crane schedule',
      from: { address: 'ops@lift.example' },
      to: [{ address: 'member@harbor.test' }],
      cc: [],
      internetMessageId: '<crane-1@lift.example>',
      bodyText: 'Crane on site Monday.',
      attachments: [],
    };
    const first = await api.fileForm(target, form);
    expect(first.duplicate).toBe(false);
    const again = await api.fileForm(target, form);
    expect(again).toMatchObject({ duplicate: true, id: first.id });
    const lookup = await api.lookup('<crane-1@lift.example>');
    expect(lookup.filings.map((x) => x.projectName)).toEqual(['Pier 9 Terminal']);
    const found = await api.searchFiled(f.orgA.id, f.projectA1.id, 'crane');
    expect(found.data.map((e) => e.subject)).toEqual(['Crane schedule']);
  });

  it('turns refusals into plain messages: validation names the field, 403 says what is missing', async () => {
    const api = clientFor(f.member.token);
    const invalid = await api
      .fileForm(
        { orgId: f.orgA.id, projectId: f.projectA1.id },
        { subject: 'x', from: { address: 'not-an-address' }, to: [], cc: [], attachments: [] },
      )
      .catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiCallError);
    expect((invalid as ApiCallError).status).toBe(400);
    expect((invalid as ApiCallError).message).toMatch(/from/);
    const outside = await api.searchProjects(f.orgB.id, '', 10).catch((e: unknown) => e);
    expect(outside).toMatchObject({ status: 403, retryable: false });
    expect((outside as Error).message).toMatch(/needs the project:read permission there\. Ask an admin/);
    const elsewhere = await api
      .fileForm(
        { orgId: f.orgB.id, projectId: f.projectB1.id },
        { subject: 'x', from: { address: 'a@b.example' }, to: [], cc: [], attachments: [] },
      )
      .catch((e: unknown) => e);
    expect(elsewhere).toMatchObject({ status: 403, retryable: false });
    expect((elsewhere as Error).message).toMatch(/^You cannot file into this project: your account needs to be on/);
    const staffOnly = await api
      .keys('staff')
      .list()
      .catch((e: unknown) => e);
    expect(staffOnly).toMatchObject({ status: 403 });
  });

  it('signs out on 401 and says so; with no token it does not call the server', async () => {
    let signedOut = 0;
    const expired = clientFor('not-a-token', () => signedOut++);
    await expect(expired.me()).rejects.toMatchObject({
      status: 401,
      message: 'Your sign-in has expired. Sign in again to continue.',
    });
    expect(signedOut).toBe(1);
    await expect(clientFor(undefined).me()).rejects.toMatchObject({ status: 401, errorCode: 'unauthorized' });
  });

  it('reports an unreachable server as retryable, and the connection as offline until it answers', async () => {
    const offline = createApiClient({ accessToken: async () => 't', rejected: () => {} }, 'http://127.0.0.1:9');
    await expect(offline.me()).rejects.toMatchObject({ status: 0, retryable: true });
    expect(offline.connection.isOffline()).toBe(true);
    const online = clientFor(f.member.token);
    await online.me();
    expect(online.connection.isOffline()).toBe(false);
  });

  it('says a message over 25 MB is too large, with no retry (413)', async () => {
    const api = clientFor(f.member.token);
    const tooLarge = await api
      .fileRaw({ orgId: f.orgA.id, projectId: f.projectA1.id }, new Uint8Array(26 * 1024 * 1024).fill(65))
      .catch((e: unknown) => e);
    expect(tooLarge).toMatchObject({ status: 413, retryable: false });
    expect((tooLarge as Error).message).toMatch(/larger than the 25 MB Sitefile accepts\. Leave out some attachments/);
  });

  it('manages keys for staff: create shows the secret once, rotate gives a new one, delete removes it', async () => {
    const keys = clientFor(f.staff.token).keys('staff');
    const created = await keys.create({
      name: 'Console test key',
      permissions: { 'project:read': true },
      scopes: { orgs: [f.orgA.id], projects: [] },
    });
    expect(created.client_secret.length).toBeGreaterThan(20);
    const listed = await keys.list();
    const row = listed.data.find((k) => k.id === created.id)!;
    expect(row).not.toHaveProperty('client_secret');
    const disabled = await keys.update(created.id, { enabled: false });
    expect(disabled.enabled).toBe(false);
    const rotated = await keys.rotate(created.id);
    expect(rotated.client_secret).not.toBe(created.client_secret);
    await keys.remove(created.id);
    expect((await keys.list()).data.some((k) => k.id === created.id)).toBe(false);
  });

  it('lets an organization admin manage that organization’s keys and its aiSuggest switch', async () => {
    const api = clientFor(f.admin.token);
    const keys = api.keys({ orgId: f.orgA.id });
    const created = await keys.create({
      name: 'Admin console key',
      permissions: { 'project:read': true },
      scopes: { orgs: [f.orgA.id], projects: [] },
    });
    expect(created.client_secret.length).toBeGreaterThan(20);
    expect((await keys.list()).data.map((k) => k.id)).toContain(created.id);
    expect((await keys.update(created.id, { enabled: false })).enabled).toBe(false);
    expect((await keys.rotate(created.id)).client_secret).not.toBe(created.client_secret);
    await keys.remove(created.id);
    expect((await keys.list()).data.some((k) => k.id === created.id)).toBe(false);
    const foreign = await api
      .keys({ orgId: f.orgA.id })
      .create({ name: 'Reaching out', permissions: {}, scopes: { orgs: [f.orgB.id], projects: [] } })
      .catch((e: unknown) => e);
    expect(foreign).toMatchObject({ status: 400 });

    expect((await api.setAiSuggest(f.orgA.id, true)).aiSuggest).toBe(true);
    expect((await api.filingSettings(f.orgA.id)).aiSuggest).toBe(true);
    expect((await api.setAiSuggest(f.orgA.id, false)).aiSuggest).toBe(false);
    await expect(api.setAiSuggest(f.orgB.id, true)).rejects.toMatchObject({ status: 403 });
  });
});
