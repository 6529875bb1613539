import { PDF } from '@libpdf/core';

/** A plain PDF with `pages` Letter pages, each saying its number. */
export async function makePdf(pages = 1, options: { size?: 'letter' | 'a4' } = {}): Promise<Uint8Array> {
  const pdf = PDF.create();
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage({ size: options.size ?? 'letter' });
    page.drawText(`Page ${i + 1}`, { x: 72, y: 700, size: 24 });
  }
  return pdf.save();
}
