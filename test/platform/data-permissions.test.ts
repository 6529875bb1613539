import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import { createFileTransport } from '../../src/platform/mail/transport.ts';
import { createFsBlobStore } from '../../src/platform/storage/fs-blob-store.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';

/*
 * A real run of `node src/main.ts` on the embedded database, started with the permissive umask 022 that a
 * shell usually has, over a DATA_DIR that already holds world-readable leftovers. Afterwards nothing under
 * DATA_DIR may be readable, writable or searchable by group or others.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-perms-'));
let child: ChildProcess | undefined;
let previousUmask = 0;

/** Every entry under dir (not following links) whose mode grants anything to group or others. */
function looseEntries(dir: string): string[] {
  const loose: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) loose.push(`${path.relative(dataDir, entry) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return loose;
}

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dataDir, path.join(e.parentPath, e.name)));
}

async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(() => {
  previousUmask = process.umask(0o022);
  // Leftovers of an older version: a staged upload, an outbox directory and mail, all open to everyone.
  fs.mkdirSync(path.join(dataDir, 'blobs', 'tmp'), { recursive: true });
  fs.mkdirSync(path.join(dataDir, 'outbox'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'blobs', 'tmp', 'leftover'), 'half an upload');
  fs.writeFileSync(path.join(dataDir, 'outbox', 'old.eml'), 'Subject: your signing link');
  for (const [entry, mode] of [
    ['.', 0o755],
    ['outbox', 0o777],
    ['outbox/old.eml', 0o666],
    ['blobs', 0o755],
    ['blobs/tmp/leftover', 0o644],
  ] as const) {
    fs.chmodSync(path.join(dataDir, entry), mode);
  }
});

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  process.umask(previousUmask);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('file permissions under DATA_DIR', () => {
  it('a real run leaves the database, blobs, mail, keys and old leftovers owner-only', async () => {
    child = spawn(process.execPath, ['src/main.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
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
    const address = await waitFor(
      'the server to listen',
      () =>
        output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/)?.[1] ??
        (child!.exitCode !== null
          ? (() => {
              throw new Error(`main.ts exited: ${output}`);
            })()
          : undefined),
      60_000,
    );

    // Sign-up mails a verification link (an .eml file, no SMTP_URL); an upload stores a blob.
    const email = `perm-${Date.now()}@example.com`;
    const password = 'a long enough password';
    const signup = await fetch(`${address}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Perm Tester', email, password }),
    });
    expect(signup.status, output).toBe(201);
    const signin = await fetch(`${address}/auth/v1/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'PASSWORD', username: email, password }),
    });
    const { accessToken } = (await signin.json()) as { accessToken: string };
    const form = new FormData();
    form.append('file', new Blob([Buffer.from(await makePdf(1))], { type: 'application/pdf' }), 'contract.pdf');
    const upload = await fetch(`${address}/document/v1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}` },
      body: form,
    });
    expect(upload.status).toBe(201);
    await waitFor('the verification mail file', () =>
      fs.readdirSync(path.join(dataDir, 'outbox')).some((f) => f.endsWith('.eml') && f !== 'old.eml')
        ? true
        : undefined,
    );

    child.kill('SIGTERM');
    await waitFor('main.ts to stop', () => (child!.exitCode !== null ? true : undefined));

    const files = filesUnder(dataDir);
    // What the run created is really there: the embedded database, a blob, a mail, the generated secrets.
    expect(files.some((f) => f.startsWith('pgdata/'))).toBe(true);
    expect(files.some((f) => /^blobs\/[0-9a-f]{2}\/[0-9a-f]{64}$/.test(f))).toBe(true);
    expect(files.filter((f) => f.startsWith('outbox/') && f.endsWith('.eml')).length).toBeGreaterThanOrEqual(2);
    expect(files).toEqual(
      expect.arrayContaining(['keys/jwt-secret', 'keys/signing-code-key', 'blobs/tmp/leftover', 'outbox/old.eml']),
    );
    expect(looseEntries(dataDir)).toEqual([]);
  });

  it('the seal certificate and key are written owner-only', async () => {
    await loadSealIdentity(dataDir);
    const sealFiles = filesUnder(path.join(dataDir, 'keys')).filter((f) => f.endsWith('.pem'));
    expect(sealFiles.length).toBeGreaterThanOrEqual(4);
    expect(looseEntries(path.join(dataDir, 'keys'))).toEqual([]);
  });

  it('blobs and outbox mail get owner-only modes by themselves, whatever the umask (the app embedded elsewhere)', async () => {
    const dir = path.join(dataDir, 'embedded');
    const blobs = createFsBlobStore(path.join(dir, 'blobs'));
    await blobs.put(new TextEncoder().encode('a contract'));
    const { Readable } = await import('node:stream');
    await blobs.putStream(Readable.from([Buffer.from('another contract')]), 1024);
    await blobs.stageBytes(new TextEncoder().encode('staged, not yet committed'));
    await createFileTransport(path.join(dir, 'outbox'), () => {}).send({
      from: 'a@example.com',
      to: 'b@example.com',
      subject: 'Your code',
      text: '123456',
    });
    const files = filesUnder(dir);
    expect(files.filter((f) => f.includes('/blobs/') || f.startsWith('blobs/')).length).toBe(3);
    expect(files.some((f) => f.endsWith('.eml'))).toBe(true);
    // The embedded directory itself was made by this test with umask 022; what the adapters created must not be loose.
    expect(looseEntries(dir).filter((entry) => !entry.startsWith('embedded '))).toEqual([]);
  });
});
