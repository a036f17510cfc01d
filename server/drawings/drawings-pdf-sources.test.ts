import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { describe, expect } from 'vitest';
import { itNeeds } from '../../test/system-tools.js';
import { createProject } from '../organizations/service.js';
import { addDrawing, bundle, bundlePath, download, f, readBack, server, sheetPdf } from './drawings.fixtures.js';

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

  itNeeds(
    ['qpdf', 'pdftoppm'],
    'keeps every page, its size and drawing, one bookmark per sheet, in sheet order',
    async () => {
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
    },
  );
});

async function downloadToFile(url: string): Promise<string> {
  const res = await download(url);
  const dir = await mkdtemp(path.join(tmpdir(), 'sitefile-bundle-'));
  const file = path.join(dir, 'bundle.pdf');
  await writeFile(file, Buffer.from(await res.arrayBuffer()));
  return file;
}
