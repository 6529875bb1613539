/**
 * An upgrade keeps every record: a database written by an earlier release (test/upgrade/fixture/, made by
 * scripts/make-upgrade-fixture.sh from the release named in its manifest) is migrated by today's code at start,
 * and every envelope, sealed file, signature and audit chain reads and verifies; the envelope that was half signed
 * is finished and sealed; new records follow the old ones. On the embedded database and on PostgreSQL.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/client.ts';
import { workflows as workflowsTable } from '../../src/platform/db/schema/index.ts';
import { loadEnvelopeRecord, checkChain } from '../../src/modules/history/envelope-record.ts';
import { createTestApp, eq, type TestApp, type TestAppStart } from '../helpers/test-app.ts';
import { createUser, guestToken } from '../helpers/factories.ts';
import { draftWithRecipients, commence, saveAll, waitForSeal } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { multipartBody } from '../helpers/documents.ts';
import { FIXTURE_DIR, fixtureMigrationCount, fixtureSql } from './fixture.ts';

type Noted = {
  state: string;
  workflowId: number;
  status: string;
  sealStatus: string;
  next?: { recipientId: number; documentId: number; fieldIds: number[] };
};
const manifest = JSON.parse(fs.readFileSync(path.join(FIXTURE_DIR, 'manifest.json'), 'utf8')) as {
  madeBy: string;
  owner: { email: string; password: string };
  workflows: Noted[];
};

/** The fixture's database loaded into a new one, then opened by today's code (which runs the newer migrations). */
async function openFixture(): Promise<TestAppStart> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-upgrade-'));
  fs.cpSync(path.join(FIXTURE_DIR, 'data'), dataDir, { recursive: true });
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const loading = await PGlite.create({ extensions: { pg_trgm } });
    await loading.exec(fixtureSql());
    const dump = await loading.dumpDataDir('none');
    await loading.close();
    return { database: await openDatabase({ pgliteLoadDataDir: dump }), dataDir, serverDatabase: null };
  }
  const name = `sig_upgrade_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const loading = new pg.Client({ connectionString: url.toString() });
  await loading.connect();
  await loading.query(fixtureSql());
  await loading.end();
  return {
    database: await openDatabase({ databaseUrl: url.toString() }),
    dataDir,
    serverDatabase: { name, adminUrl: serverUrl, url: url.toString() },
  };
}

let t: TestApp;
/** The platform CA the earlier release made: the upgraded service keeps it (DATA_DIR's keys). */
const caPem = fs.readFileSync(path.join(FIXTURE_DIR, 'data/keys/seal-ca/certificate.pem'), 'utf8');
let token: string;
const noted = (state: string) => manifest.workflows.find((w) => w.state === state)!;

beforeAll(async () => {
  t = await createTestApp({}, {}, await openFixture());
  const signIn = await t.request('POST', '/auth/v1/signin', {
    body: { grant_type: 'PASSWORD', username: manifest.owner.email, password: manifest.owner.password },
  });
  expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
  token = signIn.body.accessToken;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function sealedFile(workflowId: number, documentId: number): Promise<Uint8Array> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/document/v1/download/${workflowId}?selectedOption=downloadDocument&documentId=${documentId}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return new Uint8Array(res.rawPayload);
}

describe(`a database of release ${manifest.madeBy.slice(0, 7)}, migrated`, () => {
  it('ran the migrations the fixture did not have, and only those', async () => {
    const journal = JSON.parse(
      fs.readFileSync(path.join(import.meta.dirname, '../../src/platform/db/migrations/meta/_journal.json'), 'utf8'),
    ) as { entries: unknown[] };
    const before = fixtureMigrationCount();
    const { rows } = await t.platform.database.sql.executeSql(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
      [],
    );
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(journal.entries.length);
    expect(rows[0].n).toBe(journal.entries.length);
  });

  it('signs its owner in with the old password and lists every envelope in its old state', async () => {
    const list = await t.request('GET', '/document/v1?page=0&size=50', { token });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.totalElements).toBe(manifest.workflows.length);
    for (const w of manifest.workflows) {
      const one = await t.request('GET', `/document/v1/${w.workflowId}`, { token });
      expect(one.status, `${w.state}: ${JSON.stringify(one.body)}`).toBe(200);
      const history = await t.request('GET', `/workflow/v1/${w.workflowId}/history`, { token });
      expect(history.status, `${w.state}: ${JSON.stringify(history.body)}`).toBe(200);
      const [row] = await t.platform.db.select().from(workflowsTable).where(eq(workflowsTable.id, w.workflowId));
      expect({ state: w.state, status: row.status, sealStatus: row.sealStatus }).toEqual({
        state: w.state,
        status: w.status,
        sealStatus: w.sealStatus,
      });
    }
  });

  it('keeps every audit chain intact and every sealed file valid, trusted and reported by /verify/v1', async () => {
    for (const w of manifest.workflows) {
      const [row] = await t.platform.db.select().from(workflowsTable).where(eq(workflowsTable.id, w.workflowId));
      const record = await loadEnvelopeRecord(t.platform.db, row);
      const chain = checkChain(record.activities);
      expect({ state: w.state, intact: chain.intact, breaks: chain.breaks }).toEqual({
        state: w.state,
        intact: true,
        breaks: [],
      });
      // A draft made by the factories has no activity yet; every sent envelope has its chain.
      if (w.status !== 'DRAFT') expect(chain.rowCount, w.state).toBeGreaterThan(0);
      if (w.sealStatus !== 'SEALED') continue;
      for (const document of record.documents) {
        const bytes = await sealedFile(w.workflowId, document.id);
        const report = await pdfsig(bytes, { trustedCaPems: [caPem] });
        expect(report.allValid, `${w.state}: ${report.output}`).toBe(true);
        if (report.trustChecked) expect(report.trusted, `${w.state}: ${report.output}`).toBe(true);
        const stored = crypto.createHash('sha256').update(bytes).digest('hex');
        expect(document.sealedBlobKey, w.state).toContain(stored);
        const { body, contentType } = multipartBody([
          { name: 'file', filename: 'sealed.pdf', contentType: 'application/pdf', data: bytes },
        ]);
        const verified = await t.request('POST', '/verify/v1', { body, headers: { 'content-type': contentType } });
        expect(verified.status, JSON.stringify(verified.body)).toBe(200);
        expect(verified.body.signatures[0]).toMatchObject({
          integrity: 'VALID',
          certificate: { trustedByPlatform: true },
        });
        expect(verified.body.platformRecord).toMatchObject({ workflowId: w.workflowId });
      }
      const evidence = await t.request('GET', `/workflow/v1/evidence-report/${w.workflowId}`, { token });
      expect(evidence.status, w.state).toBe(200);
      expect(evidence.raw).toContain('INTACT');
    }
  });

  it('finishes the envelope that was half signed: the second signer signs, it completes and is sealed', async () => {
    const inFlight = noted('in-flight');
    const next = inFlight.next!;
    const [row] = await t.platform.db.select().from(workflowsTable).where(eq(workflowsTable.id, inFlight.workflowId));
    const record = await loadEnvelopeRecord(t.platform.db, row);
    const recipient = record.recipients.find((r) => r.id === next.recipientId)!;
    const guest = await guestToken(t, { id: recipient.id, userId: recipient.userId!, workflowId: inFlight.workflowId });
    const signed = await saveAll(t, guest, next.documentId, next.fieldIds);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body).toMatchObject({ recipientStatus: 'SIGNED', workflowStatus: 'COMPLETED' });
    expect((await waitForSeal(t, inFlight.workflowId)).sealStatus).toBe('SEALED');
    const report = await pdfsig(await sealedFile(inFlight.workflowId, next.documentId), {
      trustedCaPems: [caPem],
    });
    expect(report.allValid, report.output).toBe(true);
    const after = await loadEnvelopeRecord(t.platform.db, row);
    expect(checkChain(after.activities).intact).toBe(true);
  });

  it('adds new envelopes after the old ones: ids follow, a new one is sent and its chain starts afresh', async () => {
    const owner = await createUser(t, { name: 'Nina New' });
    const made = await draftWithRecipients(t, owner, {
      sequence: 'ORDERED',
      recipients: [{ name: 'Ned New', fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    expect(made.workflow.id).toBeGreaterThan(Math.max(...manifest.workflows.map((w) => w.workflowId)));
    await commence(t, owner, made.workflow.id, { title: 'After the upgrade' });
    expect((await t.mails({ to: made.parties[0].user.email, kind: 'COMMENCE' })).length).toBe(1);
  });
});
