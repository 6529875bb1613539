// Document upload: time from sending POST /document/v1 to its 201, for a 1-page and a 100-page PDF, each sent
// BENCH_UPLOADS times (default 40), one at a time and then BENCH_CONCURRENCY in flight (default 4), against the app
// listening on 127.0.0.1 with a temporary DATA_DIR. Also the process's peak RSS while a 25 MB + 1 byte file is
// streamed in and refused. A .docx conversion is timed once (LibreOffice).
// Run: npm run bench:upload   (DATABASE_URL=postgres://... uses a scratch database on that server)
import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import { Readable } from 'node:stream';
import { PDF } from '@libpdf/core';
import { strToU8, zipSync } from 'fflate';
import { UPLOAD_LIMIT_BYTES } from '../src/app.ts';
import { startBenchServer } from './bench-server.ts';

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
// One account sends every upload here, far beyond the per-account limit that protects a real service.
const server = await startBenchServer({ name: 'upload', config: { uploadsPerMinute: 1_000_000 } });
const { built } = server;

async function makePdf(pages: number): Promise<Uint8Array> {
  const pdf = PDF.create();
  for (let i = 0; i < pages; i++) {
    const page = pdf.addPage({ size: 'letter' });
    page.drawText(`Page ${i + 1}`, { x: 72, y: 700, size: 24 });
    for (let line = 0; line < 30; line++)
      page.drawText(`Clause ${i + 1}.${line + 1}: the parties agree to the terms set out below.`, {
        x: 72,
        y: 660 - line * 18,
        size: 10,
      });
  }
  return pdf.save();
}

function makeDocx(): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Benchmark letter</w:t></w:r></w:p></w:body></w:document>',
    ),
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

try {
  const address = await server.listen();
  const email = `bench-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const password = 'bench password 1';
  const signup = await fetch(`${address}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench User', email, password }),
  });
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  const signin = await fetch(`${address}/auth/v1/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'PASSWORD', username: email, password }),
  });
  const { accessToken } = (await signin.json()) as { accessToken: string };
  const authorization = `Bearer ${accessToken}`;

  async function upload(name: string, bytes: Uint8Array): Promise<number> {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(bytes)], { type: 'application/octet-stream' }), name);
    const started = performance.now();
    const res = await fetch(`${address}/document/v1`, { method: 'POST', headers: { authorization }, body: form });
    const body = await res.text();
    const elapsed = performance.now() - started;
    if (res.status !== 201) throw new Error(`upload of ${name} answered ${res.status}: ${body}`);
    return elapsed;
  }

  async function scenario(label: string, name: string, bytes: Uint8Array, count: number, concurrency: number) {
    await upload(name, bytes); // warm-up, not counted
    const times: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: Math.min(concurrency, count) }, async () => {
        while (next < count) {
          next++;
          times.push(await upload(name, bytes));
        }
      }),
    );
    const wall = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    console.log(
      `${label.padEnd(22)} ${String(count).padStart(4)} uploads, ${concurrency} in flight: median ${percentile(times, 50).toFixed(0)} ms, ` +
        `p99 ${percentile(times, 99).toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms, ${(count / wall).toFixed(1)} uploads/s; RSS ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`,
    );
  }

  const onePage = await makePdf(1);
  const hundredPages = await makePdf(100);
  console.log(
    `${built.platform.database.kind}; 1-page PDF ${(onePage.length / 1024).toFixed(1)} KB, 100-page PDF ${(hundredPages.length / 1024).toFixed(1)} KB; ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(`RSS after start ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
  for (const concurrency of [1, CONCURRENCY]) {
    await scenario('1-page PDF', 'one-page.pdf', onePage, UPLOADS, concurrency);
    await scenario('100-page PDF', 'hundred-pages.pdf', hundredPages, UPLOADS, concurrency);
  }
  await scenario('.docx (LibreOffice)', 'letter.docx', makeDocx(), Math.max(2, Math.round(UPLOADS / 10)), 2);

  // Peak RSS while 25 MB + 1 byte streams in and is refused (the client generates it chunk by chunk).
  const boundary = 'bench-boundary';
  async function* body() {
    yield Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.7\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    for (let sent = 9; sent < UPLOAD_LIMIT_BYTES + 1; sent += chunk.length)
      yield chunk.subarray(0, Math.min(chunk.length, UPLOAD_LIMIT_BYTES + 1 - sent));
    yield Buffer.from(`\r\n--${boundary}--\r\n`);
  }
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const status = await new Promise<number>((resolve, reject) => {
    const request = http.request(
      `${address}/document/v1`,
      { method: 'POST', headers: { authorization, 'content-type': `multipart/form-data; boundary=${boundary}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    Readable.from(body()).pipe(request);
  });
  clearInterval(sampler);
  console.log(
    `25 MB + 1 byte upload: HTTP ${status}; RSS ${(baseline / 1e6).toFixed(0)} MB before, peak +${((peak - baseline) / 1e6).toFixed(1)} MB while streaming (no forced GC)`,
  );
} finally {
  await server.close();
}
