import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { pdfWorker, takeDocument } from './start.ts';

export { documentUrl } from './start.ts';

// The worker (start.ts) is already running on a signing page; the editor starts it when this module loads.
pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;
pdfjs.GlobalWorkerOptions.workerPort = pdfWorker();

export type PdfDocument = pdfjs.PDFDocumentProxy;
export type PdfPage = pdfjs.PDFPageProxy;

const opened = new Map<string, Promise<PdfDocument>>();

/**
 * Opens a document of the workflow through the download route, with the guest token. Memoized by URL: the
 * page starts the download as soon as it knows the document, before the viewer asks for it.
 */
export function openPdf(url: string, token: string | null): Promise<PdfDocument> {
  let pending = opened.get(url);
  if (!pending) {
    pending = load(url, token);
    opened.set(url, pending);
    pending.catch(() => opened.delete(url));
  }
  return pending;
}

/**
 * Forgets a memoized document, so the next openPdf fetches it again (the sender replaced its file). Not destroyed:
 * a view may still be drawing from it until it remounts.
 */
export function forgetPdf(url: string): void {
  opened.delete(url);
}

/** The bytes come from start.ts (often already downloaded while this module was loading). */
async function load(url: string, token: string | null): Promise<PdfDocument> {
  const data = await takeDocument(url, token);
  // No eval: the Content-Security-Policy forbids it.
  return pdfjs.getDocument({
    data,
    isEvalSupported: false,
    // pdf.js's data files, served by the service from its pdfjs-dist (src/modules/webapp).
    cMapUrl: '/app/pdfjs/cmaps/',
    cMapPacked: true,
    standardFontDataUrl: '/app/pdfjs/standard_fonts/',
    wasmUrl: '/app/pdfjs/wasm/',
    iccUrl: '/app/pdfjs/iccs/',
  }).promise;
}

/** Largest canvas drawn for one page, in device pixels: an A1 drawing at 400 % would otherwise need gigabytes. */
const MAX_CANVAS_PIXELS = 16_000_000;

export type RenderedPage = { cancel(): void; done: Promise<void> };

/**
 * Draws one page at `cssWidth` CSS pixels wide into the canvas, and its text into `textContainer` (the
 * text layer a screen reader reads and a person can select).
 */
export function renderPage(
  page: PdfPage,
  cssWidth: number,
  canvas: HTMLCanvasElement,
  textContainer: HTMLElement,
): RenderedPage {
  const base = page.getViewport({ scale: 1 });
  const scale = cssWidth / base.width;
  const viewport = page.getViewport({ scale });
  const ratio = Math.min(
    window.devicePixelRatio || 1,
    Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)),
  );
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  const task = page.render({ canvas, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
  textContainer.replaceChildren();
  textContainer.style.setProperty('--scale-factor', String(scale));
  textContainer.style.setProperty('--total-scale-factor', String(scale));
  const textLayer = new pdfjs.TextLayer({
    textContentSource: page.streamTextContent(),
    container: textContainer,
    viewport,
  });
  const done = Promise.all([task.promise, textLayer.render()]).then(() => {
    // pdf.js measures text on a canvas it appends to <body>; it shows nothing, so hide it from assistive technology too.
    for (const hidden of document.querySelectorAll('.hiddenCanvasElement')) hidden.setAttribute('aria-hidden', 'true');
  });
  return {
    cancel() {
      task.cancel();
      textLayer.cancel();
    },
    done,
  };
}
