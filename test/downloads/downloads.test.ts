import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { addActivity, markCompleted, markSent, setRecipient, setWorkflow } from '../helpers/envelope-states.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { pageCount, pdfText } from '../helpers/pdf-text.ts';
import { documents } from '../../src/platform/db/schema/index.ts';
import { loadSealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import { sealPdf } from '../../src/platform/pdf/seal-pdf.ts';

let t: TestApp;
let owner: TestUser;
let signer: TestUser;
let outsider: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
  signer = await createUser(t, { name: 'Sam Signer' });
  outsider = await createUser(t);
});
afterAll(async () => {
  await t?.close();
});

/** Raw bytes of a download (the JSON helper would decode them as text). */
async function download(workflowId: number, token: string, query: string) {
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

async function draftWithSigner(name = 'Lease') {
  const { workflow, document } = await createDraftWorkflow(t, owner, { name });
  const recipient = await insertRecipient(t, workflow.id, {
    userId: signer.userId,
    name: signer.name,
    email: signer.email,
  });
  await addActivity(t, {
    workflowId: workflow.id,
    kind: 'DOCUMENT_UPLOADED',
    action: 'Created',
    sentence: 'Olivia Owner created the envelope',
    userId: owner.userId,
    userName: owner.name,
    context: { ipAddress: '203.0.113.1' },
  });
  return { workflow, document, recipient };
}

/** A completed envelope whose document was sealed by the platform's sealing code. */
async function completedEnvelope(name = 'Lease') {
  const draft = await draftWithSigner(name);
  const { workflow, document, recipient } = draft;
  await markSent(t, workflow.id, [recipient.id]);
  await addActivity(t, {
    workflowId: workflow.id,
    kind: 'WORKFLOW_SENT',
    action: 'Sent',
    sentence: 'Olivia Owner sent the envelope',
    userId: owner.userId,
    userName: owner.name,
    status: 'SENT',
  });
  await addActivity(t, {
    workflowId: workflow.id,
    kind: 'SIGNED',
    action: 'Signed',
    sentence: 'Sam Signer signed the document',
    recipientId: recipient.id,
    userName: signer.name,
    status: 'SIGNED',
    context: { ipAddress: '198.51.100.23', accessChannel: 'mobile' },
  });
  await addActivity(t, {
    workflowId: workflow.id,
    kind: 'COMPLETED',
    action: 'Completed',
    sentence: 'The envelope was completed',
    status: 'COMPLETED',
  });
  await setRecipient(t, recipient.id, { status: 'SIGNED', actedAt: new Date(), viewedAt: new Date() });
  const source = await t.platform.blobs.get(document.blobKey);
  const sealed = await sealPdf(source, await loadSealIdentity(t.config.dataDir), { reason: 'test seal' });
  const sealedKey = await markCompleted(t, workflow.id, document.id, sealed);
  return { ...draft, sealed, sealedKey };
}

describe('GET /document/v1/download/{workflowId}', () => {
  it('gives the owner of a draft the source PDF with a safe attachment name', async () => {
    const { workflow, document } = await draftWithSigner('Q3 "plan" / draft\r\nX: ü');
    const res = await download(workflow.id, owner.token, `selectedOption=downloadDocument&documentId=${document.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(Buffer.from(res.bytes).equals(Buffer.from(await t.platform.blobs.get(document.blobKey)))).toBe(true);
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(
      /^attachment; filename="[A-Za-z0-9 ._()-]+\.pdf"; filename\*=UTF-8''[A-Za-z0-9%._~!-]+\.pdf$/,
    );
    expect(disposition).not.toMatch(/[\r\n]/);
  });

  it('validates selectedOption and documentId', async () => {
    const { workflow, document } = await draftWithSigner();
    const other = await draftWithSigner();
    const missing = await download(workflow.id, owner.token, 'selectedOption=downloadDocument');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('BAD_REQUEST_BODY');
    expect(
      (await download(workflow.id, owner.token, `selectedOption=downloadDocument&documentId=${other.document.id}`))
        .status,
    ).toBe(404);
    expect(
      (await download(workflow.id, owner.token, `selectedOption=downloadEverything&documentId=${document.id}`)).status,
    ).toBe(400);
    expect((await download(workflow.id, owner.token, '')).status).toBe(400);
    expect((await download(workflow.id, owner.token, 'selectedOption=downloadDocument&documentId=abc')).status).toBe(
      400,
    );
  });

  it('hides a draft from its recipients and everyone from outsiders (404)', async () => {
    const { workflow, document, recipient } = await draftWithSigner();
    const query = `selectedOption=downloadDocument&documentId=${document.id}`;
    expect((await download(workflow.id, signer.token, query)).status).toBe(404);
    expect((await download(workflow.id, outsider.token, query)).status).toBe(404);
    await markSent(t, workflow.id, [recipient.id]);
    expect((await download(workflow.id, signer.token, query)).status).toBe(200);
    expect((await download(workflow.id, outsider.token, query)).status).toBe(404);
    expect((await download(999_999, owner.token, query)).status).toBe(404);
  });

  it('zips the source documents without a certificate before completion, and refuses downloadCoc', async () => {
    const { workflow, document } = await draftWithSigner('Same name');
    const second = await t.platform.blobs.put(await makePdf(3));
    await t.platform.db.insert(documents).values({
      workflowId: workflow.id,
      name: 'Same name',
      position: 1,
      blobKey: second.key,
      size: second.size,
      pages: 3,
      pageSizes: [],
    });
    const res = await download(workflow.id, owner.token, 'selectedOption=downloadAll');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(String(res.headers['content-disposition'])).toContain('filename="Same name.zip"');
    const entries = unzipSync(res.bytes);
    expect(Object.keys(entries).sort()).toEqual(['Same name (2).pdf', 'Same name.pdf']);
    expect(
      Buffer.from(entries['Same name.pdf']).equals(Buffer.from(await t.platform.blobs.get(document.blobKey))),
    ).toBe(true);

    await setWorkflow(t, workflow.id, { status: 'SENT' });
    const coc = await download(workflow.id, owner.token, 'selectedOption=downloadCoc');
    expect(coc.status).toBe(400);
    expect(coc.body.message).toBe('INVALID_WORKFLOW_STATUS');
  });

  it("after completion serves the sealed document, also to the finished signer's guest token", async () => {
    const { workflow, document, recipient, sealed } = await completedEnvelope();
    const query = `selectedOption=downloadDocument&documentId=${document.id}`;
    const res = await download(workflow.id, owner.token, query);
    expect(res.status).toBe(200);
    expect(Buffer.from(res.bytes).equals(Buffer.from(sealed))).toBe(true);
    const guest = await download(workflow.id, await guestToken(t, recipient), query);
    expect(guest.status).toBe(200);
    expect((await pdfsig(guest.bytes)).allValid).toBe(true);
  });

  it('issues a sealed certificate of completion with the envelope, hashes, recipients and events', async () => {
    const { workflow, document, sealedKey } = await completedEnvelope('Supply agreement');
    const res = await download(workflow.id, signer.token, 'selectedOption=downloadCoc');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain(`Certificate of completion ${workflow.id}.pdf`);
    expect((await pdfsig(res.bytes)).allValid).toBe(true);
    const text = (await pdfText(res.bytes, { layout: true })).replace(/\s+/g, ' ');
    for (const expected of [
      'Certificate of Completion',
      'Supply agreement',
      String(workflow.id),
      'COMPLETED',
      document.blobKey,
      sealedKey,
      'Sam Signer',
      signer.email,
      'SIGNER / SIGNED',
      '198.51.100.23 / mobile',
      'Sam Signer signed the document',
      'The envelope was completed',
      'intact',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('zips the sealed documents plus the certificate of completion once COMPLETED', async () => {
    const { workflow, sealed } = await completedEnvelope('Bundle');
    const res = await download(workflow.id, owner.token, 'selectedOption=downloadAll');
    expect(res.status).toBe(200);
    const entries = unzipSync(res.bytes);
    expect(Object.keys(entries).sort()).toEqual(['Bundle.pdf', `Certificate of completion ${workflow.id}.pdf`]);
    expect(Buffer.from(entries['Bundle.pdf']).equals(Buffer.from(sealed))).toBe(true);
    expect((await pdfsig(entries[`Certificate of completion ${workflow.id}.pdf`])).allValid).toBe(true);
  });

  it('refuses the documents of a COMPLETED workflow whose seal FAILED with SEAL_FAILED, but still certifies completion', async () => {
    const { workflow, document, recipient } = await draftWithSigner('Failed seal');
    await markSent(t, workflow.id, [recipient.id]);
    await setWorkflow(t, workflow.id, {
      status: 'COMPLETED',
      completedAt: new Date(),
      sealStatus: 'FAILED',
      sealError: 'the time-stamp authority refused',
    });
    const res = await download(workflow.id, owner.token, `selectedOption=downloadDocument&documentId=${document.id}`);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({
      message: 'SEAL_FAILED',
      errorCode: 13004,
      responseBody: { detail: 'the time-stamp authority refused' },
    });
    const zip = await download(workflow.id, owner.token, 'selectedOption=downloadAll');
    expect(zip.status).toBe(500);
    expect(zip.body.message).toBe('SEAL_FAILED');
    const coc = await download(workflow.id, owner.token, 'selectedOption=downloadCoc');
    expect(coc.status).toBe(200);
    expect(await pdfText(coc.bytes)).toContain('not sealed (FAILED)');
  });

  it('continues a long trail over several pages, each numbered, and stays validly sealed', async () => {
    const { workflow } = await completedEnvelope('Long trail');
    for (let i = 1; i <= 70; i++) {
      await addActivity(t, {
        workflowId: workflow.id,
        kind: 'COMMENT_ADDED',
        action: 'Comment added',
        sentence: `Comment number ${i}: ${'a fairly long remark '.repeat(6)}`,
        userName: owner.name,
      });
    }
    const res = await download(workflow.id, owner.token, 'selectedOption=downloadCoc');
    expect(res.status).toBe(200);
    const pages = await pageCount(res.bytes);
    expect(pages).toBeGreaterThan(2);
    const text = await pdfText(res.bytes);
    expect(text).toContain(`page ${pages} of ${pages}`);
    expect(text).toContain('Comment number 70');
    expect((await pdfsig(res.bytes)).allValid).toBe(true);
  });

  it('keeps names outside WinAnsi readable in the certificate', async () => {
    const { workflow, recipient } = await completedEnvelope('Zoë Łódź 合同');
    await setRecipient(t, recipient.id, { name: 'Zoë Ærø' });
    const res = await download(workflow.id, owner.token, 'selectedOption=downloadCoc');
    const text = await pdfText(res.bytes);
    expect(text).toContain('Zoë Ærø');
    expect(text).toContain('Zoë Łódź ??');
  });
});
