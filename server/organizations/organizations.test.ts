import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { ctx, f, server } from '../../test/fixture-server.js';
import { encodeCursor } from '../cursor.js';
import { createOrganization, createProject } from './service.js';

describeAuthMatrix('organizations', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}',
  expectOk: (res) => {
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: f.orgA.id, name: 'Harbor Construction', createdAt: expect.any(String) });
  },
});

describeAuthMatrix('organizations', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/project',
  expectOk: (res) => {
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { name: string }) => p.name)).toEqual(['Dockside Offices', 'Pier 9 Terminal']);
  },
});

describeAuthMatrix('organizations', ctx, {
  method: 'GET',
  path: '/v1/organization',
  expectOk: (res) => {
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [{ id: f.orgA.id, name: 'Harbor Construction', createdAt: expect.any(String) }],
      nextCursor: null,
      hasMore: false,
    });
  },
});

const ids = (body: { data: { id: string }[] }) => body.data.map((p) => p.id);

describe('GET /v1/organizations', () => {
  it('pages a superadmin key through every organization, by name, under both forms', async () => {
    const key = await f.client(['organization:read'], { superadmin: true });
    const page1 = await server.call('/v1/organizations?limit=1', { token: key.token });
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ data: [{ id: f.orgA.id, name: 'Harbor Construction' }], hasMore: true });
    const page2 = await server.call(`/v1/organization?limit=1&cursor=${page1.body.nextCursor}`, { token: key.token });
    expect(page2.body).toMatchObject({ data: [{ id: f.orgB.id, name: 'Ridgeline Builders' }], hasMore: false });
    expect(page2.body.nextCursor).toBeNull();
  });

  it('lists an organization reached through one of its projects, and a member’s own organizations', async () => {
    const key = await f.client(['organization:read'], {
      projects: [{ orgId: f.orgB.id, projectId: f.projectB1.id }],
    });
    expect(ids((await server.call('/v1/organizations', { token: key.token })).body)).toEqual([f.orgB.id]);
    expect(ids((await server.call('/v1/organizations', { token: f.member.token })).body)).toEqual([f.orgA.id]);
    const none = await f.client(['organization:read']);
    expect((await server.call('/v1/organizations', { token: none.token })).body).toEqual({
      data: [],
      nextCursor: null,
      hasMore: false,
    });
  });

  it('refuses unknown parameters, bad limits and foreign cursors (400)', async () => {
    const key = await f.client(['organization:read', 'project:read'], { superadmin: true });
    for (const query of ['bogus=1', 'limit=51', 'limit=0', 'cursor=garbage']) {
      const res = await server.call(`/v1/organizations?${query}`, { token: key.token });
      expect(res.status, query).toBe(400);
    }
    const projects = await server.call(`/v1/organization/${f.orgA.id}/project?limit=1`, { token: key.token });
    const foreign = await server.call(`/v1/organizations?cursor=${projects.body.nextCursor}`, { token: key.token });
    expect(foreign.status).toBe(400);
  });
});

describe('GET /v1/organization/{orgId}', () => {
  it('answers under the plural alias with the same body', async () => {
    const key = await f.client(['organization:read'], { orgs: [f.orgA.id] });
    const singular = await server.call(`/v1/organization/${f.orgA.id}`, { token: key.token });
    const plural = await server.call(`/v1/organizations/${f.orgA.id}`, { token: key.token });
    expect(plural.status).toBe(200);
    expect(plural.body).toEqual(singular.body);
  });

  it('serves a key scoped to one project of the organization', async () => {
    const key = await f.client(['organization:read'], {
      projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id }],
    });
    expect((await server.call(`/v1/organization/${f.orgA.id}`, { token: key.token })).status).toBe(200);
    expect((await server.call(`/v1/organization/${f.orgB.id}`, { token: key.token })).status).toBe(403);
  });

  it('answers a superadmin key naming an unknown organization with a 404', async () => {
    const key = await f.client(['organization:read'], { superadmin: true });
    expect((await server.call(`/v1/organization/${f.orgB.id}`, { token: key.token })).status).toBe(200);
    const res = await server.call('/v1/organization/org_missing', { token: key.token });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ errorCode: 'not_found', error: 'Organization not found' });
  });

  it('serves organization members their own organization only', async () => {
    expect((await server.call(`/v1/organization/${f.orgA.id}`, { token: f.member.token })).status).toBe(200);
    expect((await server.call(`/v1/organization/${f.orgB.id}`, { token: f.member.token })).status).toBe(403);
  });
});

