import path from 'node:path';
import { createRequire } from 'node:module';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
// pdf.js reads these with fs in Node when given paths ending in a separator.
const assets = {
  standardFontDataUrl: path.join(pdfjsRoot, 'standard_fonts') + path.sep,
  cMapUrl: path.join(pdfjsRoot, 'cmaps') + path.sep,
  wasmUrl: path.join(pdfjsRoot, 'wasm') + path.sep,
};

export const THUMBNAIL_WIDTH = 200;
/** Caps the height of an extremely tall page so the PNG stays small. */
const MAX_ASPECT = 4;

/** pdf.js cannot open the document at all (as a viewer would fail to show it). */
export class PdfRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfRenderError';
  }
}

/**
 * A PNG of page 1 as displayed (CropBox, /Rotate), `width` pixels wide on a white background. Only page 1 is
 * loaded, so the cost does not grow with the page count. Throws PdfRenderError when pdf.js cannot open the
 * document; a page that opens but fails part-way renders what it could.
 */
export async function renderThumbnail(pdf: Uint8Array, width = THUMBNAIL_WIDTH): Promise<Uint8Array> {
  // pdf.js may take ownership of the buffer it is given, so it gets its own copy.
  const task = getDocument({ data: new Uint8Array(pdf), ...assets, isEvalSupported: false, verbosity: 0, stopAtErrors: false });
  try {
    let document;
    try {
      document = await task.promise;
    } catch (error) {
      throw new PdfRenderError(error instanceof Error ? error.message : String(error));
    }
    const page = await document.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const scale = Math.min(width / natural.width, (width * MAX_ASPECT) / natural.height);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
    const context = canvas.getContext('2d');
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    try {
      await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    } catch {
      // Broken content on page 1: the thumbnail keeps what was drawn before the error (at worst a blank page).
    }
    page.cleanup();
    return new Uint8Array(canvas.toBuffer('image/png'));
  } finally {
    await task.destroy();
  }
}
