import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { isPng, pngSize, uploadFile } from '../helpers/documents.ts';
import { makeContentBombPdf, makeImageBombPdf } from '../helpers/pdf-bombs.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';

/*
 * Decompression bombs uploaded while the health probe is called every 10 ms. Rendered on the event loop, the
 * image bomb alone held the process for about a second (0.93-0.99 s measured before the thumbnail moved into
 * worker threads); the content bomb for far longer. The bound below is generous for a shared 2-core machine
 * yet fails with rendering on the event loop.
 */
const STALL_BOUND_MS = 400;

test.beforeAll(async ({ app: t, owner }) => {
  // Warm up: the first render starts a worker and loads pdf.js there.
  await uploadFile(t, owner.token, 'warm-up.pdf', await makePdf(1));
});

/** Uploads `pdf` while probing health; answers the upload and the slowest health answer and event-loop delay. */
async function uploadWhileProbing(t: TestApp, owner: TestUser, name: string, pdf: Uint8Array) {
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  let done = false;
  let slowestHealthMs = 0;
  let probes = 0;
  const probing = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/admin/internal/health' });
      expect(res.statusCode).toBe(200);
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
      probes++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const upload = await uploadFile(t, owner.token, name, pdf);
  done = true;
  await probing;
  loopDelay.disable();
  return { upload, slowestHealthMs, probes, maxLoopDelayMs: loopDelay.max / 1e6 };
}

describe('page-1 thumbnails of decompression bombs', () => {
  test('an image inflating to 100 MB of pixels: health keeps answering; the upload succeeds with a thumbnail', async ({
    app: t,
    owner,
  }) => {
    const pdf = makeImageBombPdf();
    expect(pdf.byteLength).toBeLessThan(150_000);
    const { upload, slowestHealthMs, probes, maxLoopDelayMs } = await uploadWhileProbing(
      t,
      owner,
      'image-bomb.pdf',
      pdf,
    );
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    expect(isPng(upload.body.thumbnailBase64)).toBe(true);
    expect(pngSize(upload.body.thumbnailBase64).width).toBe(200);
    expect(probes).toBeGreaterThan(0);
    expect(slowestHealthMs).toBeLessThan(STALL_BOUND_MS);
    expect(maxLoopDelayMs).toBeLessThan(STALL_BOUND_MS);
  });

  test('a content stream inflating to 100 MB of drawing operators: stopped at the time limit, the upload succeeds with a blank page-shaped thumbnail', async ({
    app: t,
    owner,
  }) => {
    const pdf = makeContentBombPdf();
    expect(pdf.byteLength).toBeLessThan(300_000);
    const started = performance.now();
    const { upload, slowestHealthMs, probes, maxLoopDelayMs } = await uploadWhileProbing(
      t,
      owner,
      'content-bomb.pdf',
      pdf,
    );
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(pngSize(upload.body.thumbnailBase64)).toEqual({ width: 200, height: 259 });
    expect(probes).toBeGreaterThan(50);
    expect(slowestHealthMs).toBeLessThan(STALL_BOUND_MS);
    expect(maxLoopDelayMs).toBeLessThan(STALL_BOUND_MS);
  });
});
