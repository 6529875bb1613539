// The service's footprint from outside, as an operator sees it: starts `node src/main.ts` (the real entry point) on a
// new DATA_DIR (and, with DATABASE_URL, a scratch database on that server), and reports
//   - start to healthy: spawn to the first 200 of GET /admin/internal/ready;
//   - idle memory: the resident memory (RSS) of the service's whole process tree, BENCH_IDLE_SECONDS (default 30)
//     after start, with where it goes: V8's heap (used and total), memory outside the heap (ArrayBuffers: PGlite's
//     WebAssembly memory shows here), the rest (code, threads' stacks, native libraries), read from /metrics;
//   - uploads: the tree's peak RSS while four 25 MB PDFs upload at once, minus idle.
// Run: npm run bench:footprint   (DATABASE_URL=postgres://... for PostgreSQL)
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
const FILE_BYTES = 25 * 1024 * 1024 - 4096;
const serverUrl = process.env.DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-bench-footprint-'));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
const metricsToken = crypto.randomBytes(16).toString('hex');
let scratch: string | null = null;
let child: ChildProcess | null = null;

/** Resident memory of `pid` and every process below it, in bytes, with each process's share. */
function treeRss(pid: number): { total: number; processes: { pid: number; name: string; rss: number }[] } {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {}
  }
  const processes: { pid: number; name: string; rss: number }[] = [];
  const visit = (p: number) => {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, 'utf8');
      const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      processes.push({ pid: p, name: /Name:\s+(.+)/.exec(status)?.[1] ?? '?', rss });
    } catch {}
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return { total: processes.reduce((sum, p) => sum + p.rss, 0), processes };
}

async function metrics(): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    rss: value('process_resident_memory_bytes'),
    heapUsed: value('nodejs_heap_size_used_bytes'),
    heapTotal: value('nodejs_heap_size_total_bytes'),
    external: value('nodejs_external_memory_bytes'),
  };
}

/** A valid one-page PDF of about `bytes`, most of it an incompressible stream no page uses. */
function bigPdf(bytes: number): Buffer {
  const padding = crypto.randomBytes(bytes - 600);
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (b: Buffer | string) => {
    const buffer = typeof b === 'string' ? Buffer.from(b, 'latin1') : b;
    parts.push(buffer);
    length += buffer.length;
  };
  const object = (n: number, body: string | Buffer[]) => {
    offsets[n] = length;
    if (typeof body === 'string') push(`${n} 0 obj\n${body}\nendobj\n`);
    else {
      push(`${n} 0 obj\n`);
      for (const b of body) push(b);
      push('\nendobj\n');
    }
  };
  push('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>');
  const content = 'BT /F1 1 Tf ET';
  object(4, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  object(5, [Buffer.from(`<< /Length ${padding.length} >>\nstream\n`), padding, Buffer.from('\nendstream')]);
  const xref = length;
  push(
    `xref\n0 6\n0000000000 65535 f \n${offsets
      .slice(1)
      .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
      .join('')}`,
  );
  push(`trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return Buffer.concat(parts);
}

try {
  let databaseUrl: string | undefined;
  if (serverUrl) {
    scratch = `sig_bench_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database "${scratch}"`);
    await admin.end();
    const url = new URL(serverUrl);
    url.pathname = `/${scratch}`;
    databaseUrl = url.toString();
  }
  const started = performance.now();
  // BENCH_NODE_FLAGS: V8/Node flags to try (e.g. --max-semi-space-size=4) instead of the start script's.
  const flags = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  child = spawn(process.execPath, [...flags, 'src/main.ts'], {
    cwd: path.join(import.meta.dirname, '..'),
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      METRICS_TOKEN: metricsToken,
      UPLOADS_PER_MINUTE: '1000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const ready = await fetch(`${base}/admin/internal/ready`).then(
      (r) => r.status,
      () => 0,
    );
    if (ready === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const healthyMs = performance.now() - started;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `${databaseUrl ? 'PostgreSQL' : 'embedded database (PGlite)'}; ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}`,
  );
  console.log(`start to healthy (ready 200): ${healthyMs.toFixed(0)} ms`);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idle = treeRss(child.pid!);
  const m = await metrics();
  console.log(
    `idle ${IDLE_SECONDS} s after start: ${mb(idle.total)} in ${idle.processes.length} process(es) (${idle.processes.map((p) => `${p.name} ${mb(p.rss)}`).join(', ')})`,
  );
  console.log(
    `  of the service process: V8 heap ${mb(m.heapUsed)} used of ${mb(m.heapTotal)}, outside the heap (ArrayBuffers, WebAssembly) ${mb(m.external)}, the rest (code, stacks, native) ${mb(m.rss - m.heapTotal - m.external)}`,
  );

  const email = `footprint-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const password = 'bench password 1';
  const signup = await fetch(`${base}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Footprint Bench', email, password }),
  });
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}: ${await signup.text()}`);
  const signin = await fetch(`${base}/auth/v1/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'PASSWORD', username: email, password }),
  });
  const { accessToken } = (await signin.json()) as { accessToken: string };
  const upload = async (name: string, bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'application/pdf' }), name);
    const res = await fetch(`${base}/document/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
      body: form,
    });
    await res.text();
    return res.status;
  };
  // BENCH_WARM=1: one small upload first, so the PDF workers exist before the big ones (their start is then not counted).
  if (process.env.BENCH_WARM === '1') {
    const status = await upload('small.pdf', bigPdf(64 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 2000));
    console.log(`one small upload first (HTTP ${status}): tree RSS ${mb(treeRss(child.pid!).total)}`);
  }
  const file = bigPdf(FILE_BYTES);
  const before = treeRss(child.pid!).total;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRss(child!.pid!).total);
  }, 25);
  const uploadStarted = performance.now();
  const statuses = await Promise.all(Array.from({ length: 4 }, (_, i) => upload(`big-${i}.pdf`, file)));
  const uploadMs = performance.now() - uploadStarted;
  clearInterval(sampler);
  console.log(
    `four ${mb(file.length)} uploads at once: HTTP ${statuses.join(', ')} in ${uploadMs.toFixed(0)} ms; tree RSS ${mb(before)} before, peak +${mb(peak - before)} (one file is ${mb(file.length)})`,
  );
} finally {
  child?.kill('SIGTERM');
  if (child && child.exitCode === null) await new Promise((resolve) => child!.once('exit', resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (scratch && serverUrl) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists "${scratch}" with (force)`);
    await admin.end();
  }
}
