import { describe, expect, it } from 'vitest';
import { QueueFullError } from '../../src/platform/pdf/bounded-queue.ts';
import { createThumbnailRenderer, PdfRenderError } from '../../src/platform/pdf/render-thumbnail.ts';
import { pngSize } from '../helpers/documents.ts';
import { makeContentBombPdf } from '../helpers/pdf-bombs.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';

const base64 = (png: Uint8Array) => Buffer.from(png).toString('base64');

describe('the thumbnail worker pool', () => {
  it('renders page 1 in a worker, reuses it, and reports a PDF pdf.js cannot open', async () => {
    const renderer = createThumbnailRenderer({ workers: 1 });
    try {
      expect(pngSize(base64(await renderer.render(await makePdf(1))))).toEqual({ width: 200, height: 259 });
      await expect(renderer.render(new TextEncoder().encode('%PDF-1.7\nnot a pdf at all'))).rejects.toBeInstanceOf(
        PdfRenderError,
      );
      expect(pngSize(base64(await renderer.render(await makePdf(2, { size: 'a4' }))))).toEqual({
        width: 200,
        height: 283,
      });
    } finally {
      await renderer.close();
    }
  });

  it('refuses at once beyond its waiting line, and stops a render at the time limit by ending its worker', async () => {
    const messages: string[] = [];
    const renderer = createThumbnailRenderer({
      workers: 1,
      maxWaiting: 1,
      timeoutMs: 1_500,
      log: (message) => messages.push(message),
    });
    try {
      const bomb = makeContentBombPdf();
      const started = performance.now();
      const first = renderer.render(bomb, { width: 612, height: 792 });
      const second = renderer.render(bomb, { width: 792, height: 612 });
      await expect(renderer.render(bomb)).rejects.toBeInstanceOf(QueueFullError);
      expect(pngSize(base64(await first))).toEqual({ width: 200, height: 259 });
      expect(pngSize(base64(await second))).toEqual({ width: 200, height: 155 });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(messages.filter((m) => /took longer than 1500 ms/.test(m))).toHaveLength(2);
      // A fresh worker takes over after the stopped ones.
      expect(pngSize(base64(await renderer.render(await makePdf(1))))).toEqual({ width: 200, height: 259 });
    } finally {
      await renderer.close();
    }
  });

  it('ends a worker that exceeds its heap limit, not the service', async () => {
    const messages: string[] = [];
    const renderer = createThumbnailRenderer({
      workers: 1,
      maxHeapMb: 24,
      timeoutMs: 60_000,
      log: (message) => messages.push(message),
    });
    try {
      const started = performance.now();
      expect(pngSize(base64(await renderer.render(makeContentBombPdf(), { width: 612, height: 792 })))).toEqual({
        width: 200,
        height: 259,
      });
      expect(performance.now() - started).toBeLessThan(60_000);
      expect(messages.join('\n')).toMatch(/ERR_WORKER_OUT_OF_MEMORY/);
    } finally {
      await renderer.close();
    }
  });
});
