import crypto from 'node:crypto';
import http from 'node:http';
import { Worker } from 'node:worker_threads';
import v8 from 'node:v8';
import vm from 'node:vm';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PDF, PdfStream } from '@libpdf/core';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { storedState, uploadFile } from '../helpers/documents.ts';
import { UPLOAD_LIMIT_BYTES } from '../../src/app.ts';
import { documents } from '../../src/platform/db/schema/index.ts';

// A full collection before each memory sample, so the sample counts memory still in use, not garbage awaiting GC.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

let t: TestApp;
let owner: TestUser;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close();
});

/**
 * Streams a multipart upload of `size` bytes over real HTTP, generating the file chunk by chunk, so neither
 * side of the test needs it in memory. Samples this process's RSS while the request runs.
 */
async function streamUpload(
  filename: string,
  size: number,
  head: Uint8Array,
): Promise<{ status: number; body: any; peakRssGrowth: number }> {
  const boundary = `----sig-limit-${crypto.randomBytes(6).toString('hex')}`;
  const preamble = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const ending = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  async function* body() {
    yield preamble;
    yield Buffer.from(head);
    let sent = head.length;
    while (sent < size) {
      const n = Math.min(chunk.length, size - sent);
      yield n === chunk.length ? chunk : chunk.subarray(0, n);
      sent += n;
    }
    yield ending;
  }
  collectGarbage();
  const baseline = bufferedMemory();
  let peak = baseline;
  // Every 500 ms: a held copy of the file would stay alive for the whole upload, so it is seen at any rate, while
  // a full collection every 100 ms starved the upload itself on a saturated machine.
  const sampler = setInterval(() => {
    collectGarbage();
    peak = Math.max(peak, bufferedMemory());
  }, 500);
  try {
    const response = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(
        `${baseUrl}/document/v1`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${owner.token}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (part) => {
            text += part;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      request.on('error', reject);
      Readable.from(body()).pipe(request);
    });
    collectGarbage();
    peak = Math.max(peak, bufferedMemory());
    return { status: response.status, body: JSON.parse(response.text), peakRssGrowth: peak - baseline };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Memory a buffered upload would occupy: the JS heap plus Buffers/ArrayBuffers. Measured instead of RSS,
 * which also moves with native allocations (database driver sockets, allocator arenas) and made the check
 * flaky on a busy machine; holding the 25 MB file would still add at least 25 MB here.
 */
function bufferedMemory(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** A valid PDF of exactly `size` bytes: one page plus an uncompressed padding stream sized to fit. */
async function pdfOfExactSize(size: number): Promise<Uint8Array> {
  let padding = size - 2000;
  for (let attempt = 0; attempt < 5; attempt++) {
    const pdf = PDF.create();
    pdf.addPage({ size: 'letter' }).drawText('Padded', { x: 72, y: 700, size: 24 });
    const stream = new PdfStream([], new Uint8Array(padding).fill(0x41));
    pdf.getCatalog().set('PieceInfo', pdf.context.register(stream));
    const bytes = await pdf.save({ compressStreams: false });
    if (bytes.length === size) return bytes;
    padding += size - bytes.length;
  }
  throw new Error(`could not build a PDF of exactly ${size} bytes`);
}

describe('upload size limit (25 MB)', () => {
  // Retried, with more time: on a saturated machine the forced collections can stretch this one streaming exchange.
  it('refuses 25 MB + 1 byte with INVALID_DOCUMENT_SIZE, streaming it (memory stays well below the file size) and storing nothing', {
    retry: 2,
    timeout: 180_000,
  }, async () => {
    const before = await storedState(t);
    const res = await streamUpload('huge.pdf', UPLOAD_LIMIT_BYTES + 1, Buffer.from('%PDF-1.7\n'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_DOCUMENT_SIZE');
    expect(res.body.errorDescription).toMatch(/25 MB/);
    expect(await storedState(t)).toEqual(before);
    // Holding the file (or, worse, a string of it) would add at least its 25 MB; streamed, it adds about 1 MB.
    expect(res.peakRssGrowth).toBeLessThan(UPLOAD_LIMIT_BYTES / 2);
  });

  it('accepts a PDF of exactly 25 MB', async () => {
    const bytes = await pdfOfExactSize(UPLOAD_LIMIT_BYTES);
    const res = await uploadFile(t, owner.token, 'exactly-25mb.pdf', bytes);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [row] = await t.platform.db.select().from(documents).where(eq(documents.id, res.body.id));
    expect(row.size).toBe(UPLOAD_LIMIT_BYTES);
  });
});

describe('memory of an accepted upload', () => {
  // Retried like the refusal above: a saturated machine stretches the exchange and the allocator's arenas.
  it('a 25 MB PDF grows the service by less than twice its size: read once for the parser, the thumbnail worker reads only page 1 from the staged file', {
    retry: 2,
    timeout: 180_000,
  }, async () => {
    // Warm-up: the thumbnail worker (pdf.js) is started once, not per upload.
    expect((await uploadFile(t, owner.token, 'warm-up.pdf', await makePdf(1))).status).toBe(201);
    const bytes = Buffer.from(await pdfOfExactSize(UPLOAD_LIMIT_BYTES));
    const boundary = `----sig-memory-${crypto.randomBytes(6).toString('hex')}`;
    collectGarbage();
    // RSS (the whole process, the thumbnail worker included) sampled every millisecond from a thread of its own, whose
    // timer the upload's work on the main thread cannot delay; the main thread's heap and buffers every 10 ms.
    const rss = new Worker(
      `const { parentPort } = require('node:worker_threads');
      let peak = 0; const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage.rss()); }, 1);
      parentPort.postMessage('sampling');
      parentPort.once('message', () => { clearInterval(timer); parentPort.postMessage(peak); });`,
      { eval: true },
    );
    await new Promise((resolve) => rss.once('message', resolve));
    const baseline = { rss: process.memoryUsage.rss(), buffered: bufferedMemory() };
    let peakBuffered = baseline.buffered;
    const sampler = setInterval(() => {
      peakBuffered = Math.max(peakBuffered, bufferedMemory());
    }, 10);
    let peakRss: number;
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(
          `${baseUrl}/document/v1`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${owner.token}`,
              'content-type': `multipart/form-data; boundary=${boundary}`,
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        request.on('error', reject);
        // Slices of the one buffer made before the baseline: the client side adds nothing.
        async function* body() {
          yield Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
          );
          for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
          yield Buffer.from(`\r\n--${boundary}--\r\n`);
        }
        Readable.from(body()).pipe(request);
      });
      expect(status).toBe(201);
    } finally {
      clearInterval(sampler);
      rss.postMessage('stop');
      peakRss = await new Promise<number>((resolve) => rss.once('message', resolve));
      await rss.terminate();
    }
    // Before: the file was read, copied, and copied again for the thumbnail worker (3 to 4.4 times its size).
    // The main thread holds the file once (for the parser) plus streamed chunks not yet collected.
    expect(peakBuffered - baseline.buffered).toBeLessThan(1.5 * UPLOAD_LIMIT_BYTES);
    expect(peakRss - baseline.rss).toBeLessThan(2 * UPLOAD_LIMIT_BYTES);
  });
});

describe('large page counts', () => {
  it('uploads a 500-page PDF (only page 1 is rendered)', async () => {
    const bytes = await makePdf(500);
    const started = Date.now();
    const res = await uploadFile(t, owner.token, 'five-hundred.pdf', bytes);
    const elapsed = Date.now() - started;
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [row] = await t.platform.db.select().from(documents).where(eq(documents.id, res.body.id));
    expect(row.pages).toBe(500);
    expect((row.pageSizes as unknown[]).length).toBe(500);
    expect(elapsed).toBeLessThan(30_000);
  });
});
