import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { describeAuthMatrix, expectRows } from '../../test/auth-matrix.js';
import { ctx, download, f, packageA1, server, sizes, token } from './drawings.fixtures.js';

// Reading drawings one by one: the project's list (by sheet number, paged) and one drawing with a signed URL.

const drawingsPath = (projectId = f.projectA1.id, orgId = f.orgA.id) =>
  `/v1/organization/${orgId}/project/${projectId}/drawings`;

const orgBToken = async () => (await f.client(['document:read'], { orgs: [f.orgB.id] })).token;

async function walk(query: string, limit: number) {
  const rows: { id: string; number: string; latestRevision: { revision: string; fileSize: number } | null }[] = [];
  let cursor: string | undefined;
  do {
    const res = await server.call(
      `${drawingsPath()}?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    rows.push(...res.body.data);
    cursor = res.body.nextCursor ?? undefined;
  } while (cursor);
  return rows;
}

const sheetsA1 = ['A-10', 'A-101', 'A-1010', 'A-2', 'S-201', 'X-001', 'X-002', 'X-003', 'X-004', 'X-005', 'X-006'];

describe('GET …/project/{projectId}/drawings', () => {
  it("pages through the project's drawings by sheet number, each with its latest revision", async () => {
    const rows = await walk('', 3);
    expect(rows.map((r) => r.number)).toEqual(sheetsA1);
    const a101 = rows.find((r) => r.number === 'A-101');
    expect(a101?.latestRevision).toMatchObject({ revision: 'B', fileSize: sizes['A-101 B'] });
    expect(rows.find((r) => r.number === 'X-005')?.latestRevision).toBeNull();
  });

  it('narrows to one package, and refuses a cursor of another package', async () => {
    const rows = await walk(`&drawingPackageId=${packageA1}`, 1);
    expect(rows.map((r) => r.number)).toEqual(['A-101', 'A-2']);
    const first = await server.call(`${drawingsPath()}?limit=1`, { token });
    const reused = await server.call(
      `${drawingsPath()}?limit=1&drawingPackageId=${packageA1}&cursor=${first.body.nextCursor}`,
      { token },
    );
    expect(reused.status).toBe(400);
  });

  it("never shows another organization's drawings", async () => {
    const res = await server.call(drawingsPath(f.projectB1.id, f.orgB.id), { token: await orgBToken() });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { number: string }) => r.number)).toEqual(['B-1']);
  });
});

describe('GET …/project/{projectId}/drawings/{drawingId}', () => {
  it('answers one drawing with a signed URL of its latest revision, which downloads that file', async () => {
    const [a101] = (await walk('', 50)).filter((r) => r.number === 'A-101');
    const res = await server.call(`${drawingsPath()}/${a101?.id}`, { token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: a101?.id,
      number: 'A-101',
      title: 'Sheet A-101',
      drawingPackageId: packageA1,
    });
    expect(res.body.expiresAt).toMatch(/Z$/);
    const file = await download(res.body.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    const pdf = await PDFDocument.load(Buffer.from(await file.arrayBuffer()));
    expect(pdf.getPages().map((p) => p.getWidth())).toEqual([502]);
    // Its signature's first character changed (to another one: a fixed replacement is the same 1 time in 64).
    const tampered = await download(
      res.body.downloadUrl.replace(
        /signature=(.)/,
        (_: string, first: string) => `signature=${first === 'x' ? 'y' : 'x'}`,
      ),
    );
    expect(tampered.status).toBe(403);
  });

  it('has no URL for a drawing without a file, and 404 for a drawing of another project or organization', async () => {
    const rows = await walk('', 50);
    const x005 = rows.find((r) => r.number === 'X-005');
    const none = await server.call(`${drawingsPath()}/${x005?.id}`, { token });
    expect(none.body).toMatchObject({ downloadUrl: null, expiresAt: null, latestRevision: null });
    const b1 = await server.call(drawingsPath(f.projectB1.id, f.orgB.id), { token: await orgBToken() });
    const otherOrg = await server.call(`${drawingsPath()}/${b1.body.data[0].id}`, { token });
    expect(otherOrg.status).toBe(404);
    const otherProject = await server.call(`${drawingsPath(f.projectA2.id)}/${x005?.id}`, { token });
    expect(otherProject.status).toBe(404);
  });
});

describeAuthMatrix('drawing list', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/drawings',
  expectOk: expectRows,
});

describeAuthMatrix('one drawing', ctx, {
  method: 'GET',
  path: '/v1/organization/{orgId}/project/{projectId}/drawings/{drawingId}',
  vars: async () => {
    const res = await server.call(`${drawingsPath()}?limit=1`, { token });
    return { drawingId: res.body.data[0].id };
  },
  expectOk: (res) => {
    expect(res.status).toBe(200);
    expect(res.body.downloadUrl).toContain('/v1/downloads/');
  },
});
