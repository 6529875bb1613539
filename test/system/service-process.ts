import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { inject } from 'vitest';
import { freePort } from '../helpers/free-port.ts';

/**
 * The real service as a child process (`node src/main.ts`), as an operator runs it: configured by its environment
 * only, stopped by signals. For the shutdown and several-instances tests, where what matters is what separate
 * processes do (and what a signal or a kill does to one of them).
 */
export type ServiceProcess = {
  name: string;
  child: ChildProcess;
  base: string;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its JSON log lines so far (pino, one object per line). */
  logLines(): Record<string, any>[];
  /** Waits until a log line satisfies `match` (or the output contains it, for a string). */
  waitForLog(match: string | ((line: Record<string, any>) => boolean), timeoutMs: number): Promise<void>;
  /** Resolves with the exit code and signal once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

const root = path.resolve(import.meta.dirname, '../..');

/** Starts `node src/main.ts` with `env` (plus PATH/HOME, a free port and LOG_LEVEL info) and waits for its health check. */
export async function startServiceProcess(
  name: string,
  env: Record<string, string>,
  options: { startTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const service: ServiceProcess = {
    name,
    child,
    base,
    output: () => output,
    logLines: () =>
      output.split('\n').flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line)];
        } catch {
          return [];
        }
      }),
    async waitForLog(match, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      const found = () => (typeof match === 'string' ? output.includes(match) : service.logLines().some(match));
      while (!found()) {
        if (Date.now() > deadline)
          throw new Error(`${name}: no such log line within ${timeoutMs} ms; output:\n${output.slice(-4000)}`);
        await sleep(25);
      }
    },
    exited,
  };
  const deadline = Date.now() + (options.startTimeoutMs ?? 240_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${name} exited during start:\n${output}`);
    if (
      await fetch(`${base}/admin/internal/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not start:\n${output}`);
    }
    await sleep(100);
  }
  return service;
}

/** SIGKILL: no shutdown hook runs; what it held stays in the database for the others to take over. */
export async function killHard(service: ServiceProcess): Promise<void> {
  if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
  await service.exited;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export type Answer = { status: number; body: any; headers: Headers };

/** One JSON (or multipart) call with a bearer token; answers status and parsed body, whatever the status. */
export async function call(
  base: string,
  method: string,
  url: string,
  options: { token?: string; body?: unknown; form?: FormData; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined = options.form;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(`${base}${url}`, { method, headers, body });
  const text = await res.text();
  let parsed: any = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
  return { status: res.status, body: parsed, headers: res.headers };
}

/** The same call, failing unless it answers 2xx; answers the body. */
export async function ok(
  base: string,
  method: string,
  url: string,
  options: Parameters<typeof call>[3] = {},
): Promise<any> {
  const answer = await call(base, method, url, options);
  if (answer.status >= 300) throw new Error(`${method} ${base}${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * A database of its own on the PostgreSQL server named by DATABASE_URL (a copy of the migrated template; services
 * still run the migration check at start, under the migration lock), or null on the embedded database.
 */
export async function scratchDatabase(prefix: string): Promise<{
  url: string;
  query<T = any>(text: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
} | null> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return null;
  const name = `${prefix}_${crypto.randomBytes(5).toString('hex')}`;
  // A copy of the migrated template (test/helpers/global-setup.ts); two copies at the same instant may meet "source
  // database is being accessed", which passes.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await adminQuery(serverUrl, `create database "${name}" template "${inject('pgTemplate')}"`);
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
      await sleep(100 * attempt);
    }
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  pool.on('error', () => {});
  return {
    url: url.toString(),
    async query(text, values) {
      return (await pool.query(text, values as any[])).rows;
    },
    async drop() {
      await pool.end();
      await adminQuery(serverUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

export type PeerMail = { to: string[]; messageId: string | null; subject: string; raw: string };

/** A real SMTP peer on loopback that accepts every mail and keeps it. */
export async function startSmtpPeer(): Promise<{ url: string; received: PeerMail[]; close(): Promise<void> }> {
  const received: PeerMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
        const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1].trim() ?? null;
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          messageId: header('Message-ID'),
          subject: header('Subject') ?? '',
          raw,
        });
        callback();
      });
    },
  });
  // A sender killed with -9 in the middle of a mail resets its connection; smtp-server reports that as an 'error'
  // event, which without a listener is an uncaught exception in the test process.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
