import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, eq, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { makeDocx, multipartBody, storedState, uploadFile } from '../helpers/documents.ts';
import { listen, whileProbingHealth } from '../helpers/health-probe.ts';
import { makeObjectStreamPdf, makeXrefStreamBombPdf, makeXrefTablePdf } from '../helpers/pdf-bombs.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { documents } from '../../src/platform/db/schema/index.ts';
import { createPdfInspector, PdfRejectedError } from '../../src/platform/pdf/inspect-pdf.ts';

/*
 * A valid one-page PDF whose cross-reference stream declares millions of rows of deflated zeros: parsed on the
 * event loop, 10 KB held the service for 12.5 s and 100 KB for 68 s (1.6 GB), and the file was then accepted
 * and stored, so sealing parsed it again. The upload's check runs in a worker thread under limits, and a file
 * whose structure is that costly is refused: 400 INVALID_PDF, quickly, with nothing stored, while the health
 * check keeps answering.
 */
const STALL_BOUND_MS = 500;
const ANSWER_BOUND_MS = 5_000;

let t: TestApp;
let owner: TestUser;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
  base = await listen(t);
  // Warm-up: the first upload starts the workers (the check's and the thumbnail's) and loads their modules.
  expect((await uploadFile(t, owner.token, 'warm-up.pdf', await makePdf(1))).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** The upload (or replacement) of `bytes` over a real socket, its body built now: what the probe measures is the request alone. */
function sendRequest(method: 'POST' | 'PUT', path: string, name: string, bytes: Uint8Array) {
  const { body, contentType } = multipartBody([
    { name: 'file', filename: name, contentType: 'application/pdf', data: bytes },
  ]);
  return () =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const headers = {
        authorization: `Bearer ${owner.token}`,
        'content-type': contentType,
        'content-length': body.length,
      };
      const req = http.request(`${base}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
}

async function expectRefusedWhileHealthy(method: 'POST' | 'PUT', path: string, name: string, bytes: Uint8Array) {
  const before = await storedState(t);
  const {
    result: res,
    slowestHealthMs,
    maxLoopDelayMs,
    elapsedMs,
  } = await whileProbingHealth(base, sendRequest(method, path, name, bytes));
  const label = `${name} after ${elapsedMs.toFixed(0)} ms: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  expect(res.status, label).toBe(400);
  expect(res.body.message, label).toBe('INVALID_PDF');
  expect(res.body.errorDescription, label).toContain(name);
  expect(elapsedMs, label).toBeLessThan(ANSWER_BOUND_MS);
  expect(slowestHealthMs, label).toBeLessThan(STALL_BOUND_MS);
  expect(maxLoopDelayMs, label).toBeLessThan(STALL_BOUND_MS);
  expect(await storedState(t), label).toEqual(before);
  return res.body.errorDescription as string;
}

describe('cross-reference stream bombs on upload (POST /document/v1)', () => {
  it('10 KB declaring 2,621,440 rows: 400 INVALID_PDF within seconds, the health check answering, nothing stored', async () => {
    const pdf = makeXrefStreamBombPdf();
    expect(pdf.byteLength).toBeLessThan(12_000);
    const description = await expectRefusedWhileHealthy('POST', '/document/v1', 'xref-bomb-10k.pdf', pdf);
    expect(description).toMatch(/cross-reference/);
  }, 60_000);

  it('~100 KB declaring 26 million rows: the same', async () => {
    const pdf = makeXrefStreamBombPdf({ entries: 26_214_400 });
    expect(pdf.byteLength).toBeGreaterThan(90_000);
    expect(pdf.byteLength).toBeLessThan(120_000);
    const description = await expectRefusedWhileHealthy('POST', '/document/v1', 'xref-bomb-100k.pdf', pdf);
    expect(description).toMatch(/cross-reference/);
  }, 60_000);

  it('rows of no bytes at all (/W [0 0 0]), a 300-byte file declaring 5 million: the same', async () => {
    const pdf = makeXrefStreamBombPdf({ entries: 5_000_000, widths: [0, 0, 0] });
    expect(pdf.byteLength).toBeLessThan(1_000);
    await expectRefusedWhileHealthy('POST', '/document/v1', 'xref-zero-width.pdf', pdf);
  }, 60_000);

  it('an object stream inflating to 200 MB that only drawing on the page would read (its /Resources): refused at upload, so never stored for sealing to inflate', async () => {
    const pdf = makeObjectStreamPdf({ bombMegabytes: 200 });
    expect(pdf.byteLength).toBeLessThan(400_000);
    const description = await expectRefusedWhileHealthy('POST', '/document/v1', 'object-stream-bomb.pdf', pdf);
    expect(description).toMatch(/expands to more than/);
  }, 60_000);

  it('an honest file of the same shape (10,000 objects in object streams, a cross-reference stream) is accepted', async () => {
    const res = await uploadFile(t, owner.token, 'object-streams.pdf', makeObjectStreamPdf({ objects: 10_000 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [row] = await t.platform.db.select().from(documents).where(eq(documents.id, res.body.id));
    expect(row.pages).toBe(1);
  });
});

describe('cross-reference stream bombs on replacement (PUT /document/v1/{docId})', () => {
  it('replacing a document by the 10 KB bomb: 400 INVALID_PDF, the document unchanged', async () => {
    const upload = await uploadFile(t, owner.token, 'original.pdf', await makePdf(2));
    expect(upload.status).toBe(201);
    const [before] = await t.platform.db.select().from(documents).where(eq(documents.id, upload.body.id));
    await expectRefusedWhileHealthy(
      'PUT',
      `/document/v1/${upload.body.id}`,
      'xref-bomb-10k.pdf',
      makeXrefStreamBombPdf(),
    );
    const [after] = await t.platform.db.select().from(documents).where(eq(documents.id, upload.body.id));
    expect(after).toEqual(before);
  }, 60_000);
});

describe('a Word file whose conversion yields such a PDF', () => {
  // A LibreOffice stand-in writing the bomb as its output (the real conversion is tested in upload.test.ts).
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-bomb-soffice-'));
  const sofficePath = path.join(scratch, 'soffice');
  let converting: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    const bomb = Buffer.from(makeXrefStreamBombPdf()).toString('base64');
    fs.writeFileSync(sofficePath, `#!/bin/sh\nmkdir -p out\nbase64 -d > out/document.pdf <<'EOF'\n${bomb}\nEOF\n`, {
      mode: 0o755,
    });
    converting = await createTestApp({ sofficePath });
    user = await createUser(converting);
  });
  afterAll(async () => {
    await converting?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('is refused (400 DOCUMENT_CONVERSION_FAILED, as any unusable conversion), quickly, nothing stored', async () => {
    const before = await storedState(converting);
    const started = performance.now();
    const res = await uploadFile(converting, user.token, 'letter.docx', makeDocx());
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toBe('DOCUMENT_CONVERSION_FAILED');
    expect(res.body.errorDescription).toMatch(/resulting PDF is unusable: .*cross-reference/);
    expect(performance.now() - started).toBeLessThan(ANSWER_BOUND_MS + 10_000);
    expect(await storedState(converting)).toEqual(before);
  }, 60_000);
});

describe("the check's own limits (createPdfInspector), past the structure limits", () => {
  // No amplification: a cross-reference table costs libpdf about 1.2 µs a row. Such costs are bounded by the
  // processor time the check may take (500 ms by default; lowered here so that a small file shows it), and, while it
  // runs, by its time and heap limits. A later parse of accepted bytes costs about what their check did.
  async function refusal(options: Parameters<typeof createPdfInspector>[0], pdf: Uint8Array) {
    const inspector = createPdfInspector(options);
    try {
      await inspector.inspect(await makePdf(1));
      return await inspector.inspect(pdf).then(
        () => null,
        (error: unknown) => error,
      );
    } finally {
      await inspector.close();
    }
  }

  it('processor time: 300,000 table rows against a 50 ms allowance', async () => {
    const error = await refusal({ limits: { maxCpuMs: 50 } }, makeXrefTablePdf(300_000));
    expect(error).toBeInstanceOf(PdfRejectedError);
    expect((error as PdfRejectedError).reason).toBe('too-complex');
    expect((error as PdfRejectedError).message).toMatch(/ms of processor time, more than the 50 ms/);
  }, 60_000);

  it('wall-clock time: stopped and refused at the time limit', async () => {
    const error = await refusal({ timeLimitMs: 100 }, makeXrefTablePdf(1_000_000));
    expect((error as PdfRejectedError).reason).toBe('too-complex');
    expect((error as PdfRejectedError).message).toMatch(/not read within 0.1 s/);
  }, 60_000);

  it('heap: stopped and refused when the worker runs out of its heap', async () => {
    const error = await refusal(
      {
        maxHeapMb: 48,
        timeLimitMs: 30_000,
        limits: { maxObjects: Infinity, maxStreamBytes: Infinity, maxDecodedBytes: Infinity, maxCpuMs: Infinity },
      },
      makeXrefStreamBombPdf({ entries: 5_000_000 }),
    );
    expect((error as PdfRejectedError).reason).toBe('too-complex');
    expect((error as PdfRejectedError).message).toMatch(/more than the 48 MB of memory/);
  }, 60_000);
});
