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
