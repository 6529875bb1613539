// Full envelope lifecycle through the HTTP API (app.inject, in process): upload a PDF, add two recipients,
// place their fields, commence, both recipients redeem their mailed links and sign, then wait until the
// sealing job has stored the sealed PDF. Reports envelopes per second (sealed) and per-envelope latencies.
// Run: npm run bench:lifecycle   (DATABASE_URL=postgres://... npm run bench:lifecycle uses a scratch database there)
// BENCH_ENVELOPES (default 40) and BENCH_CONCURRENCY (default 4) override the sizes.
import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { findDefaultPackage } from '../src/modules/billing/billing.repo.ts';
import { createAccount } from '../src/modules/users/accounts.ts';
import { mailOutbox, organizations, workflows } from '../src/platform/db/schema/index.ts';
import { makePdf } from '../test/helpers/pdf-fixtures.ts';
import { pngDataUrl } from '../test/helpers/ceremony.ts';
import { startBenchServer } from './bench-server.ts';

const ENVELOPES = Number(process.env.BENCH_ENVELOPES ?? 40);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
// uploadsPerMinute: one account uploads every envelope, and BENCH_ENVELOPES may exceed the per-account limit.
const server = await startBenchServer({ name: 'lifecycle', config: { jobPollSeconds: 0.5, uploadsPerMinute: 1_000_000 }, overrides: { log: () => {} } });
const { built } = server;
const { db } = built.platform;
const kind = built.platform.database.kind;

async function call(method: string, url: string, options: { token?: string; body?: unknown; payload?: Buffer; headers?: Record<string, string> } = {}) {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | Buffer | undefined = options.payload;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const response = await built.app.inject({ method: method as 'GET', url, headers, payload });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.body ? JSON.parse(response.body) : null;
}

function multipart(file: Uint8Array): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `bench${crypto.randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="contract.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    Buffer.from(file),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function linkCode(workflowId: number, email: string): Promise<string> {
  const [mail] = await db.select().from(mailOutbox).where(and(eq(mailOutbox.workflowId, workflowId), eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'COMMENCE')));
  const match = /\/sign\/([A-Za-z0-9_-]+)/.exec(mail?.textBody ?? '');
  if (!match) throw new Error(`no commence mail to ${email}`);
  return match[1];
}

async function waitSealed(workflowId: number): Promise<void> {
  for (;;) {
    const [row] = await db.select({ sealStatus: workflows.sealStatus }).from(workflows).where(eq(workflows.id, workflowId));
    if (row.sealStatus === 'SEALED') return;
    if (row.sealStatus === 'FAILED') throw new Error(`workflow ${workflowId}: seal FAILED`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

type Timing = { total: number; toCompleted: number; sealLag: number };

try {
  const plan = await db.transaction((tx) => findDefaultPackage(tx));
  const { user, organizationId } = await db.transaction((tx) => createAccount(tx, { name: 'Bench Owner', email: 'bench-owner@example.com', passwordHash: 'x' }, plan!));
  // Every commence debits a credit; the default plan's would run out.
  await db.update(organizations).set({ credits: 1_000_000 }).where(eq(organizations.id, organizationId));
  const token = await built.platform.tokens.sign({ sub: String(user.id), type: 'USER', organizationId }, 3600);
  const pdf = await makePdf(2);
  const signature = pngDataUrl(120, 40);

  async function envelope(n: number): Promise<Timing> {
    const started = performance.now();
    const upload = multipart(pdf);
    const { id: documentId, workflowId } = await call('POST', '/document/v1?sequence=UNORDERED', { token, ...upload });
    const emails = [`a${n}-${crypto.randomBytes(3).toString('hex')}@bench.example`, `b${n}-${crypto.randomBytes(3).toString('hex')}@bench.example`];
    const rows = await call('POST', `/workflow/v1/${workflowId}/recipients`, {
      token,
      body: emails.map((emailAddress, i) => ({ name: i === 0 ? 'Ada Signer' : 'Ben Signer', emailAddress, useDigitalCert: false, recipientColor: i === 0 ? '#1A56DB' : '#D61F69', recipientRole: 'SIGNER' })),
    });
    const placed = await call('POST', '/workflow/v1/fields/list', {
      token,
      body: rows.flatMap((r: { id: number }, i: number) => [
        { documentId, recipientId: r.id, pageNo: 2, box: { x: 72, y: 500 + i * 80, width: 180, height: 50 }, fieldType: 'SIGNATURE', fieldRequired: true },
        { documentId, recipientId: r.id, pageNo: 1, box: { x: 72, y: 200 + i * 40, width: 200, height: 24 }, fieldType: 'NAME', fieldRequired: true },
      ]),
    });
    await call('POST', `/workflow/v1/${workflowId}/commence`, { token, body: { title: `Bench ${n}`, message: 'Please sign' } });
    let completedAt = 0;
    for (const [i, email] of emails.entries()) {
      const guest = await call('GET', `/auth/v1/getGuestToken/${await linkCode(workflowId, email)}`);
      const mine = placed.filter((f: { recipientId: number }) => f.recipientId === rows[i].id);
      const result = await call('POST', `/workflow/v1/${documentId}/fields/save`, {
        token: guest.accessToken,
        body: mine.map((f: { id: number; fieldType: string }) => ({ id: f.id, type: f.fieldType, value: f.fieldType === 'SIGNATURE' ? signature : i === 0 ? 'Ada Signer' : 'Ben Signer' })),
      });
      if (result.workflowStatus === 'COMPLETED') completedAt = performance.now();
    }
    if (!completedAt) throw new Error(`workflow ${workflowId} did not complete`);
    await waitSealed(workflowId);
    const sealedAt = performance.now();
    return { total: sealedAt - started, toCompleted: completedAt - started, sealLag: sealedAt - completedAt };
  }

  // Warm-up: key material, compiled schemas, font subsets.
  await envelope(0);

  const timings: Timing[] = [];
  let next = 1;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next <= ENVELOPES) timings.push(await envelope(next++));
  }));
  const seconds = (performance.now() - started) / 1000;

  const pct = (values: number[], p: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))].toFixed(0);
  };
  console.log(`${kind}: ${ENVELOPES} envelopes, ${CONCURRENCY} at a time, ${seconds.toFixed(1)} s: ${(ENVELOPES / seconds).toFixed(2)} envelopes/s sealed`);
  for (const [label, key] of [['create..sealed', 'total'], ['create..COMPLETED', 'toCompleted'], ['COMPLETED..SEALED', 'sealLag']] as const) {
    const values = timings.map((t) => t[key]);
    console.log(`  ${label.padEnd(18)} median ${pct(values, 0.5)} ms, p95 ${pct(values, 0.95)} ms`);
  }
} finally {
  await server.close();
}
