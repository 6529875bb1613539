import crypto from 'node:crypto';
import { PDF, PDFImage, PdfName, PdfNumber } from '@libpdf/core';

/** A plain PDF with `pages` Letter pages, each saying its number. */
export async function makePdf(pages = 1, options: { size?: 'letter' | 'a4' } = {}): Promise<Uint8Array> {
  const pdf = PDF.create();
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage({ size: options.size ?? 'letter' });
    page.drawText(`Page ${i + 1}`, { x: 72, y: 700, size: 24 });
  }
  return pdf.save();
}

/**
 * A PDF as large as a scanned document, for benches and tests that need a big file without shipping one: `pages`
 * pages, each showing its own random RGB image of about `imageBytes` bytes, stored unfiltered.
 */
export async function buildPdf(pages: number, imageBytes: number): Promise<Uint8Array> {
  const side = Math.ceil(Math.sqrt(imageBytes / 3));
  const pdf = PDF.create();
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage({ size: 'a4' });
    const ref = pdf.createStream(
      {
        Type: PdfName.of('XObject'),
        Subtype: PdfName.of('Image'),
        Width: PdfNumber.of(side),
        Height: PdfNumber.of(side),
        ColorSpace: PdfName.of('DeviceRGB'),
        BitsPerComponent: PdfNumber.of(8),
      },
      new Uint8Array(crypto.randomBytes(side * side * 3)),
    );
    page.drawImage(new PDFImage(ref, side, side), { x: 72, y: 200, width: 450, height: 450 });
    page.drawText(`Page ${i + 1}`, { x: 72, y: 800, size: 12 });
  }
  return pdf.save({ compressStreams: false });
}
