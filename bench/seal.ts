// 1. Seal cost against the floor of hashing the same bytes: the seal (PAdES B-B, incremental, as seal-job.ts makes it) versus one
// SHA-256 of the whole file with node:crypto, on a ~1 MB and a ~20 MB PDF (pages carrying incompressible
// images, as a scanned document does). Goal: seal within 3x hashing + 10 ms.
// 2. End to end, over HTTP against the service listening on 127.0.0.1: from the answer to the final signing call
// (fields/save completing the envelope) to the sealed PDF downloaded, for a 1-page and a ~20 MB document, split into
// its parts as the seal job reports them (seal-job.ts sealPhases): the hop to the job, reading, drawing the values,
// the seal, storing, the SEALED commit, the download's answer after the file was stored (downloadable: status and
// headers received) and its transfer. Goal: the file downloadable within 3x SHA-256 of the file + 10 ms. The service
// runs in a child process of the bench (the client's buffers stay out of its heap).
// Run: npm run bench:seal   (DATABASE_URL=postgres://... runs part 2 on a scratch database there; BENCH_SEAL_RUNS
// sets part 2's runs per size, default 5; BENCH_SEAL_ROWS=1 prints every run)
import crypto from 'node:crypto';
import { fork } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadSealIdentity } from '../src/platform/crypto/seal-identity.ts';
import type { SealIdentity } from '../src/platform/crypto/seal-identity.ts';
import { IncrementalPdf } from '../src/platform/pdf/incremental-update.ts';
import { appendSignatureTo } from '../src/platform/signing/append-signature.ts';
import { platformSealSigner } from '../src/platform/signing/pdf-signer.ts';
import { subscribe } from 'node:diagnostics_channel';
import { eq, and } from 'drizzle-orm';
import { findDefaultPackage } from '../src/modules/billing/billing.repo.ts';
import { createAccount } from '../src/modules/users/accounts.ts';
import { mailOutbox, organizations } from '../src/platform/db/schema/index.ts';
import { sealPhases, type SealPhase } from '../src/modules/signing/seal-job.ts';
import { buildPdf, makePdf } from '../test/helpers/pdf-fixtures.ts';
import { pngDataUrl } from '../test/helpers/ceremony.ts';
import { startBenchServer } from './bench-server.ts';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Hash and seal alternate within each run, so load from other processes hits both alike. CPU time (user +
 * system, this process) is reported beside wall time because a busy machine inflates only the latter.
 */
async function measure(runs: number, pdf: Uint8Array, identity: SealIdentity) {
  const wall = { hash: [] as number[], seal: [] as number[] };
  const cpu = { hash: [] as number[], seal: [] as number[] };
  const sample = async (kind: 'hash' | 'seal', fn: () => unknown) => {
    const usage = process.cpuUsage();
    const start = performance.now();
    await fn();
    wall[kind].push(performance.now() - start);
    const used = process.cpuUsage(usage);
    cpu[kind].push((used.user + used.system) / 1000);
  };
  for (let i = 0; i < runs; i++) {
    await sample('hash', () => crypto.createHash('sha256').update(pdf).digest());
    await sample('seal', () => seal(pdf, identity));
  }
  return {
    wall: { hash: median(wall.hash), seal: median(wall.seal) },
    cpu: { hash: median(cpu.hash), seal: median(cpu.seal) },
  };
}

/** The seal as the seal job makes it: on one parse, the result kept as parts with their SHA-256 for the blob store. */
async function seal(pdf: Uint8Array, identity: SealIdentity) {
  return (await appendSignatureTo(await IncrementalPdf.open(pdf), platformSealSigner(identity, {}))).hashedParts();
}

