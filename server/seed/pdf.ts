import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

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
