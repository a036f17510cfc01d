import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A one-page sheet whose page width identifies it when a bundle is read back. */
export async function sheetPdf(width: number, label: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([width, 600]).drawText(label, { x: 40, y: 300, size: 24, font });
  return Buffer.from(await doc.save());
}
