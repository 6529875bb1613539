import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.ts';
import { listActivities, verifyChain } from '../../src/modules/activities/activities.service.ts';
import { documents, fields, mailOutbox, recipients, workflows } from '../../src/platform/db/schema/index.ts';
import { MANIFEST_FILE, SNAPSHOTS_DIR } from '../../src/platform/backup/layout.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, type TestUser } from '../helpers/factories.ts';
import {
  commence,
  draftWithRecipients,
  sampleValue,
  saveAll,
  tokenFromMail,
  waitForSeal,
} from '../helpers/ceremony.ts';
import { freePort } from '../helpers/free-port.ts';
import { pdfsig } from '../helpers/pdfsig.ts';

/**
 * `npm run admin -- backup <dir>` against a running service in the middle of a signature, then `restore <dir>` into a
 * new DATA_DIR (and, on PostgreSQL, a new empty database), and a new service started there: every envelope, sealed
 * file, signature and audit chain is there and verifies, and the envelope in flight is signed to the end
 * (docs/operations.md "Backups").
 */
const ADMIN_TOKEN = crypto.randomBytes(24).toString('hex');
const SCRIPT = path.join(import.meta.dirname, '..', '..', 'scripts', 'admin.ts');
const onPostgres = Boolean(process.env.DATABASE_URL);
let t: TestApp;
let baseUrl: string;
let owner: TestUser;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-backup-'));
const restoredDatabases: string[] = [];

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({ adminToken: ADMIN_TOKEN, publicUrl: baseUrl });
  await t.app.listen({ port, host: '127.0.0.1' });
  owner = await createUser(t, { name: 'Bea Backup' });
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (restoredDatabases.length > 0) {
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    for (const name of restoredDatabases)
      await admin.query(`drop database if exists "${name}" with (force)`).catch(() => {});
    await admin.end();
  }
  fs.rmSync(scratch, { recursive: true, force: true });
});

type Run = { code: number; stdout: string; stderr: string };

