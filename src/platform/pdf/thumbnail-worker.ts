// Runs in a worker thread (render-thumbnail.ts): pdf.js and the canvas work here, never on the service's event
// loop, under the pool's heap limit and time limit.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument, PDFDataRangeTransport } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The PDF as bytes, or as a local file that the worker reads itself, only the parts page 1 needs. */
/** `jpeg`: the image as JPEG (a page picture) rather than PNG (a thumbnail). */
export type ThumbnailRequest = {
  id: number;
  pdf?: Uint8Array;
  path?: string;
  page: number;
  width: number;
  jpeg?: boolean;
  quality: number;
  maxAspect: number;
  maxImagePixels: number;
};
export type ThumbnailReply = { id: number; image: Uint8Array } | { id: number; error: string };

const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
// pdf.js reads these with fs in Node when given paths ending in a separator.
const assets = {
  standardFontDataUrl: path.join(pdfjsRoot, 'standard_fonts') + path.sep,
  cMapUrl: path.join(pdfjsRoot, 'cmaps') + path.sep,
  wasmUrl: path.join(pdfjsRoot, 'wasm') + path.sep,
};

/**
 * One page (page 1 for a thumbnail) as displayed (CropBox, /Rotate), `width` pixels wide (at most width × maxAspect tall, so the
 * canvas never exceeds that many pixels whatever the page size) on white. Only that page is loaded. Images larger
 * than maxImagePixels are left out rather than decoded: a small file may inflate to gigabytes of pixels, and a
 * picture of a page does not need them. Answers error when pdf.js cannot open the document or the page; a page that opens but
 * fails part-way renders what it could.
 */
async function render(request: ThumbnailRequest): Promise<ThumbnailReply> {
  const file = request.path ? await openFile(request.path) : null;
  const source = !file
    ? { data: request.pdf }
    : 'bytes' in file
      ? { data: file.bytes }
      : {
          range: file.transport,
          length: file.transport.length,
          disableAutoFetch: true,
          disableStream: true,
          rangeChunkSize: RANGE_CHUNK,
        };
  const task = getDocument({
    ...source,
    ...assets,
    isEvalSupported: false,
    verbosity: 0,
    stopAtErrors: false,
    maxImageSize: request.maxImagePixels,
  });
  try {
    let document;
    try {
      document = await task.promise;
    } catch (error) {
      return { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
    const page = await document.getPage(request.page);
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
      // Broken content on the page: the picture keeps what was drawn before the error (at worst a blank page).
    }
    page.cleanup();
    return {
      id: request.id,
      image: new Uint8Array(
        request.jpeg ? canvas.toBuffer('image/jpeg', request.quality) : canvas.toBuffer('image/png'),
      ),
    };
  } finally {
    await task.destroy();
    if (file && 'close' in file) await file.close();
  }
}

/** Reads of a file given by path: at least this much at a time. */
const RANGE_CHUNK = 64 * 1024;
/** A file at most this large is read whole; a larger one only in the ranges pdf.js asks for. */
const READ_WHOLE_BYTES = 1024 * 1024;

/**
 * pdf.js fed from a file by ranges: it reads the end (cross-reference data), the catalog and page tree, and page
 * 1's content and resources, and nothing else, so a large upload is never held in memory for its thumbnail (its
 * buffer for the whole length is allocated but untouched pages take no memory). A small file is read at once.
 */
async function openFile(
  file: string,
): Promise<{ bytes: Uint8Array } | { transport: PDFDataRangeTransport; close(): Promise<void> }> {
  const handle = await fsp.open(file, 'r');
  const { size } = await handle.stat();
  if (size <= READ_WHOLE_BYTES) {
    try {
      return { bytes: await read(handle, 0, size) };
    } finally {
      await handle.close();
    }
  }
  const transport = new (class extends PDFDataRangeTransport {
    requestDataRange(begin: number, end: number) {
      // A failed read leaves pdf.js waiting; the pool's time limit then stops the render and a blank page stands in.
      read(handle, begin, end - begin).then(
        (chunk) => this.onDataRange(begin, chunk),
        () => {},
      );
    }
  })(size, null);
  return { transport, close: () => handle.close() };
}

async function read(handle: fsp.FileHandle, position: number, length: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(buffer, filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled === length ? buffer : buffer.subarray(0, filled);
}

parentPort!.on('message', (request: ThumbnailRequest) => {
  render(request).then(
    (reply) => parentPort!.postMessage(reply, 'image' in reply ? [reply.image.buffer as ArrayBuffer] : []),
    (error: unknown) =>
      parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
