import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';

/**
 * Item 12: kill -9 while a seal job is active, restart, and the sealed download works within 30 s. The real
 * service runs as a child process (`node src/main.ts`); SEAL_TEST_DELAY_MS holds the first instance's seal
 * attempt open so the kill lands while the job is active. On the embedded database the restart reuses the
 * DATA_DIR; on PostgreSQL the same database.
 */
const serverUrl = process.env.DATABASE_URL;
const root = path.resolve(import.meta.dirname, '../..');
let dataDir: string;
let databaseUrl: string | undefined;
let scratchDatabase: string | undefined;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-crash-'));
  if (serverUrl) {
    scratchDatabase = `sig_crash_${crypto.randomBytes(5).toString('hex')}`;
    await admin(`create database "${scratchDatabase}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${scratchDatabase}`;
    databaseUrl = url.toString();
  }
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (scratchDatabase) await admin(`drop database if exists "${scratchDatabase}" with (force)`);
});

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Service = { child: ChildProcess; base: string; output: () => string };

/** Starts `node src/main.ts` and waits until its health check answers. */
async function startService(extraEnv: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, ['src/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited early: ${output}`);
    const ok = await fetch(`${base}/admin/internal/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`service did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, base, output: () => output };
}

async function call(
  base: string,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; form?: FormData } = {},
) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined = options.form;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(`${base}${url}`, { method, headers, body });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function waitForOutput(service: Service, needle: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!service.output().includes(needle)) {
    if (Date.now() > deadline) throw new Error(`never saw "${needle}" in: ${service.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a seal interrupted by kill -9', () => {
  it('is finished within 30 s of the restart, and the sealed download works', async () => {
    // 1. First instance: every seal attempt first waits 10 minutes, so the job is surely active at the kill.
    const first = await startService({ SEAL_TEST_DELAY_MS: '600000' });
    const email = `crash-${crypto.randomBytes(4).toString('hex')}@example.com`;
    await call(first.base, 'POST', '/auth/v1/signup', {
      body: { name: 'Cora Crash', email, password: 'correct horse battery' },
    });
    const { accessToken: token } = await call(first.base, 'POST', '/auth/v1/signin', {
      body: { grant_type: 'PASSWORD', username: email, password: 'correct horse battery' },
    });
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(await makePdf(1))], { type: 'application/pdf' }), 'contract.pdf');
    const { id: documentId, workflowId } = await call(first.base, 'POST', '/document/v1?sequence=SELF', {
      token,
      form,
    });
    const [self] = await call(first.base, 'GET', `/workflow/v1/${workflowId}/recipients`, { token });
    const [field] = await call(first.base, 'POST', '/workflow/v1/fields/list', {
      token,
      body: [
        {
          documentId,
          recipientId: self.id,
          pageNo: 1,
          box: { x: 72, y: 500, width: 180, height: 50 },
          fieldType: 'SIGNATURE',
          fieldRequired: true,
        },
      ],
    });
    const done = await call(first.base, 'POST', `/workflow/v1/${documentId}/fields/save`, {
      token,
      body: [{ id: field.id, type: 'SIGNATURE', value: pngDataUrl(80, 30) }],
    });
    expect(done).toMatchObject({ workflowStatus: 'COMPLETED', sealStatus: 'PENDING' });
    // The seal job has been fetched and its handler is running (inside the test delay).
    await waitForOutput(first, 'waits SEAL_TEST_DELAY_MS', 20_000);

    // 2. kill -9: no shutdown hook runs, the job stays active in the database.
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    // 3. Restart (no delay this time); the sealed file must be downloadable within 30 s of the restart.
    const restartedAt = Date.now();
    const second = await startService({});
    let res: Response;
    for (;;) {
      // A pending seal makes the download itself wait (up to 20 s) before 503.
      res = await fetch(
        `${second.base}/document/v1/download/${workflowId}?selectedOption=downloadDocument&documentId=${documentId}`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      if (res.status !== 503 || Date.now() - restartedAt > 30_000) break;
    }
    const elapsed = Date.now() - restartedAt;
    expect(res.status, await res.clone().text()).toBe(200);
    expect(elapsed).toBeLessThan(30_000);
    const sealed = new Uint8Array(await res.arrayBuffer());
    expect((await pdfsig(sealed)).allValid).toBe(true);
    const report = await fetch(`${second.base}/workflow/v1/evidence-report/${workflowId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(report.status).toBe(200);
    expect(await report.text()).toContain('SEALED');
    console.log(
      `seal-crash (${serverUrl ? 'postgres' : 'pglite'}): sealed download ${elapsed} ms after the restart began`,
    );
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  }, 120_000);
});