/** Part 1, in this process: the seal against hashing the same bytes. */
async function sealCost(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'bench-seal-'));
  try {
    const identity = await loadSealIdentity(dataDir);
    for (const [label, pages, imageBytes, runs] of [
      ['~1 MB', 5, 200_000, 15],
      ['~20 MB', 100, 200_000, 9],
    ] as const) {
      const pdf = await buildPdf(pages, imageBytes);
      for (let i = 0; i < 3; i++) await seal(pdf, identity); // warm-up: JIT and key import
      const { wall, cpu } = await measure(runs, pdf, identity);
      const verdict = (m: { hash: number; seal: number }) =>
        `sha256 ${m.hash.toFixed(1)} ms, seal ${m.seal.toFixed(1)} ms, budget ${(3 * m.hash + 10).toFixed(1)} ms: ${m.seal <= 3 * m.hash + 10 ? 'within' : 'OVER'}`;
      console.log(`${label} (${(pdf.length / 1e6).toFixed(1)} MB, ${pages} pages), medians of ${runs}:`);
      console.log(`  wall: ${verdict(wall)}`);
      console.log(`  cpu:  ${verdict(cpu)}`);
    }
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// 2. From the final signing call's answer to the sealed file downloaded. The service runs in a child process, as it
// would for a real client: the client's 20 MB upload and download buffers would otherwise trigger garbage collections
// in the service's heap that land in the measured window (seen with --trace-gc when both shared a process).

type FromService =
  | { type: 'ready'; baseUrl: string; token: string; kind: string }
  | { type: 'phase'; workflowId: number; phase: SealPhase['phase']; at: number }
  | { type: 'code'; code: string }
  | { type: 'drained' };
type ToService = { type: 'code'; workflowId: number } | { type: 'drain' } | { type: 'close' };

/** Wall-clock milliseconds comparable between the two processes. */
const now = () => performance.timeOrigin + performance.now();

async function serve(): Promise<void> {
  const send = (message: FromService) => process.send!(message);
  // Phases as they happen, stamped in this process's clock.
  subscribe(sealPhases.name, (message) => {
    const { workflowId, phase, at } = message as SealPhase;
    send({ type: 'phase', workflowId, phase, at: performance.timeOrigin + at });
  });
  const server = await startBenchServer({
    name: 'seal-e2e',
    config: { uploadsPerMinute: 1_000_000 },
    overrides: { log: () => {} },
  });
  const { built } = server;
  const { db } = built.platform;
  const plan = await db.transaction((tx) => findDefaultPackage(tx));
  const { user, organizationId } = await db.transaction((tx) =>
    createAccount(tx, { name: 'Bench Owner', email: 'bench-owner@example.com', passwordHash: 'x' }, plan!),
  );
  await db.update(organizations).set({ credits: 1_000_000 }).where(eq(organizations.id, organizationId));
  const token = await built.platform.tokens.sign({ sub: String(user.id), type: 'USER', organizationId }, 3600);
  const baseUrl = await server.listen();
  process.on('message', async (message: ToService) => {
    if (message.type === 'code') {
      const [mail] = await db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.workflowId, message.workflowId), eq(mailOutbox.kind, 'COMMENCE')));
      send({ type: 'code', code: /\/sign\/([A-Za-z0-9_-]+)/.exec(mail.textBody)![1] });
    } else if (message.type === 'drain') {
      await built.platform.jobs.drain();
      send({ type: 'drained' });
    } else {
      await server.close();
      process.exit(0);
    }
  });
  send({ type: 'ready', baseUrl, token, kind: built.platform.database.kind });
}

