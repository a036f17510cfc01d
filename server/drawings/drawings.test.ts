import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { PDFDict, PDFDocument, PDFHexString, PDFName, type PDFRef, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAuthMatrix } from '../../test/auth-matrix.js';
import { createFixtures, type Fixtures, startTestServer, type TestServer } from '../../test/harness.js';
import { drawingBundles, drawingPackages, drawingRevisions, drawings } from '../db/schema.js';
import { newId } from '../ids.js';
import { createProject } from '../organizations/service.js';

let server: TestServer;
let f: Fixtures;
let token: string;
let packageA1: string;
let packageA2: string;
let packageB1: string;

/** A one-page sheet whose page width identifies it when the bundle is read back. */
async function sheetPdf(width: number, label: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([width, 600]).drawText(label, { x: 40, y: 300, size: 24, font });
  return Buffer.from(await doc.save());
}

/** A PDF that declares standard encryption: readers need a password. */
async function encryptedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([500, 500]);
  const ctx = doc.context;
  ctx.trailerInfo.Encrypt = ctx.register(
    ctx.obj({
      Filter: 'Standard',
      V: 1,
      R: 2,
      O: PDFHexString.of('00'.repeat(32)),
      U: PDFHexString.of('00'.repeat(32)),
      P: -4,
    }),
  );
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

async function addDrawing(
  projectId: string,
  orgId: string,
  number: string,
  revisions: { file?: Buffer; blobKey?: string }[],
  packageId: string | null = null,
) {
  const db = server.database.db;
  const id = newId('drw');
  await db
    .insert(drawings)
    .values({ id, organizationId: orgId, projectId, packageId, number, title: `Sheet ${number}` });
  let sequence = 0;
  for (const revision of revisions) {
    sequence++;
    const stored = revision.file ? await server.app.context.blobs.put(revision.file) : undefined;
    await db.insert(drawingRevisions).values({
      id: newId('rev'),
      organizationId: orgId,
      drawingId: id,
      revision: String.fromCharCode(64 + sequence),
      sequence,
      blobKey: stored?.key ?? revision.blobKey ?? null,
      fileName: `${number}.pdf`,
      fileSize: stored?.size ?? 0,
      uploadedAt: server.clock.now(),
    });
  }
  return id;
}

const bundlePath = (projectId = f.projectA1.id, orgId = f.orgA.id) =>
  `/v1/organization/${orgId}/project/${projectId}/drawings/bundle`;

const bundle = (json: unknown = {}, path = bundlePath(), as = token) =>
  server.call(path, { method: 'POST', token: as, json });

/** Fetches the signed URL (without a bearer token) and reads the PDF back. */
async function download(url: string, headers: Record<string, string> = {}) {
  const { pathname, search } = new URL(url);
  return server.request(pathname + search, { headers });
}

