// Runs in a worker thread (render-thumbnail.ts): pdf.js and the canvas work here, never on the service's event
// loop, under the pool's heap limit and time limit.
import path from 'node:path';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export type ThumbnailRequest = { id: number; pdf: Uint8Array; width: number; maxAspect: number; maxImagePixels: number };
export type ThumbnailReply = { id: number; png: Uint8Array } | { id: number; error: string };

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
// pdf.js reads these with fs in Node when given paths ending in a separator.
const assets = {
  standardFontDataUrl: path.join(pdfjsRoot, 'standard_fonts') + path.sep,
  cMapUrl: path.join(pdfjsRoot, 'cmaps') + path.sep,
  wasmUrl: path.join(pdfjsRoot, 'wasm') + path.sep,
};

/**
 * A PNG of page 1 as displayed (CropBox, /Rotate), `width` pixels wide (at most width × maxAspect tall, so the
 * canvas never exceeds that many pixels whatever the page size) on white. Only page 1 is loaded. Images larger
 * than maxImagePixels are left out rather than decoded: a small file may inflate to gigabytes of pixels, and a
 * thumbnail does not need them. Answers error when pdf.js cannot open the document or its first page; a page that opens but
 * fails part-way renders what it could.
 */
async function render(request: ThumbnailRequest): Promise<ThumbnailReply> {
  const task = getDocument({
    data: request.pdf, ...assets, isEvalSupported: false, verbosity: 0, stopAtErrors: false, maxImageSize: request.maxImagePixels,
  });
  try {
    let document;
    try {
      document = await task.promise;
    } catch (error) {
      return { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    const page = await document.getPage(1);
    const natural = page.getViewport({ scale: 1 });
    const scale = Math.min(request.width / natural.width, (request.width * request.maxAspect) / natural.height);
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
    return { id: request.id, png: new Uint8Array(canvas.toBuffer('image/png')) };
  } finally {
    await task.destroy();
  }
}

parentPort!.on('message', (request: ThumbnailRequest) => {
  render(request).then(
    (reply) => parentPort!.postMessage(reply, 'png' in reply ? [reply.png.buffer as ArrayBuffer] : []),
    (error: unknown) => parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
