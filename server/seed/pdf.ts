import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import type { BlobStore } from '../blobs/store.js';

/** Small real PDFs for seeded drawings and reports. Metadata dates are fixed to `stamp` so the
 *  bytes (and so the content-addressed blob keys) are reproducible. */
async function onePagePdf(stamp: Date, heading: string, lines: string[], size: [number, number]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setCreationDate(stamp);
  pdf.setModificationDate(stamp);
  pdf.setProducer('Sitefile seed');
  pdf.setCreator('Sitefile seed');
  pdf.setTitle(heading);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage(size);
  const [width, height] = size;
  page.drawRectangle({
    x: 24,
    y: 24,
    width: width - 48,
    height: height - 48,
    borderWidth: 2,
    borderColor: rgb(0, 0, 0),
  });
  page.drawText(heading, { x: 48, y: height - 90, size: 40, font: bold });
  lines.forEach((line, i) => {
    page.drawText(line, { x: 48, y: height - 140 - i * 24, size: 16, font });
  });
  return Buffer.from(await pdf.save());
}

/** A drawing sheet: the page shows the sheet number and revision in large type. */
export function drawingPdf(
  stamp: Date,
  sheet: { number: string; title: string; discipline: string },
  revision: string,
) {
  return onePagePdf(
    stamp,
    `${sheet.number}  Rev ${revision}`,
    [sheet.title, `Discipline: ${sheet.discipline}`, `Sheet ${sheet.number}, revision ${revision}`],
    [1190, 842],
  );
}

export function reportPdf(stamp: Date, report: { title: string; version: string; lines: string[] }) {
  return onePagePdf(stamp, report.title, [`Version ${report.version}`, ...report.lines], [595, 842]);
}

/** Blob keys of generated PDFs, shared across projects (same sheet and revision → same bytes). */
export class PdfCache {
  private readonly keys = new Map<string, Promise<{ key: string; size: number }>>();
  constructor(
    private readonly blobs: BlobStore,
    private readonly stamp: Date,
  ) {}

  drawing(sheet: { number: string; title: string; discipline: string }, revision: string) {
    return this.once(`drawing:${sheet.number}:${sheet.title}:${revision}`, () =>
      drawingPdf(this.stamp, sheet, revision),
    );
  }

  report(title: string, version: string, lines: string[]) {
    return this.once(`report:${title}:${version}:${lines.join('|')}`, () =>
      reportPdf(this.stamp, { title, version, lines }),
    );
  }

  raw(name: string, bytes: Buffer) {
    return this.once(`raw:${name}`, async () => bytes);
  }

  private once(name: string, make: () => Promise<Buffer>) {
    let entry = this.keys.get(name);
    if (!entry) {
      entry = make().then((bytes) => this.blobs.put(bytes));
      this.keys.set(name, entry);
    }
    return entry;
  }
}
