import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { all, ctx, expectDocuments, fixtures, ids, server, sorted, walk } from './document-lists.fixtures.js';

describe('GET /v1/organization/{orgId}/project/{projectId}/documents', () => {
  it('lists every document of the project and nothing else', async () => {
    const { orgA, projectA1 } = fixtures;
    const key = await fixtures.client(['document:read'], { orgs: [orgA.id] });
    const path = `/v1/organization/${orgA.id}/project/${projectA1.id}/documents`;
    const res = await walk(path, {}, key.token, 25);
    expect(sorted(res.uids)).toEqual(ids(all.filter((d) => d.projectId === projectA1.id)));
    const rfis = await walk(path, { format: 'rfi', include: 'assignees', includeMeta: 'true' }, key.token);
    expect(sorted(rfis.uids)).toEqual(ids(all.filter((d) => d.projectId === projectA1.id && d.format === 'rfi')));
    const meta = await server.call(`${path}?includeMeta=true&limit=1`, { token: key.token });
    const rfiCount = meta.body.meta.filters.format.find((f: { value: string }) => f.value === 'rfi').count;
    expect(rfiCount).toBe(rfis.total);
    expect(meta.body.meta.filters.type.map((t: { value: string }) => t.value)).toContain('Submittal');
  });

  it('refuses projectId and organizationId parameters (the path gives them)', async () => {
    const { orgA, projectA1, projectB1 } = fixtures;
    const key = await fixtures.client(['document:read'], { orgs: [orgA.id] });
    const res = await server.call(
      `/v1/organization/${orgA.id}/project/${projectA1.id}/documents?projectId=${projectB1.id}`,
      { token: key.token },
    );
    expect(res.status).toBe(400);
  });

  it('streams CSV with the included columns', async () => {
    const { orgA, projectA1 } = fixtures;
    const key = await fixtures.client(['document:read'], { orgs: [orgA.id] });
    const res = await server.call(
      `/v1/organization/${orgA.id}/project/${projectA1.id}/documents?include=assignees,activityCount`,
      { token: key.token, headers: { accept: 'text/csv' } },
    );
    const [header, ...rows] = (res.body as string).split('\r\n').filter(Boolean);
    expect(header).toBe(
      'uid,id,title,format,type,status,priority,dueDate,issuedAt,createdAt,updatedAt,activityCount,assignees',
    );
    expect(rows).toHaveLength(all.filter((d) => d.projectId === projectA1.id).length);
  });
});

describeAuthMatrix('project documents', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/documents',
  expectOk: (res) => {
    expectDocuments(res);
    expect(res.body.total).toBe(all.filter((d) => d.projectId === fixtures.projectA1.id).length);
  },
});

describe('GET /v1/organization/{orgId}/project/{projectId}/documents/{documentUid}', () => {
  const onePath = (uid: string, projectId = fixtures.projectA1.id) =>
    `/v1/organization/${fixtures.orgA.id}/project/${projectId}/documents/${uid}`;

  it('answers any format as the list row, with the same include options', async () => {
    const key = await fixtures.client(['document:read'], { orgs: [fixtures.orgA.id] });
    const listPath = `/v1/organization/${fixtures.orgA.id}/project/${fixtures.projectA1.id}/documents`;
    const include = 'activityCount,assignees,consultants';
    const list = await walk(listPath, { include }, key.token);
    const byFormat = new Map(list.rows.map((row) => [row.format as string, row]));
    expect(byFormat.size).toBeGreaterThan(2);
    for (const row of byFormat.values()) {
      const res = await server.call(`${onePath(row.uid as string)}?include=${include}`, { token: key.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(row);
    }
    const plain = await server.call(onePath(list.uids[0] as string), { token: key.token });
    expect(plain.body.uid).toBe(list.uids[0]);
    expect(plain.body).not.toHaveProperty('assignees');
    const fixture = all.find((d) => d.id === list.uids[0]);
    expect(plain.body).toMatchObject({ id: fixture?.number, title: fixture?.title, updatedAt: fixture?.updatedAt });
  });

  it('is 404 for a document of another project, and 400 for an unknown include', async () => {
    const key = await fixtures.client(['document:read'], { orgs: [fixtures.orgA.id] });
    const otherProject = all.find((d) => d.projectId === fixtures.projectA2.id) as (typeof all)[number];
    const res = await server.call(onePath(otherProject.id), { token: key.token });
    expect(res.status).toBe(404);
    expect(res.body.errorCode).toBe('not_found');
    expect((await server.call(onePath('nope'), { token: key.token })).status).toBe(404);
    const bad = await server.call(`${onePath(otherProject.id, fixtures.projectA2.id)}?include=secrets`, {
      token: key.token,
    });
    expect(bad.status).toBe(400);
  });
});

describeAuthMatrix('one project document', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/documents/{documentUid}',
  vars: () => ({ documentUid: all.find((d) => d.projectId === fixtures.projectA1.id)?.id as string }),
  expectOk: (res) => {
    expect(res.status).toBe(200);
    expect(res.body.uid).toMatch(/^a1_/);
  },
});