async function endToEnd(): Promise<void> {
  const RUNS = Number(process.env.BENCH_SEAL_RUNS ?? 5);
  const phases = new Map<number, Map<SealPhase['phase'], number>>();
  const replies: ((message: FromService) => void)[] = [];
  const child = fork(import.meta.filename, ['serve'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let ready: Extract<FromService, { type: 'ready' }> | null = null;
  const started = new Promise<void>((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`service exited (${code})`)));
    child.on('message', (message: FromService) => {
      if (message.type === 'phase') {
        const seen = phases.get(message.workflowId) ?? new Map();
        // The last attempt's times, should a seal run twice.
        seen.set(message.phase, message.at);
        phases.set(message.workflowId, seen);
      } else if (message.type === 'ready') {
        ready = message;
        resolve();
      } else replies.shift()?.(message);
    });
  });
  /** One request to the service process, answered in order. */
  const ask = (message: ToService) =>
    new Promise<FromService>((resolve) => {
      replies.push(resolve);
      child.send(message);
    });
  await started;
  const { baseUrl: base, token, kind } = ready!;
  const signature = pngDataUrl(120, 40);

  const call = async (
    method: string,
    path: string,
    options: { token?: string; body?: unknown; form?: FormData } = {},
  ) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | FormData | undefined = options.form;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${base}${path}`, { method, headers, body });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
    return text ? JSON.parse(text) : null;
  };

  /** One envelope up to the last signature; returns the times of the final call's answer and of the download. */
  async function once(pdf: Uint8Array, n: number) {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(pdf)], { type: 'application/pdf' }), 'contract.pdf');
    const { id: documentId, workflowId } = await call('POST', '/document/v1?sequence=UNORDERED', { token, form });
    const email = `signer-${n}-${crypto.randomBytes(3).toString('hex')}@bench.example`;
    const [row] = await call('POST', `/workflow/v1/${workflowId}/recipients`, {
      token,
      body: [
        {
          name: 'Ada Signer',
          emailAddress: email,
          useDigitalCert: false,
          recipientColor: '#1A56DB',
          recipientRole: 'SIGNER',
        },
      ],
    });
    const placed = await call('POST', '/workflow/v1/fields/list', {
      token,
      body: [
        {
          documentId,
          recipientId: row.id,
          pageNo: 1,
          box: { x: 72, y: 500, width: 180, height: 50 },
          fieldType: 'SIGNATURE',
          fieldRequired: true,
        },
        {
          documentId,
          recipientId: row.id,
          pageNo: 1,
          box: { x: 72, y: 200, width: 200, height: 24 },
          fieldType: 'NAME',
          fieldRequired: true,
        },
      ],
    });
    await call('POST', `/workflow/v1/${workflowId}/commence`, { token, body: { title: `Bench ${n}` } });
    const { code } = (await ask({ type: 'code', workflowId })) as Extract<FromService, { type: 'code' }>;
    const guest = await call('GET', `/auth/v1/getGuestToken/${code}`);
    // Let the commence mail and other work of this envelope settle, so the measured part runs alone.
    await ask({ type: 'drain' });
    const body = placed.map((f: { id: number; fieldType: string }) => ({
      id: f.id,
      type: f.fieldType,
      value: f.fieldType === 'SIGNATURE' ? signature : 'Ada Signer',
    }));
    const sent = now();
    const result = await call('POST', `/workflow/v1/${documentId}/fields/save`, { token: guest.accessToken, body });
    const answered = now();
    if (result.workflowStatus !== 'COMPLETED') throw new Error(`workflow ${workflowId} did not complete`);
    const response = await fetch(
      `${base}/document/v1/download/${workflowId}?selectedOption=downloadDocument&documentId=${documentId}`,
      { headers: { authorization: `Bearer ${token}` } },
    );
    // The download's status line and headers: the sealed file is there and its bytes start flowing.
    const starts = now();
    const sealed = new Uint8Array(await response.arrayBuffer());
    const downloaded = now();
    if (response.status !== 200 || !Buffer.from(sealed).includes('/ByteRange'))
      throw new Error(`download: ${response.status}`);
    await ask({ type: 'drain' });
    return { workflowId, sent, answered, starts, downloaded, sealed };
  }

  try {
    for (const [label, pdf] of [
      ['1 page', await makePdf(1)],
      ['~20 MB', await buildPdf(100, 200_000)],
    ] as const) {
      await once(pdf, 0); // warm-up
      const rows: Record<string, number>[] = [];
      for (let n = 1; n <= RUNS; n++) {
        const run = await once(pdf, n);
        const at = phases.get(run.workflowId)!;
        const hashStart = performance.now();
        crypto.createHash('sha256').update(run.sealed).digest();
        const sha256 = performance.now() - hashStart;
        rows.push({
          'final call': run.answered - run.sent,
          'answer→hop': at.get('started')! - run.answered,
          read: at.get('read')! - at.get('started')!,
          drawn: at.get('drawn')! - at.get('read')!,
          signed: at.get('signed')! - at.get('drawn')!,
          stored: at.get('stored')! - at.get('signed')!,
          committed: at.get('committed')! - at.get('stored')!,
          // A document's download answers once its sealed file is stored, while the SEALED commit runs (seal-waiter.ts).
          'download starts after stored': run.starts - at.get('stored')!,
          transfer: run.downloaded - run.starts,
          'answer→download starts': run.starts - run.answered,
          'answer→downloaded': run.downloaded - run.answered,
          sha256,
        });
      }
      // BENCH_SEAL_ROWS=1: every run, not only the medians (a garbage collection lands in some runs and not others).
      if (process.env.BENCH_SEAL_ROWS)
        for (const r of rows)
          console.log(
            `    ${Object.entries(r)
              .map(([key, value]) => `${key} ${value.toFixed(1)}`)
              .join(', ')}`,
          );
      const medianOf = (key: string) => median(rows.map((r) => r[key]));
      const budget = 3 * medianOf('sha256') + 10;
      console.log(
        `${kind} ${label} (${(pdf.length / 1e6).toFixed(1)} MB), medians of ${RUNS}; load ${os.loadavg()[0].toFixed(1)}:`,
      );
      console.log(
        `  ${Object.keys(rows[0])
          .map((key) => `${key} ${medianOf(key).toFixed(1)}`)
          .join(', ')} ms`,
      );
      // Downloadable: the sealed file answered by the download route; its transfer then depends on the client's link.
      console.log(
        `  answer→download starts ${medianOf('answer→download starts').toFixed(1)} ms against the goal 3 × SHA-256 + 10 = ${budget.toFixed(1)} ms: ` +
          `${medianOf('answer→download starts') <= budget ? 'within' : 'OVER'}; with the transfer over loopback ${medianOf('answer→downloaded').toFixed(1)} ms`,
      );
    }
  } finally {
    child.removeAllListeners('exit');
    child.send({ type: 'close' } satisfies ToService);
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

if (process.argv[2] === 'serve') await serve();
else {
  await sealCost();
  await endToEnd();
}
