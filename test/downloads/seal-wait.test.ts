import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, type TestUser } from '../helpers/factories.ts';
import { setWorkflow } from '../helpers/envelope-states.ts';
import { documentRows, pngDataUrl, workflowRow } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { sealWorkflow, type SealJobDeps } from '../../src/modules/signing/seal-job.ts';
import { setSealedFile } from '../../src/modules/signing/signing.repo.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { createSigningCodes, loadSigningCodeKey } from '../../src/modules/signing/signing-codes.ts';

/** Raw bytes of a download (the JSON helper would decode them as text). */
async function download(t: TestApp, workflowId: number, token: string, query: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/document/v1/download/${workflowId}?${query}`,
    headers: { authorization: `Bearer ${token}` },
  });
  const isJson = String(res.headers['content-type']).includes('application/json');
  return {
    status: res.statusCode,
    headers: res.headers,
    bytes: new Uint8Array(res.rawPayload),
    body: isJson ? res.json() : null,
  };
}

/** A SELF draft of `user` with one signature field, signed over HTTP: the response says COMPLETED, seal PENDING. */
async function selfSignToCompletion(t: TestApp, user: TestUser, name: string) {
  const { workflow, document, selfRecipient } = await createDraftWorkflow(t, user, { sequence: 'SELF', name });
  const signature = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'SIGNATURE',
  });
  const res = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
    token: user.token,
    body: [{ id: signature.id, type: 'SIGNATURE', value: pngDataUrl(80, 30) }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ workflowStatus: 'COMPLETED', sealStatus: 'PENDING' });
  return { workflow, document };
}

describe('reading a COMPLETED workflow while its seal is pending', () => {
  let t: TestApp;
  let owner: TestUser;
  // Each seal attempt waits 400 ms first: without the wait in the readers, every read below would be early.
  const SEAL_DELAY_MS = 400;
  beforeAll(async () => {
    t = await createTestApp({ sealTestDelayMs: SEAL_DELAY_MS });
    owner = await createUser(t, { name: 'Wendy Waiter' });
  });
  afterAll(async () => t?.close());

  it('a download right after the completing call waits for the seal and gets the sealed file', async () => {
    const { workflow, document } = await selfSignToCompletion(t, owner, 'Right away');
    const started = Date.now();
    const res = await download(
      t,
      workflow.id,
      owner.token,
      `selectedOption=downloadDocument&documentId=${document.id}`,
    );
    const waited = Date.now() - started;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [row] = await documentRows(t, workflow.id);
    expect(row.sealedBlobKey).toBeTruthy();
    expect(Buffer.from(res.bytes).equals(Buffer.from(await t.platform.blobs.get(row.sealedBlobKey!)))).toBe(true);
    expect((await pdfsig(res.bytes)).allValid).toBe(true);
    // It waited for this instance's seal and was woken by it, not by a poll much later.
    expect(waited).toBeGreaterThanOrEqual(SEAL_DELAY_MS - 50);
    expect(waited).toBeLessThan(SEAL_DELAY_MS + 2_000);
  });

  it('the zip, the certificate and the evidence report, asked for at once, all show the sealed result', async () => {
    const { workflow } = await selfSignToCompletion(t, owner, 'All at once');
    const [zip, coc, report] = await Promise.all([
      download(t, workflow.id, owner.token, 'selectedOption=downloadAll'),
      download(t, workflow.id, owner.token, 'selectedOption=downloadCoc'),
      t.request('GET', `/workflow/v1/evidence-report/${workflow.id}`, { token: owner.token }),
    ]);
    const [row] = await documentRows(t, workflow.id);
    expect(zip.status, JSON.stringify(zip.body)).toBe(200);
    const entries = unzipSync(zip.bytes);
    expect(
      Buffer.from(entries['All at once.pdf']).equals(Buffer.from(await t.platform.blobs.get(row.sealedBlobKey!))),
    ).toBe(true);
    expect(coc.status).toBe(200);
    expect((await pdfsig(coc.bytes)).allValid).toBe(true);
    const certificateText = await pdfText(coc.bytes);
    expect(certificateText).toContain('SEALED');
    expect(certificateText).not.toContain('not sealed');
    expect(report.status).toBe(200);
    expect(report.raw).toContain(row.sealedBlobKey!);
    expect(report.raw).not.toContain('not sealed');
  });
});

describe('a seal that does not land in time', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ sealWaitSeconds: 1 });
    owner = await createUser(t, { name: 'Paula Patient' });
  });
  afterAll(async () => t?.close());

  /** COMPLETED with the seal PENDING and no seal job queued: nothing in this instance will seal it. */
  async function pendingWithoutJob(name: string) {
    const { workflow, document } = await createDraftWorkflow(t, owner, { name });
    await setWorkflow(t, workflow.id, {
      status: 'COMPLETED',
      completedAt: new Date(),
      statusAt: new Date(),
      sealStatus: 'PENDING',
    });
    return { workflow, document };
  }

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After after SEAL_WAIT_SECONDS, for every reader', async () => {
    const { workflow, document } = await pendingWithoutJob('Never sealed');
    const started = Date.now();
    const res = await download(
      t,
      workflow.id,
      owner.token,
      `selectedOption=downloadDocument&documentId=${document.id}`,
    );
    const waited = Date.now() - started;
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ message: 'SERVICE_UNAVAILABLE', errorCode: 10503 });
    expect(res.headers['retry-after']).toBe('5');
    expect(waited).toBeGreaterThanOrEqual(950);
    expect(waited).toBeLessThan(4_000);
    expect((await download(t, workflow.id, owner.token, 'selectedOption=downloadAll')).status).toBe(503);
    expect((await download(t, workflow.id, owner.token, 'selectedOption=downloadCoc')).status).toBe(503);
    const report = await t.request('GET', `/workflow/v1/evidence-report/${workflow.id}`, { token: owner.token });
    expect(report.status).toBe(503);
    expect(report.headers['retry-after']).toBe('5');
  });

  it('serves a document as soon as its sealed file is stored, before the seal is marked SEALED; the zip and the certificate still wait', async () => {
    const { workflow, document } = await pendingWithoutJob('Stored, not yet marked');
    const pending = download(t, workflow.id, owner.token, `selectedOption=downloadDocument&documentId=${document.id}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    // What the seal job does before its SEALED commit (stored and linked), here without the commit.
    const sealed = await t.platform.blobs.put(await makePdf(2));
    await setSealedFile(t.platform.db, document.id, sealed);
    const res = await pending;
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Buffer.from(res.bytes).equals(Buffer.from(await t.platform.blobs.get(sealed.key)))).toBe(true);
    expect((await workflowRow(t, workflow.id)).sealStatus).toBe('PENDING');
    // Another document id of the workflow is no shortcut: it waits as before.
    expect(
      (
        await download(
          t,
          workflow.id,
          owner.token,
          `selectedOption=downloadDocument&documentId=${document.id + 100000}`,
        )
      ).status,
    ).toBe(503);
    expect((await download(t, workflow.id, owner.token, 'selectedOption=downloadAll')).status).toBe(503);
    expect((await download(t, workflow.id, owner.token, 'selectedOption=downloadCoc')).status).toBe(503);
  });

  it('a seal applied by another instance (no in-process wake-up) is picked up by the waiting download', async () => {
    const slow = await createTestApp({ sealWaitSeconds: 10 });
    try {
      const user = await createUser(slow, { name: 'Otto Other' });
      const { workflow, document } = await createDraftWorkflow(slow, user, { name: 'Elsewhere' });
      await setWorkflow(slow, workflow.id, {
        status: 'COMPLETED',
        completedAt: new Date(),
        statusAt: new Date(),
        sealStatus: 'PENDING',
      });
      const pending = download(
        slow,
        workflow.id,
        user.token,
        `selectedOption=downloadDocument&documentId=${document.id}`,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Sealed as another instance would: same database and files, but not through this instance's waiter.
      const otherInstance: SealJobDeps = {
        db: slow.platform.db,
        jobs: slow.platform.jobs,
        blobs: slow.platform.blobs,
        outbox: slow.platform.outbox,
        codes: createSigningCodes(loadSigningCodeKey(slow.config.dataDir)),
        publicUrl: slow.config.publicUrl,
        seal: slow.platform.seal,
        log: () => {},
      };
      await sealWorkflow(otherInstance, workflow.id);
      const sealedAt = Date.now();
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect((await workflowRow(slow, workflow.id)).sealStatus).toBe('SEALED');
      expect((await pdfsig(res.bytes)).allValid).toBe(true);
      // Seen by the poll (every 500 ms), well before the 10 s bound.
      expect(Date.now() - sealedAt).toBeLessThan(2_000);
    } finally {
      await slow.close();
    }
  });
});
