import { createHash } from 'node:crypto';
import * as s from '../db/schema.js';
import { DAY } from './model.js';
import type { ProjectContext } from './project-context.js';
import * as v from './vocabulary.js';

/** Packages by discipline; every project has the sheets tests and examples name (A-101, A-1010,
 * S-201) plus a random set. The first three drawings' latest files are broken on purpose. */
export async function addDrawings(ctx: ProjectContext): Promise<void> {
  const named = v.drawingSheets.filter((sheet) => ['A-101', 'A-1010', 'S-201'].includes(sheet.number));
  const others = v.drawingSheets.filter((sheet) => !named.includes(sheet));
  const sheets = [...named, ...ctx.rng.sample(others, ctx.shape.drawingsPerProject - named.length)].sort((a, b) =>
    a.number.localeCompare(b.number),
  );
  const packages = new Map<string, string>();
  const brokenKinds = ['missing', 'empty', 'not-pdf'] as const;
  for (const [index, sheet] of sheets.entries()) {
    let packageId = packages.get(sheet.discipline);
    if (!packageId) {
      packageId = ctx.rng.id('pkg');
      packages.set(sheet.discipline, packageId);
      ctx.rows.add(s.drawingPackages, {
        id: packageId,
        organizationId: ctx.organizationId,
        projectId: ctx.project.id,
        name: `${sheet.discipline} set`,
        createdAt: new Date(ctx.nowMs - 400 * DAY),
      });
    }
    await addDrawing(ctx, sheet, packageId, brokenKinds[index]);
  }
}

async function addDrawing(
  ctx: ProjectContext,
  sheet: (typeof v.drawingSheets)[number],
  packageId: string,
  broken: 'missing' | 'empty' | 'not-pdf' | undefined,
): Promise<void> {
  const { rng } = ctx;
  const drawingId = rng.id('drw');
  const createdAt = new Date(ctx.nowMs - rng.int(200, 400) * DAY);
  ctx.rows.add(s.drawings, {
    id: drawingId,
    organizationId: ctx.organizationId,
    projectId: ctx.project.id,
    packageId,
    number: sheet.number,
    title: sheet.title,
    discipline: sheet.discipline,
    createdAt,
  });
  const revisions = rng.int(1, 3);
  for (let sequence = 1; sequence <= revisions; sequence++) {
    const revision = String.fromCharCode(64 + sequence);
    const uploadedAt = new Date(createdAt.getTime() + (sequence - 1) * rng.int(10, 60) * DAY);
    const file =
      sequence === revisions && broken
        ? await brokenFile(ctx, broken, drawingId)
        : await ctx.pdfs.drawing(sheet, revision);
    ctx.rows.add(s.drawingRevisions, {
      id: rng.id('rev'),
      organizationId: ctx.organizationId,
      drawingId,
      revision,
      sequence,
      blobKey: file.key,
      fileName: `${sheet.number}_Rev${revision}.pdf`,
      fileSize: file.size,
      uploadedAt,
    });
    ctx.addActivity({
      actor: rng.pick(ctx.team),
      action: 'file_uploaded',
      title: `Uploaded drawing ${sheet.number} revision ${revision}`,
      details: { drawingId, revision },
      createdAt: uploadedAt,
    });
  }
}

async function brokenFile(ctx: ProjectContext, kind: 'missing' | 'empty' | 'not-pdf', drawingId: string) {
  if (kind === 'missing') {
    // A key for bytes that were never stored.
    return { key: createHash('sha256').update(`missing ${drawingId}`).digest('hex'), size: 48_213 };
  }
  if (kind === 'empty') return ctx.pdfs.raw('empty', Buffer.alloc(0));
  return ctx.pdfs.raw('not-pdf', Buffer.from('This is a scanned fax, not a PDF file.\n'));
}