describe('GET /v1/organization/{orgId}/project', () => {
  it('lists only the granted projects to a project-scoped key', async () => {
    const key = await f.client(['project:read'], { projects: [{ orgId: f.orgA.id, projectId: f.projectA1.id }] });
    const res = await server.call(`/v1/organizations/${f.orgA.id}/projects`, { token: key.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        {
          id: f.projectA1.id,
          organizationId: f.orgA.id,
          name: 'Pier 9 Terminal',
          code: null,
          aliases: [],
          siteAddress: null,
          referenceNumbers: [],
          createdAt: expect.any(String),
        },
      ],
      nextCursor: null,
      hasMore: false,
    });
  });

  it('pages by name with a keyset cursor, each project once', async () => {
    const { id: orgId } = await createOrganization(server.database.db, { name: 'Paging Co' });
    const names = ['Delta', 'Alpha', 'Echo', 'Charlie', 'Bravo'];
    for (const name of names) await createProject(server.database.db, { organizationId: orgId, name });
    const key = await f.client(['project:read'], { orgs: [orgId] });
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: Awaited<ReturnType<typeof server.call>> = await server.call(
        `/v1/organization/${orgId}/project?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        { token: key.token },
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((p: { name: string }) => p.name));
      cursor = res.body.nextCursor;
      expect(res.body.hasMore).toBe(cursor !== null);
      pages += 1;
    } while (cursor);
    expect(seen).toEqual([...names].sort());
    expect(pages).toBe(3);
    const defaultPage = await server.call(`/v1/organization/${orgId}/project`, { token: key.token });
    expect(defaultPage.body.data).toHaveLength(5);
  });

  it('rejects out-of-range limits and foreign or garbage cursors (400)', async () => {
    const key = await f.client(['project:read'], { orgs: [f.orgA.id, f.orgB.id] });
    const first = await server.call(`/v1/organization/${f.orgA.id}/project?limit=1`, { token: key.token });
    expect(ids(first.body)).toHaveLength(1);
    for (const query of ['limit=0', 'limit=51', 'limit=2.5', 'cursor=not-a-cursor']) {
      const res = await server.call(`/v1/organization/${f.orgA.id}/project?${query}`, { token: key.token });
      expect(res.status, query).toBe(400);
    }
    const foreign = await server.call(`/v1/organization/${f.orgB.id}/project?cursor=${first.body.nextCursor}`, {
      token: key.token,
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatch(/Cursor does not match/);
    const forged = encodeCursor(
      server.app.context.cursorKey,
      { k: [42], id: 'x' },
      { list: 'projects', orgId: f.orgA.id },
    );
    const res = await server.call(`/v1/organization/${f.orgA.id}/project?cursor=${forged}`, { token: key.token });
    expect(res).toMatchObject({ status: 400, body: { error: 'Invalid cursor' } });
  });

  it('searches name, code and aliases, within the caller’s scope, best match first and a page at a time', async () => {
    const { id: orgId } = await createOrganization(server.database.db, { name: 'Search Co' });
    const add = (name: string, more: { code?: string; aliases?: string[] } = {}) =>
      createProject(server.database.db, { organizationId: orgId, name, aliases: [], ...more });
    const harbour = await add('Harbour Bridge', { code: 'HB-7' });
    const library = await add('Lakeshore Public Library', { code: '4410', aliases: ['Old Town Books'] });
    await add('50% Fit-out_B');
    await add('Quarry Road');
    const member = await f.client(['project:read'], { orgs: [orgId] });
    const found = async (search: string, token = member.token) => {
      const res = await server.call(`/v1/organization/${orgId}/project?search=${encodeURIComponent(search)}`, {
        token,
      });
      expect(res.status, search).toBe(200);
      return res.body.data.map((p: { name: string }) => p.name);
    };
    expect(await found('bridge')).toEqual(['Harbour Bridge']);
    expect(await found('hb-7')).toEqual(['Harbour Bridge']);
    expect(await found('441')).toEqual(['Lakeshore Public Library']);
    expect(await found('town books')).toEqual(['Lakeshore Public Library']);
    // A word starting with the letter ranks first; the rest by name.
    expect(await found('r')).toEqual(['Quarry Road', 'Harbour Bridge', 'Lakeshore Public Library']);
    // Punctuation is ignored, never a wildcard: "%" alone finds nothing rather than everything.
    expect(await found('50% fit')).toEqual(['50% Fit-out_B']);
    expect(await found('fit-out_b')).toEqual(['50% Fit-out_B']);
    expect(await found('%')).toEqual([]);
    expect(await found('nothing like it')).toEqual([]);
    // A key scoped to one project finds only that one.
    const narrow = await f.client(['project:read'], { projects: [{ orgId, projectId: library.id }] });
    expect(await found('r', narrow.token)).toEqual(['Lakeshore Public Library']);

    // Paged in rank order; a cursor continues its own search only.
    const first = await server.call(`/v1/organization/${orgId}/project?search=r&limit=2`, { token: member.token });
    expect(first.body).toMatchObject({ hasMore: true, data: [{ name: 'Quarry Road' }, { id: harbour.id }] });
    const next = await server.call(
      `/v1/organization/${orgId}/project?search=r&limit=2&cursor=${first.body.nextCursor}`,
      { token: member.token },
    );
    expect(next.body).toMatchObject({ hasMore: false, data: [{ id: library.id }] });
    const otherSearch = await server.call(
      `/v1/organization/${orgId}/project?search=a&limit=2&cursor=${first.body.nextCursor}`,
      { token: member.token },
    );
    expect(otherSearch.status).toBe(400);
    for (const search of ['', '   ', 'x'.repeat(201)]) {
      const res = await server.call(`/v1/organization/${orgId}/project?search=${search}`, { token: member.token });
      expect(res.status, JSON.stringify(search)).toBe(400);
    }
  });

  it('serves a superadmin key every organization’s projects', async () => {
    const key = await f.client(['project:read'], { superadmin: true });
    const res = await server.call(`/v1/organization/${f.orgB.id}/project`, { token: key.token });
    expect(ids(res.body)).toEqual([f.projectB1.id]);
  });
});

describeAuthMatrix('project create', ctx, {
  method: 'POST',
  path: '/v1/organization/{orgId}/project',
  json: { name: 'Matrix Yard' },
  expectOk: (res) => expect(res.status).toBe(201),
});

describeAuthMatrix('project update', ctx, {
  method: 'PATCH',
  path: '/v1/organization/{orgId}/project/{projectId}',
  json: { aliases: [] },
});

describe('project code and aliases through the API', () => {
  const admin = () => f.userToken(f.admin.id);
  const base = () => `/v1/organization/${f.orgA.id}/project`;

  it('creates a project with code and aliases, lists it, and changes them with PATCH', async () => {
    const created = await server.call(base(), {
      method: 'POST',
      token: admin(),
      json: { name: 'Lakeshore Public Library', code: '4410', aliases: ['Lakeshore Library'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^prj_/),
      organizationId: f.orgA.id,
      name: 'Lakeshore Public Library',
      code: '4410',
      aliases: ['Lakeshore Library'],
      siteAddress: null,
      referenceNumbers: [],
      createdAt: expect.any(String),
    });
    const path = `${base()}/${created.body.id}`;
    const renamed = await server.call(path, {
      method: 'PATCH',
      token: admin(),
      json: { code: 'J-4410', aliases: ['LPL', 'The Library'] },
    });
    expect(renamed).toMatchObject({
      status: 200,
      body: { name: 'Lakeshore Public Library', code: 'J-4410', aliases: ['LPL', 'The Library'] },
    });
    const cleared = await server.call(path, { method: 'PATCH', token: admin(), json: { code: null, aliases: [] } });
    expect(cleared.body).toMatchObject({ code: null, aliases: [] });
    const listed = await server.call(`${base()}?limit=50`, { token: admin() });
    expect(listed.body.data.find((p: { id: string }) => p.id === created.body.id)).toEqual(cleared.body);
  });

  it('answers bad bodies with 400 and a project of another organization with 404', async () => {
    for (const json of [
      { name: '' },
      { name: 'X', code: 'two words' },
      { name: 'X', aliases: ['Same', 'same'] },
      { name: 'X', colour: 'red' },
    ]) {
      const res = await server.call(base(), { method: 'POST', token: admin(), json });
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body).toMatchObject({ errorCode: expect.any(String), error: expect.any(String) });
    }
    const empty = await server.call(`${base()}/${f.projectA1.id}`, { method: 'PATCH', token: admin(), json: {} });
    expect(empty.status).toBe(400);
    const foreign = await server.call(`${base()}/${f.projectB1.id}`, {
      method: 'PATCH',
      token: admin(),
      json: { name: 'Taken' },
    });
    expect(foreign).toMatchObject({ status: 404, body: { error: 'Project not found' } });
  });
});
