import * as pdfjs from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

// The worker is one of the app's own hashed files: the Content-Security-Policy allows workers from 'self'.
pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

export type PdfDocument = pdfjs.PDFDocumentProxy;
export type PdfPage = pdfjs.PDFPageProxy;

/** Opens a document of the workflow through the download route, with the guest token. */
export function openPdf(url: string, token: string | null): Promise<PdfDocument> {
  return pdfjs.getDocument({
    url,
    httpHeaders: token ? { authorization: `Bearer ${token}` } : undefined,
    // No eval (the CSP forbids it) and no font-face injection through inline styles.
    isEvalSupported: false,
    withCredentials: false,
  }).promise;
}

/** Largest canvas drawn for one page, in device pixels: an A1 drawing at 400 % would otherwise need gigabytes. */
const MAX_CANVAS_PIXELS = 16_000_000;

export type RenderedPage = { cancel(): void; done: Promise<void> };

/**
 * Draws one page at `cssWidth` CSS pixels wide into the canvas, and its text into `textContainer` (the
 * text layer a screen reader reads and a person can select).
 */
export function renderPage(page: PdfPage, cssWidth: number, canvas: HTMLCanvasElement, textContainer: HTMLElement): RenderedPage {
  const base = page.getViewport({ scale: 1 });
  const scale = cssWidth / base.width;
  const viewport = page.getViewport({ scale });
  const ratio = Math.min(window.devicePixelRatio || 1, Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)));
  canvas.width = Math.floor(viewport.width * ratio);
  canvas.height = Math.floor(viewport.height * ratio);
  const task = page.render({ canvas, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
  textContainer.replaceChildren();
  textContainer.style.setProperty('--scale-factor', String(scale));
  textContainer.style.setProperty('--total-scale-factor', String(scale));
  const textLayer = new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container: textContainer, viewport });
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
