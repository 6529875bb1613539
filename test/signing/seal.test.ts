import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../src/platform/db/schema/index.ts';
import { SEAL_JOB } from '../../src/modules/signing/signing.jobs.ts';
import { resumeOrphanedSeals, sealWorkflow, type SealJobDeps } from '../../src/modules/signing/seal-job.ts';
import { SEAL_RETRY } from '../../src/modules/signing/signing.jobs.ts';
import { completionMails, MAX_ATTACHMENT_BYTES, ownerDownloadUrl } from '../../src/modules/signing/completion-mails.ts';
import { createSigningCodes, loadSigningCodeKey } from '../../src/modules/signing/signing-codes.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { setWorkflow } from '../helpers/envelope-states.ts';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server.ts';
import { documentRows, mailRows, pngDataUrl, restartApp, waitForSeal, workflowRow } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
});
afterAll(async () => t?.close());

/** A SELF draft of `user` with a signature and a text field, signed over HTTP until COMPLETED. */
async function selfSignToCompletion(app: TestApp, user: TestUser) {
  const { workflow, document, selfRecipient } = await createDraftWorkflow(app, user, { sequence: 'SELF' });
  const signature = await insertField(app, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'SIGNATURE',
  });
  const text = await insertField(app, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'TEXT',
    box: { x: 72, y: 200, width: 200, height: 30 },
  });
  const res = await app.request('POST', `/workflow/v1/${document.id}/fields/save`, {
    token: user.token,
    body: [
      { id: text.id, type: 'TEXT', value: 'Agreed on 22 November' },
      { id: signature.id, type: 'SIGNATURE', value: pngDataUrl(80, 30) },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.workflowStatus).toBe('COMPLETED');
  return { workflow, document };
}

async function sealJobs(app: TestApp, workflowId: number): Promise<{ state: string; retryCount: number }[]> {
  const { rows } = await app.platform.database.sql.executeSql(
    "select state, retry_count from pgboss.job where name = 'workflow.seal' and data->>'workflowId' = $1",
    [String(workflowId)],
  );
  return rows.map((r) => ({ state: r.state, retryCount: r.retry_count }));
}

/** Waits for the seal job to be in `state` after at least `retries` retries had started. */
async function waitForJobState(app: TestApp, workflowId: number, state: string, retries = 0) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const jobs = await sealJobs(app, workflowId);
    if (jobs.some((j) => j.state === state && j.retryCount >= retries)) return;
    if (Date.now() > deadline) throw new Error(`seal job never reached ${state}: ${JSON.stringify(jobs)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Lets the back-off elapse: the waiting retry runs now; `last` makes it the final attempt. */
async function elapseBackoff(app: TestApp, workflowId: number, options: { last?: boolean } = {}) {
  await app.platform.database.sql.executeSql(
    `update pgboss.job set start_after = now()${options.last ? ', retry_count = retry_limit - 1' : ''} where name = 'workflow.seal' and state = 'retry' and data->>'workflowId' = $1`,
    [String(workflowId)],
  );
  app.platform.jobs.notify(SEAL_JOB);
}

function sealDeps(app: TestApp): SealJobDeps {
  return {
    db: app.platform.db,
    jobs: app.platform.jobs,
    blobs: app.platform.blobs,
    outbox: app.platform.outbox,
    codes: createSigningCodes(loadSigningCodeKey(app.config.dataDir)),
    publicUrl: app.config.publicUrl,
    seal: app.platform.seal,
    log: () => {},
  };
}

describe('the sealing job', () => {
  it('is safe to run twice, even at once: one sealed file per document, one set of mails', async () => {
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const signer = await createUser(t, { name: 'Sid Signer' });
    const row = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Sid Signer',
      email: signer.email,
      role: 'SIGNER',
    });
    await insertField(t, { workflowId: workflow.id, documentId: document.id, recipientId: row.id, fieldType: 'TEXT' });
    // Completed without the job being queued, so only the two direct runs below seal it.
    await setWorkflow(t, workflow.id, { status: 'COMPLETED', completedAt: new Date(), sealStatus: 'PENDING' });
    await Promise.all([sealWorkflow(sealDeps(t), workflow.id), sealWorkflow(sealDeps(t), workflow.id)]);
    await sealWorkflow(sealDeps(t), workflow.id);
    const sealed = await workflowRow(t, workflow.id);
    expect(sealed.sealStatus).toBe('SEALED');
    const [doc] = await documentRows(t, workflow.id);
    expect((await pdfsig(await t.platform.blobs.get(doc.sealedBlobKey!))).allValid).toBe(true);
    // Kept over the source document: the sealed file on disk is the update alone, not a second copy of the source.
    const kept = path.join(t.config.dataDir, 'blobs', doc.sealedBlobKey!.slice(0, 2), doc.sealedBlobKey!);
    expect(fs.existsSync(kept)).toBe(false);
    expect(fs.statSync(`${kept}.appended`).size).toBe(
      doc.sealedSize! - document.size + `base ${document.blobKey} ${document.size}\n`.length,
    );
    const mails = await t.mails({ kind: 'COMPLETED' });
    expect(
      mails
        .filter((m) => m.workflowId === workflow.id)
        .map((m) => m.toAddress)
        .sort(),
    ).toEqual([signer.email, owner.email].sort());
  });

  it('the watchdog reseals a workflow whose seal job vanished (instance killed during its last attempt)', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const completedAt = new Date(Date.now() - 60 * 60 * 1000);
    // COMPLETED with a PENDING seal and no job in the queue: what a crash during the last attempt leaves.
    await setWorkflow(t, workflow.id, { status: 'COMPLETED', completedAt, sealStatus: 'PENDING' });
    const recent = await createDraftWorkflow(t, owner);
    await setWorkflow(t, recent.workflow.id, { status: 'COMPLETED', completedAt: new Date(), sealStatus: 'PENDING' });
    const resumed = await resumeOrphanedSeals(sealDeps(t), new Date());
    expect(resumed).toContain(workflow.id);
    // Too recent: its own job may still be retrying.
    expect(resumed).not.toContain(recent.workflow.id);
    const sealed = await waitForSeal(t, workflow.id);
    expect(sealed.sealStatus).toBe('SEALED');
    // A live or finished seal is not resumed again.
    expect(await resumeOrphanedSeals(sealDeps(t), new Date())).not.toContain(workflow.id);
  });

  it('leaves a workflow that is not COMPLETED alone', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    await sealWorkflow(sealDeps(t), workflow.id);
    const row = await workflowRow(t, workflow.id);
    expect(row.sealStatus).toBe('NONE');
    expect((await documentRows(t, workflow.id))[0].sealedBlobKey).toBeNull();
  });

  it('puts a link instead of attachments in completion mails above 10 MB', async () => {
    const { workflow } = await createDraftWorkflow(t, owner, { name: 'Big bundle' });
    const signer = await createUser(t, { name: 'Gail Guest' });
    const row = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Gail Guest',
      email: signer.email,
    });
    const delegated = await insertRecipient(t, workflow.id, {
      userId: (await createUser(t)).userId,
      name: 'Dan Delegated',
      email: 'dan@example.com',
    });
    const codes = createSigningCodes(loadSigningCodeKey(t.config.dataDir));
    const half = MAX_ATTACHMENT_BYTES / 2 + 1;
    const mails = completionMails({
      workflow,
      owner: { name: owner.name, email: owner.email },
      recipients: [row, { ...delegated, status: 'DELEGATED' }],
      documents: [
        { name: 'a', sealedBlobKey: 'k1', sealedSize: half },
        { name: 'b.pdf', sealedBlobKey: 'k2', sealedSize: half },
      ],
      publicUrl: t.config.publicUrl,
      codes,
    });
    expect(mails.map((m) => m.to)).toEqual([signer.email, owner.email]);
    for (const mail of mails) expect(mail.attachments).toBeUndefined();
    expect(mails[1].text).toContain(ownerDownloadUrl(t.config.publicUrl, workflow.id));
    const code = /\/sign\/([A-Za-z0-9_-]+)/.exec(mails[0].text)![1];
    expect(codes.open(code)).toMatchObject({ recipientId: row.id, workflowId: workflow.id });

    const small = completionMails({
      workflow,
      owner: { name: owner.name, email: owner.email },
      recipients: [row],
      documents: [{ name: 'a', sealedBlobKey: 'k1', sealedSize: MAX_ATTACHMENT_BYTES - 10 }],
      publicUrl: t.config.publicUrl,
      codes,
    });
    expect(small[0].attachments).toEqual([{ filename: 'a.pdf', contentType: 'application/pdf', blobKey: 'k1' }]);
    expect(small[0].text).not.toContain('/sign/');
  });
});

describe('sealing with a time-stamp authority', () => {
  let tsa: TsaServer;
  let app: TestApp;
  beforeAll(async () => {
    tsa = await startTsaServer();
    app = await createTestApp({ tsaUrl: tsa.url });
  });
  afterAll(async () => {
    await app?.close();
    await tsa?.close();
  });

  it('seals PAdES B-T: the signature carries a time-stamp token from TSA_URL', async () => {
    const user = await createUser(app, { name: 'Tim Stamp' });
    const { workflow } = await selfSignToCompletion(app, user);
    expect((await waitForSeal(app, workflow.id)).sealStatus).toBe('SEALED');
    expect(tsa.requests()).toBeGreaterThanOrEqual(1);
    const [doc] = await documentRows(app, workflow.id);
    const bytes = Buffer.from(await app.platform.blobs.get(doc.sealedBlobKey!));
    const report = await pdfsig(bytes);
    expect(report.allValid, report.output).toBe(true);
    // id-aa-signatureTimeStampToken (1.2.840.113549.1.9.16.2.14), DER, inside the hex /Contents.
    expect(bytes.toString('latin1').toLowerCase()).toContain('060b2a864886f70d010910020e');
  });
});

describe('when sealing fails', () => {
  let refusing: TsaServer;
  beforeAll(async () => {
    refusing = await startTsaServer({ refuse: true });
  });
  afterAll(async () => refusing?.close());

  it('retries with back-off, then marks the seal FAILED, records SEAL_FAILED and tells the owner', async () => {
    expect(SEAL_RETRY.retryLimit).toBeGreaterThan(0);
    const app = await createTestApp({ tsaUrl: refusing.url });
    try {
      const user = await createUser(app, { name: 'Fay Failing' });
      const { workflow } = await selfSignToCompletion(app, user);
      await waitForJobState(app, workflow.id, 'retry');
      expect((await workflowRow(app, workflow.id)).sealStatus).toBe('PENDING');
      await elapseBackoff(app, workflow.id);
      await waitForJobState(app, workflow.id, 'retry', 1);
      await elapseBackoff(app, workflow.id, { last: true });
      await waitForJobState(app, workflow.id, 'completed');

      const row = await workflowRow(app, workflow.id);
      expect(row.status).toBe('COMPLETED');
      expect(row.sealStatus).toBe('FAILED');
      expect(row.sealError).toBeTruthy();
      expect((await documentRows(app, workflow.id))[0].sealedBlobKey).toBeNull();
      const failed = (
        await app.platform.db.select().from(activities).where(eq(activities.workflowId, workflow.id))
      ).filter((a) => a.kind === 'SEAL_FAILED');
      expect(failed).toHaveLength(1);
      expect(failed[0].action).toBe('Seal failed');
      const mails = await app.mails({ to: user.email, kind: 'SEAL_FAILED' });
      expect(mails).toHaveLength(1);
      expect(mails[0].textBody).toContain(row.sealError!);
      expect(await mailRows(app, workflow.id, 'COMPLETED')).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('a crash between the last signature and the seal: a restarted instance finishes the sealing', async () => {
    // The first instance's attempt fails (its TSA refuses) and it goes down with the job still queued.
    const first = await createTestApp({ tsaUrl: refusing.url });
    const user = await createUser(first, { name: 'Rita Restart' });
    const { workflow } = await selfSignToCompletion(first, user);
    await waitForJobState(first, workflow.id, 'retry');
    const restarted = await restartApp(first, { tsaUrl: undefined });
    try {
      expect((await workflowRow(restarted, workflow.id)).sealStatus).toBe('PENDING');
      await elapseBackoff(restarted, workflow.id);
      const sealed = await waitForSeal(restarted, workflow.id);
      expect(sealed.sealStatus).toBe('SEALED');
      const [doc] = await documentRows(restarted, workflow.id);
      expect((await pdfsig(await restarted.platform.blobs.get(doc.sealedBlobKey!))).allValid).toBe(true);
      expect((await sealJobs(restarted, workflow.id)).map((j) => j.state)).toEqual(['completed']);
      const kinds = (
        await restarted.platform.db.select().from(activities).where(eq(activities.workflowId, workflow.id))
      ).map((a) => a.kind);
      expect(kinds.filter((k) => k === 'COMPLETED')).toHaveLength(1);
      expect(kinds).not.toContain('SEAL_FAILED');
    } finally {
      await restarted.close();
    }
  });
});