function admin(args: string[], env: Record<string, string | undefined>): Promise<Run> {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    ADMIN_TOKEN,
    PUBLIC_URL: baseUrl,
    PORT: undefined,
    ...env,
  };
  const childEnv = Object.fromEntries(
    Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { env: childEnv, timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** A new empty database on the PostgreSQL server, dropped after the file. */
async function emptyDatabase(): Promise<string> {
  const name = `sig_restore_${crypto.randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  await client.query(`create database "${name}"`);
  await client.end();
  restoredDatabases.push(name);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function inject(app: App, method: string, url: string, token?: string, body?: unknown) {
  const response = await app.app.inject({
    method: method as 'GET',
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = String(response.headers['content-type'] ?? '').includes('application/json') && response.body;
  return {
    status: response.statusCode,
    body: json ? JSON.parse(response.body) : response.body,
    raw: response.rawPayload,
  };
}

/** Every file and directory under `dir` is the owner's alone. */
function modesUnder(dir: string): string[] {
  const loose: string[] = [];
  const visit = (entry: string) => {
    const stat = fs.lstatSync(entry);
    if (stat.mode & 0o077) loose.push(`${entry} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(dir);
  return loose;
}

describe('npm run admin -- backup / restore', { timeout: 300_000 }, () => {
  it('backs up a running service mid-signature; a service restored from it has everything and signs on', async () => {
    // A draft, a completed and sealed envelope, and one in flight: signer 1 done, signer 2 signing during the backup.
    const { workflow: draft } = await createDraftWorkflow(t, owner, { name: 'Backup draft' });
    const done = await draftWithRecipients(t, owner, {
      sequence: 'ORDERED',
      recipients: [{ name: 'Dora Done', fields: [{ fieldType: 'SIGNATURE' }, { fieldType: 'TEXT' }] }],
    });
    await commence(t, owner, done.workflow.id, { title: 'Sealed before the backup' });
    const doraToken = await tokenFromMail(t, done.parties[0].user.email);
    expect((await saveAll(t, doraToken, done.document.id, done.fieldIds[0])).body).toMatchObject({
      workflowStatus: 'COMPLETED',
    });
    expect((await waitForSeal(t, done.workflow.id)).sealStatus).toBe('SEALED');

    const flight = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [
        { name: 'Fay First', fields: [{ fieldType: 'SIGNATURE' }] },
        { name: 'Sid Second', fields: [{ fieldType: 'SIGNATURE' }, { fieldType: 'DATE' }] },
        { name: 'Tia Third', fields: [{ fieldType: 'INITIALS' }] },
      ],
    });
    await commence(t, owner, flight.workflow.id, { title: 'In flight during the backup' });
    const flightCodes = new Map<string, string>();
    for (const party of flight.parties) {
      const [mail] = await t.mails({ to: party.user.email, kind: 'COMMENCE' });
      flightCodes.set(party.user.email, /\/sign\/([A-Za-z0-9_-]+)/.exec(mail.textBody)![1]);
    }
    const fayToken = await tokenFromMail(t, flight.parties[0].user.email);
    expect((await saveAll(t, fayToken, flight.document.id, flight.fieldIds[0])).body.recipientStatus).toBe('SIGNED');
    const sidToken = await tokenFromMail(t, flight.parties[1].user.email);

    // The backup and Sid's signature at once: the snapshot holds his signature entirely or not at all.
    const target = path.join(scratch, 'backup');
    const [backup, sidSave] = await Promise.all([
      admin(['backup', target], { DATA_DIR: t.config.dataDir, DATABASE_URL: t.databaseUrl }),
      saveAll(t, sidToken, flight.document.id, flight.fieldIds[1]),
    ]);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`written to ${target}`);
    expect(sidSave.body.recipientStatus).toBe('SIGNED');
    const manifest = JSON.parse(fs.readFileSync(path.join(target, MANIFEST_FILE), 'utf8'));
    expect(manifest.database.kind).toBe(onPostgres ? 'postgres' : 'pglite');
    expect(manifest.storage).toMatchObject({ kind: 'filesystem' });
    expect(manifest.storage.files).toBeGreaterThan(0);
    expect(manifest.keys).toEqual(expect.arrayContaining(['jwt-secret', 'signing-code-key', 'secrets-key']));
    // Private keys inside: the directory is 0700 and every file 0600; the snapshot left nothing in DATA_DIR.
    expect(modesUnder(target)).toEqual([]);
    expect(fs.statSync(target).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.join(t.config.dataDir, SNAPSHOTS_DIR))).toEqual([]);

    // The snapshot is taken only with the operator's token, and its answer only describes what it wrote on disk.
    expect((await t.request('POST', '/admin/v1/backup/snapshot')).status).toBe(401);
    expect((await t.request('POST', '/admin/v1/backup/snapshot', { token: owner.token })).status).toBe(401);
    const record = JSON.parse(fs.readFileSync(path.join(target, 'snapshot.json'), 'utf8'));
    if (!onPostgres) expect(record.embeddedDatabase.milliseconds).toBeGreaterThanOrEqual(0);
    if (process.env.BACKUP_TEST_REPORT) console.log(JSON.stringify({ record, manifest }));

    // Nothing is written over: a non-empty backup directory, DATA_DIR or database is refused.
    const again = await admin(['backup', target], { DATA_DIR: t.config.dataDir, DATABASE_URL: t.databaseUrl });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is not empty');
    const intoLive = await admin(['restore', target], { DATA_DIR: t.config.dataDir, DATABASE_URL: t.databaseUrl });
    expect(intoLive.code).toBe(1);
    expect(intoLive.stderr).toContain(`DATA_DIR ${t.config.dataDir} is not empty`);
    if (onPostgres) {
      const intoUsed = await admin(['restore', target], {
        DATA_DIR: path.join(scratch, 'unused'),
        DATABASE_URL: t.databaseUrl,
      });
      expect(intoUsed.code).toBe(1);
      expect(intoUsed.stderr).toContain('is not empty');
      expect(fs.existsSync(path.join(scratch, 'unused'))).toBe(false);
    }

    // Restore into a new DATA_DIR (and database), then start a new service there.
    const dataDir = path.join(scratch, 'restored-data');
    const databaseUrl = onPostgres ? await emptyDatabase() : undefined;
    const restore = await admin(['restore', target], { DATA_DIR: dataDir, DATABASE_URL: databaseUrl });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toContain(`into DATA_DIR ${dataDir}`);
    expect(modesUnder(dataDir)).toEqual([]);
    const restored = await buildApp({ ...t.config, dataDir, databaseUrl }, { log: () => {} });
    try {
      const db = restored.platform.db;
      // Every envelope, listed to its owner with the owner's old token (the token key came back too).
      const list = await inject(restored, 'GET', '/document/v1?page=0&size=50', owner.token);
      expect(list.status).toBe(200);
      expect((list.body.content as { workflowId: number }[]).map((item) => item.workflowId).sort()).toEqual(
        [draft.id, done.workflow.id, flight.workflow.id].sort(),
      );

      // The sealed file is there, downloads and verifies; the evidence report finds its chain intact.
      const [sealedDoc] = await db.select().from(documents).where(eq(documents.workflowId, done.workflow.id));
      expect((await pdfsig(await restored.platform.blobs.getStored(sealedDoc.sealedBlobKey!))).allValid).toBe(true);
      const download = await inject(
        restored,
        'GET',
        `/document/v1/download/${done.workflow.id}?selectedOption=downloadDocument&documentId=${sealedDoc.id}`,
        owner.token,
      );
      expect(download.status).toBe(200);
      expect((await pdfsig(new Uint8Array(download.raw))).allValid).toBe(true);
      const evidence = await inject(restored, 'GET', `/workflow/v1/evidence-report/${done.workflow.id}`, owner.token);
      expect(evidence.status).toBe(200);
      expect(String(evidence.body)).toContain('INTACT');

      // The envelope in flight: Fay's signature is there, Sid's entirely or not at all; the signing links still work
      // and the rest sign it to completion and a seal.
      const states = await db
        .select({ email: recipients.email, status: recipients.status })
        .from(recipients)
        .where(eq(recipients.workflowId, flight.workflow.id))
        .orderBy(asc(recipients.recipientOrder));
      expect(states[0].status).toBe('SIGNED');
      expect(['SIGNED', 'VIEWED']).toContain(states[1].status);
      for (const [index, party] of flight.parties.entries()) {
        if (states[index].status === 'SIGNED') continue;
        const redeemed = await inject(restored, 'GET', `/auth/v1/getGuestToken/${flightCodes.get(party.user.email)}`);
        expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
        const body = await Promise.all(
          flight.fieldIds[index].map(async (id) => {
            const type = await fieldType(restored, id);
            return { id, type, value: sampleValue(type) };
          }),
        );
        const saved = await inject(
          restored,
          'POST',
          `/workflow/v1/${flight.document.id}/fields/save`,
          redeemed.body.accessToken,
          body,
        );
        expect(saved.status, JSON.stringify(saved.body)).toBe(200);
        expect(saved.body.recipientStatus).toBe('SIGNED');
      }
      const sealed = await waitForRestoredSeal(restored, flight.workflow.id);
      expect(sealed.status).toBe('COMPLETED');
      expect(sealed.sealStatus).toBe('SEALED');
      const [flightDoc] = await db.select().from(documents).where(eq(documents.workflowId, flight.workflow.id));
      const report = await pdfsig(await restored.platform.blobs.getStored(flightDoc.sealedBlobKey!));
      expect(report.allValid, report.output).toBe(true);

      // Every audit chain verifies, the rows from before the backup and after the restore alike.
      for (const id of [draft.id, done.workflow.id, flight.workflow.id])
        expect(verifyChain(await listActivities(db, id)), `workflow ${id}`).toEqual([]);
      const completions = await db.select().from(mailOutbox).where(eq(mailOutbox.workflowId, flight.workflow.id));
      expect(completions.some((m) => m.kind === 'COMPLETED')).toBe(true);
    } finally {
      await restored.close();
    }
  });
});

async function fieldType(app: App, id: number): Promise<string> {
  const [row] = await app.platform.db.select({ fieldType: fields.fieldType }).from(fields).where(eq(fields.id, id));
  return row.fieldType;
}

async function waitForRestoredSeal(app: App, workflowId: number) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await app.platform.jobs.drain();
    const [row] = await app.platform.db.select().from(workflows).where(eq(workflows.id, workflowId));
    if (row.sealStatus === 'SEALED' || row.sealStatus === 'FAILED') return row;
    if (Date.now() > deadline) throw new Error(`seal of workflow ${workflowId} still ${row.sealStatus}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
