import { rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { drawingBundles, drawings } from '../db/schema.js';
import { newId } from '../ids.js';
import {
  addRevisionB,
  bundle,
  bundlePath,
  ctx,
  download,
  f,
  packageA1,
  packageA2,
  packageB1,
  readBack,
  renewToken,
  server,
  sizes,
} from './drawings.fixtures.js';

// Bundling a project's drawings into one PDF: which sheets, which revision, caching, the signed URL, the limits.

describeAuthMatrix('drawing bundle', ctx, {
  method: 'POST',
  path: '/v1/organization/{orgId}/project/{projectId}/drawings/bundle',
  json: {},
});

describeAuthMatrix('admin drawing bundle', ctx, {
  method: 'POST',
  path: '/v1/admin/projects/{projectId}/drawings/bundle',
  json: {},
});

describe('POST …/drawings/bundle', () => {
  let first: Awaited<ReturnType<typeof bundle>>;

  it('merges the latest revisions in natural sheet order, one bookmark per sheet', async () => {
    first = await bundle();
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      drawingCount: 5,
      downloadUrl: expect.stringMatching(/^http:\/\/sitefile\.test\/v1\/downloads\//),
    });
    expect(first.body.totalSourceBytes).toBe(
      sizes['A-2 A']! + sizes['A-10 A']! + sizes['A-101 B']! + sizes['A-1010 A']! + sizes['S-201 A']!,
    );
    const pdf = await readBack(first.body.downloadUrl);
    expect(pdf.widths).toEqual([401, 451, 502, 601, 701]);
    expect(pdf.titles).toEqual([
      'A-2 – Sheet A-2 (rev A)',
      'A-10 – Sheet A-10 (rev A)',
      'A-101 – Sheet A-101 (rev B)',
      'A-1010 – Sheet A-1010 (rev A)',
      'S-201 – Sheet S-201 (rev A)',
    ]);
    expect(pdf.targets).toEqual([0, 1, 2, 3, 4]);
  });

  it('skips unusable drawings with a reason, in sheet order', async () => {
    expect(first.body.skippedDrawings.map((s: { number: string; reason: string }) => [s.number, s.reason])).toEqual([
      ['X-001', 'missing_file'],
      ['X-002', 'empty_file'],
      ['X-003', 'encrypted'],
      ['X-004', 'not_a_pdf'],
      ['X-005', 'no_revision'],
      ['X-006', 'unreadable_pdf'],
    ]);
    expect(first.body.skippedDrawings[0].drawingId).toMatch(/^drw_/);
  });

  it('returns the already-built bundle for the same set of revisions', async () => {
    const again = await bundle();
    expect(again.status).toBe(200);
    expect(new URL(again.body.downloadUrl).pathname).toBe(new URL(first.body.downloadUrl).pathname);
    const rows = await server.database.db.select().from(drawingBundles);
    expect(rows).toHaveLength(1);
  });

  it('rebuilds a cached bundle whose file has gone from the store', async () => {
    const key = new URL(first.body.downloadUrl).pathname.split('/')[3]!;
    await rm(path.join(server.config.dataDir, 'blobs', key.slice(0, 2), key.slice(2, 4), key));
    expect((await download(first.body.downloadUrl)).status).toBe(404);
    const again = await bundle();
    expect(new URL(again.body.downloadUrl).pathname).toBe(new URL(first.body.downloadUrl).pathname);
    expect((await readBack(again.body.downloadUrl)).widths).toEqual([401, 451, 502, 601, 701]);
  });

  it('builds a new bundle when a drawing gets a new revision', async () => {
    await addRevisionB('A-2', 402, 'A-2 B');
    const next = await bundle();
    expect(new URL(next.body.downloadUrl).pathname).not.toBe(new URL(first.body.downloadUrl).pathname);
    expect((await readBack(next.body.downloadUrl)).widths).toEqual([402, 451, 502, 601, 701]);
  });

  it('answers identical concurrent requests with one build', async () => {
    await addRevisionB('A-10', 452, 'A-10 B');
    const db = server.database.db;
    const before = (await db.select().from(drawingBundles)).length;
    const answers = await Promise.all(Array.from({ length: 5 }, () => bundle()));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => new URL(a.body.downloadUrl).pathname)).size).toBe(1);
    expect((await db.select().from(drawingBundles)).length).toBe(before + 1);
    expect((await readBack(answers[0]!.body.downloadUrl)).widths).toEqual([402, 452, 502, 601, 701]);
  });

  it('restricts to one drawing package of the project', async () => {
    const res = await bundle({ drawingPackageId: packageA1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ drawingCount: 2, skippedDrawings: [] });
    const pdf = await readBack(res.body.downloadUrl);
    expect(pdf.widths).toEqual([402, 502]);
    expect(pdf.titles.map((t) => t.split(' ')[0])).toEqual(['A-2', 'A-101']);
  });

  it('answers 404 for an unknown package or one of another project or organization', async () => {
    for (const drawingPackageId of ['pkg_unknown', packageA2, packageB1]) {
      const res = await bundle({ drawingPackageId });
      expect(res.status).toBe(404);
      expect(res.body.errorCode).toBe('not_found');
    }
  });

  it('answers 200 with an empty bundle when there are no drawings', async () => {
    const res = await bundle({}, bundlePath(f.projectA2.id));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      downloadUrl: null,
      expiresAt: null,
      drawingCount: 0,
      totalSourceBytes: 0,
      skippedDrawings: [],
    });
  });

  it('rejects a bad body with a 400', async () => {
    for (const json of [{ drawingPackageId: 5 }, { drawingPackageId: '' }, { format: 'zip' }]) {
      const res = await bundle(json);
      expect(res.status).toBe(400);
      expect(res.body.errorCode).toBe('validation_failed');
    }
  });

  it('hands out a signed URL that expires after 15 minutes and refuses tampering', async () => {
    const res = await bundle();
    const url = new URL(res.body.downloadUrl);
    const expiresAt = Date.parse(res.body.expiresAt);
    // At most the 15-minute TTL, at least nine tenths of it (expiry counts from the current tenth: stable ETags).
    expect(expiresAt - server.clock.now().getTime()).toBeGreaterThanOrEqual(13.5 * 60 * 1000);
    expect(expiresAt - server.clock.now().getTime()).toBeLessThanOrEqual(15 * 60 * 1000);

    const partial = await download(url.toString(), { range: 'bytes=0-4' });
    expect(partial.status).toBe(206);
    expect(await partial.text()).toBe('%PDF-');

    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await download(tampered.toString())).status).toBe(403);
    const otherFile = new URL(url.toString().replace(/downloads\/[0-9a-f]{8}/, 'downloads/00000000'));
    expect((await download(otherFile.toString())).status).toBe(403);

    server.clock.set(new Date(expiresAt + 1000));
    const expired = await download(url.toString());
    expect(expired.status).toBe(403);
    await renewToken();
  });

  it('refuses more than 1000 drawings with a 400 naming the way out', async () => {
    const db = server.database.db;
    await db.insert(drawings).values(
      Array.from({ length: 1001 }, (_, i) => ({
        id: newId('drw'),
        organizationId: f.orgB.id,
        projectId: f.projectB1.id,
        number: `M-${i}`,
        title: 'Mechanical',
      })),
    );
    const staff = f.userToken(f.staff.id);
    const res = await bundle({}, `/v1/admin/projects/${f.projectB1.id}/drawings/bundle`, staff);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('drawingPackageId');
    const byPackage = await bundle(
      { drawingPackageId: packageB1 },
      `/v1/admin/projects/${f.projectB1.id}/drawings/bundle`,
      staff,
    );
    expect(byPackage.status).toBe(200);
    expect((await readBack(byPackage.body.downloadUrl)).widths).toEqual([999]);
  });
});

describe('POST /v1/admin/projects/{projectId}/drawings/bundle', () => {
  it('returns the same PDF bundle as the organization route', async () => {
    const staff = f.userToken(f.staff.id);
    const viaOrg = await bundle();
    const viaAdmin = await bundle({}, `/v1/admin/projects/${f.projectA1.id}/drawings/bundle`, staff);
    expect(viaAdmin.status).toBe(200);
    expect(new URL(viaAdmin.body.downloadUrl).pathname).toBe(new URL(viaOrg.body.downloadUrl).pathname);
    expect(viaAdmin.body.downloadUrl).toMatch(/\.pdf\?/);
    expect(viaAdmin.body.skippedDrawings).toEqual(viaOrg.body.skippedDrawings);
  });

  it('answers 404 for an unknown project and for a package of another project', async () => {
    const staff = f.userToken(f.staff.id);
    expect((await bundle({}, '/v1/admin/projects/prj_unknown/drawings/bundle', staff)).status).toBe(404);
    const foreign = await bundle(
      { drawingPackageId: packageB1 },
      `/v1/admin/projects/${f.projectA1.id}/drawings/bundle`,
      staff,
    );
    expect(foreign.status).toBe(404);
  });
});
