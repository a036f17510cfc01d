// The file's test server (test/fixture-server.ts) with a project of drawing sheets for each test file that imports
// this (vitest evaluates it once per file): sheets whose page widths say which sheet and revision a bundled page came
// from, sheets that cannot be bundled, and packages in three projects. The bindings are live.
import { eq } from 'drizzle-orm';
import { PDFDict, PDFDocument, PDFHexString, PDFName, type PDFRef } from 'pdf-lib';
import { beforeAll, expect } from 'vitest';
import { ctx, f, server } from '../../test/fixture-server.js';
import { drawingPackages, drawingRevisions, drawings } from '../db/schema.js';
import { newId } from '../ids.js';
import { sheetPdf } from './sheets.fixtures.js';

export { ctx, f, server };
/** A key of organization A with document:read. */
export let token: string;
/** Packages of project A1 (holding ), of project A2, and of organization B's project B1. */
export let packageA1: string;
export let packageA2: string;
export let packageB1: string;
/** The byte size of each sheet's PDF, by label ("A-101 B"). */
export const sizes: Record<string, number> = {};

export { sheetPdf };

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

export async function addDrawing(
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

export const bundlePath = (projectId = f.projectA1.id, orgId = f.orgA.id) =>
  `/v1/organization/${orgId}/project/${projectId}/drawings/bundle`;

export const bundle = (json: unknown = {}, path = bundlePath(), as = token) =>
  server.call(path, { method: 'POST', token: as, json });

/** Fetches the signed URL (without a bearer token) and reads the PDF back. */
export async function download(url: string, headers: Record<string, string> = {}) {
  const { pathname, search } = new URL(url);
  return server.request(pathname + search, { headers });
}

export async function readBack(url: string) {
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

beforeAll(async () => {
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
/** A fresh key token, for the tests that follow one that moves the clock on. */
export async function renewToken() {
  token = (await f.client(['document:read'], { orgs: [f.orgA.id] })).token;
}

/** Stores revision B of sheet `number` of organization A: one page `width` wide, labelled `label`. */
export async function addRevisionB(number: string, width: number, label: string) {
  const db = server.database.db;
  const [drawing] = await db.select().from(drawings).where(eq(drawings.number, number));
  const stored = await server.app.context.blobs.put(await sheetPdf(width, label));
  await db.insert(drawingRevisions).values({
    id: newId('rev'),
    organizationId: f.orgA.id,
    drawingId: drawing!.id,
    revision: 'B',
    sequence: 2,
    blobKey: stored.key,
    fileName: `${number}.pdf`,
    fileSize: stored.size,
    uploadedAt: server.clock.now(),
  });
}