async function readBack(url: string) {
  const res = await download(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const bytes = Buffer.from(await res.arrayBuffer());
  expect(Number(res.headers.get('content-length'))).toBe(bytes.length);
  const doc = await PDFDocument.load(bytes);
  const widths = doc.getPages().map((p) => p.getWidth());
  const titles: string[] = [];
  const targets: number[] = [];
  const pageRefs = doc.getPages().map((p) => p.ref);
  const outlines = doc.catalog.lookup(PDFName.of('Outlines'), PDFDict);
  let item = outlines.lookupMaybe(PDFName.of('First'), PDFDict);
  while (item) {
    titles.push(item.lookup(PDFName.of('Title'), PDFHexString).decodeText());
    const dest = item.lookup(PDFName.of('Dest')) as unknown as { get(i: number): PDFRef };
    targets.push(pageRefs.indexOf(dest.get(0)));
    item = item.lookupMaybe(PDFName.of('Next'), PDFDict);
  }
  return { widths, titles, targets, size: bytes.length };
}

const sizes: Record<string, number> = {};

beforeAll(async () => {
  server = await startTestServer();
  f = await createFixtures(server);
  token = (await f.client(['document:read'], { orgs: [f.orgA.id] })).token;
  const db = server.database.db;
  packageA1 = newId('pkg');
  packageA2 = newId('pkg');
  packageB1 = newId('pkg');
  await db.insert(drawingPackages).values([
    { id: packageA1, organizationId: f.orgA.id, projectId: f.projectA1.id, name: 'Architectural' },
    { id: packageA2, organizationId: f.orgA.id, projectId: f.projectA2.id, name: 'Other project' },
    { id: packageB1, organizationId: f.orgB.id, projectId: f.projectB1.id, name: 'Other organization' },
  ]);
  // Inserted out of order; widths say which sheet and revision a page came from.
  const sheet = async (width: number, label: string) => {
    const file = await sheetPdf(width, label);
    sizes[label] = file.length;
    return { file };
  };
  await addDrawing(f.projectA1.id, f.orgA.id, 'S-201', [await sheet(701, 'S-201 A')]);
  await addDrawing(f.projectA1.id, f.orgA.id, 'A-1010', [await sheet(601, 'A-1010 A')]);
  await addDrawing(
    f.projectA1.id,
    f.orgA.id,
    'A-101',
    [await sheet(501, 'A-101 A'), await sheet(502, 'A-101 B')],
    packageA1,
  );
  await addDrawing(f.projectA1.id, f.orgA.id, 'A-2', [await sheet(401, 'A-2 A')], packageA1);
  await addDrawing(f.projectA1.id, f.orgA.id, 'A-10', [await sheet(451, 'A-10 A')]);
  await addDrawing(f.projectA1.id, f.orgA.id, 'X-001', [{ blobKey: 'f'.repeat(64) }]);
  await addDrawing(f.projectA1.id, f.orgA.id, 'X-002', [{ file: Buffer.alloc(0) }]);
  await addDrawing(f.projectA1.id, f.orgA.id, 'X-003', [{ file: await encryptedPdf() }]);
  await addDrawing(f.projectA1.id, f.orgA.id, 'X-004', [{ file: Buffer.from('PK\u0003\u0004 not a pdf at all') }]);
  await addDrawing(f.projectA1.id, f.orgA.id, 'X-005', []);
  await addDrawing(f.projectA1.id, f.orgA.id, 'X-006', [{ file: Buffer.from('%PDF-1.7\n garbage without objects') }]);
  await addDrawing(f.projectB1.id, f.orgB.id, 'B-1', [await sheet(999, 'B-1 A')], packageB1);
});
afterAll(async () => {
  await server.close();
});

describeAuthMatrix('drawing bundle', () => ({ server, fixtures: f }), {
  method: 'POST',
  path: '/v1/organization/{orgId}/project/{projectId}/drawings/bundle',
  json: {},
});

describeAuthMatrix('admin drawing bundle', () => ({ server, fixtures: f }), {
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
    const db = server.database.db;
    const [a2] = await db.select().from(drawings).where(eq(drawings.number, 'A-2'));
    const file = await sheetPdf(402, 'A-2 B');
    const stored = await server.app.context.blobs.put(file);
    await db.insert(drawingRevisions).values({
      id: newId('rev'),
      organizationId: f.orgA.id,
      drawingId: a2!.id,
      revision: 'B',
      sequence: 2,
      blobKey: stored.key,
      fileName: 'A-2.pdf',
      fileSize: stored.size,
      uploadedAt: server.clock.now(),
    });
    const next = await bundle();
    expect(new URL(next.body.downloadUrl).pathname).not.toBe(new URL(first.body.downloadUrl).pathname);
    expect((await readBack(next.body.downloadUrl)).widths).toEqual([402, 451, 502, 601, 701]);
  });

  it('answers identical concurrent requests with one build', async () => {
    const db = server.database.db;
    const [a10] = await db.select().from(drawings).where(eq(drawings.number, 'A-10'));
    const stored = await server.app.context.blobs.put(await sheetPdf(452, 'A-10 B'));
    await db.insert(drawingRevisions).values({
      id: newId('rev'),
      organizationId: f.orgA.id,
      drawingId: a10!.id,
      revision: 'B',
      sequence: 2,
      blobKey: stored.key,
      fileName: 'A-10.pdf',
      fileSize: stored.size,
      uploadedAt: server.clock.now(),
    });
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
    expect(expiresAt - server.clock.now().getTime()).toBeGreaterThan(14 * 60 * 1000);
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
    token = (await f.client(['document:read'], { orgs: [f.orgA.id] })).token;
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

describe('bundling sheets of any PDF structure', () => {
  /** Two pages that take their size and resources from the page tree, in a classic cross-reference table. */
  async function inheritingTwoPager(): Promise<Buffer> {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const first = doc.addPage([801, 600]);
    first.drawText('inherits', { x: 40, y: 300, size: 24, font });
    doc.addPage([802, 600]);
    const tree = doc.catalog.lookup(PDFName.of('Pages'), PDFDict);
    tree.set(PDFName.of('MediaBox'), first.node.get(PDFName.of('MediaBox'))!);
    tree.set(PDFName.of('Resources'), first.node.get(PDFName.of('Resources'))!);
    first.node.delete(PDFName.of('MediaBox'));
    first.node.delete(PDFName.of('Resources'));
    return Buffer.from(await doc.save({ useObjectStreams: false }));
  }

  /** A sheet whose `startxref` points nowhere: readers rebuild it, and so must the bundle. */
  async function damagedXref(): Promise<Buffer> {
    const text = (await sheetPdf(803, 'damaged')).toString('latin1');
    return Buffer.from(text.replace(/startxref\s+\d+/, 'startxref\n17'), 'latin1');
  }

  /** qpdf's own writing: object streams and a cross-reference stream with a PNG predictor. */
  async function rewrittenByQpdf(): Promise<Buffer> {
    const dir = await mkdtemp(path.join(tmpdir(), 'sitefile-qpdf-'));
    await writeFile(path.join(dir, 'in.pdf'), await sheetPdf(804, 'qpdf'));
    execFileSync('qpdf', ['--object-streams=generate', path.join(dir, 'in.pdf'), path.join(dir, 'out.pdf')]);
    const bytes = await readFile(path.join(dir, 'out.pdf'));
    await rm(dir, { recursive: true });
    return bytes;
  }

  it('keeps every page, its size and drawing, one bookmark per sheet, in sheet order', async () => {
    const project = await createProject(server.database.db, { organizationId: f.orgA.id, name: 'Mixed sources' });
    await addDrawing(project.id, f.orgA.id, 'C-3', [{ file: await rewrittenByQpdf() }]);
    await addDrawing(project.id, f.orgA.id, 'C-1', [{ file: await inheritingTwoPager() }]);
    await addDrawing(project.id, f.orgA.id, 'C-2', [{ file: await damagedXref() }]);
    const res = await bundle({}, bundlePath(project.id));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ drawingCount: 3, skippedDrawings: [] });
    const pdf = await readBack(res.body.downloadUrl);
    expect(pdf.widths).toEqual([801, 802, 803, 804]);
    expect(pdf.titles.map((t) => t.split(' ')[0])).toEqual(['C-1', 'C-2', 'C-3']);
    expect(pdf.targets).toEqual([0, 2, 3]);

    const file = await downloadToFile(res.body.downloadUrl);
    expect(execFileSync('qpdf', ['--check', file], { encoding: 'utf8' })).toContain(
      'No syntax or stream encoding errors',
    );
    // The first page still draws its text with the font resources it inherits: some pixels are dark.
    const gray = execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-r', '72', '-gray', file]);
    // A binary PGM: three header lines ("P5", width and height, maximum value), then one byte per pixel.
    let headerEnd = 0;
    for (let line = 0; line < 3; line++) headerEnd = gray.indexOf(10, headerEnd) + 1;
    const pixels = gray.subarray(headerEnd);
    expect(gray.subarray(0, headerEnd).toString()).toBe('P5\n801 600\n255\n');
    expect(pixels.some((value) => value < 100)).toBe(true);
  });
});

async function downloadToFile(url: string): Promise<string> {
  const res = await download(url);
  const dir = await mkdtemp(path.join(tmpdir(), 'sitefile-bundle-'));
  const file = path.join(dir, 'bundle.pdf');
  await writeFile(file, Buffer.from(await res.arrayBuffer()));
  return file;
}
