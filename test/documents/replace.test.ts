import { describe, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, guestToken, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { PDF } from '@libpdf/core';
import { updateWorkflow } from '../helpers/document-list.ts';
import {
  isPng,
  makeDocx,
  makeEncryptedPdf,
  makeSignedFieldPdf,
  replaceFile,
  sendMultipart,
  storedState,
  uploadFile,
} from '../helpers/documents.ts';
import { UPLOAD_LIMIT_BYTES } from '../../src/app.ts';
import { documents, fields } from '../../src/platform/db/schema/index.ts';

const test = base.extend<{ signer: TestUser; stranger: TestUser }>({
  signer: fileUser({ name: 'Sam Signer' }),
  stranger: fileUser({ name: 'Stan Stranger' }),
});

const documentRow = async (t: TestApp, id: number) =>
  (await t.platform.db.select().from(documents).where(eq(documents.id, id)))[0];
const fieldIds = async (t: TestApp, documentId: number) =>
  (await t.platform.db.select().from(fields).where(eq(fields.documentId, documentId))).map((f) => f.id);

/** A draft uploaded through the API (1 Letter page), with a recipient to hang fields on. */
async function uploadedDraft(t: TestApp, owner: TestUser, signer: TestUser, pages = 1) {
  const res = await uploadFile(t, owner.token, 'Original.pdf', await makePdf(pages));
  expect(res.status).toBe(201);
  const row = await insertRecipient(t, res.body.workflowId, {
    userId: signer.userId,
    name: 'Sam Signer',
    email: signer.email,
  });
  return {
    documentId: res.body.id as number,
    workflowId: res.body.workflowId as number,
    recipient: row,
    thumbnail: res.body.thumbnailBase64 as string,
  };
}

describe('PUT /document/v1/{docId} multipart: replace the PDF', () => {
  test('swaps the file, page count, page sizes, size and thumbnail; keeps name, position and fields; answers the document', async ({
    app: t,
    owner,
    signer,
  }) => {
    const draft = await uploadedDraft(t, owner, signer, 1);
    const field = await insertField(t, {
      workflowId: draft.workflowId,
      documentId: draft.documentId,
      recipientId: draft.recipient.id,
      fieldType: 'SIGNATURE',
      pageNo: 1,
    });
    const oldRow = await documentRow(t, draft.documentId);
    const bytes = await makePdf(3, { size: 'a4' });

    const res = await replaceFile(t, owner.token, draft.documentId, 'Revised.pdf', bytes);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      id: draft.documentId,
      workflowId: draft.workflowId,
      documentName: 'Original',
      name: 'Original',
      position: 0,
      size: bytes.length,
      pages: 3,
      isViewed: false,
      status: 'DRAFT',
    });
    expect(isPng(res.body.thumbnailBase64)).toBe(true);
    expect(res.body.thumbnailBase64).not.toBe(draft.thumbnail);

    const row = await documentRow(t, draft.documentId);
    expect(row.blobKey).not.toBe(oldRow.blobKey);
    expect(row.pageSizes).toEqual(Array.from({ length: 3 }, () => ({ width: 595.28, height: 841.89, rotation: 0 })));
    expect(Buffer.from(await t.platform.blobs.get(row.blobKey)).equals(Buffer.from(bytes))).toBe(true);
    expect(await fieldIds(t, draft.documentId)).toEqual([field.id]);

    const detail = await t.request('GET', `/document/v1/${draft.documentId}`, { token: owner.token });
    expect(detail.body).toMatchObject({ pages: 3, size: bytes.length });
  });

  test('refuses a file that would leave a field off its page, naming the fields; nothing changes', async ({
    app: t,
    owner,
    signer,
  }) => {
    const draft = await uploadedDraft(t, owner, signer, 3);
    const onPage3 = await insertField(t, {
      workflowId: draft.workflowId,
      documentId: draft.documentId,
      recipientId: draft.recipient.id,
      fieldType: 'TEXT',
      pageNo: 3,
    });
    const nearRightEdge = await insertField(t, {
      workflowId: draft.workflowId,
      documentId: draft.documentId,
      recipientId: draft.recipient.id,
      fieldType: 'TEXT',
      pageNo: 1,
      box: { x: 500, y: 72, width: 100, height: 20 },
    });
    const fits = await insertField(t, {
      workflowId: draft.workflowId,
      documentId: draft.documentId,
      recipientId: draft.recipient.id,
      fieldType: 'TEXT',
      pageNo: 2,
    });
    const before = await storedState(t);
    const rowBefore = await documentRow(t, draft.documentId);

    // Two pages: page 3 is gone. Three pages 400 points wide: the field at x 500-600 no longer fits.
    const narrow = PDF.create();
    for (let i = 0; i < 3; i++) narrow.addPage({ width: 400, height: 792 });
    const cases: Array<[Uint8Array, number[]]> = [
      [await makePdf(2), [onPage3.id]],
      [await narrow.save(), [nearRightEdge.id]],
    ];
    for (const [bytes, expected] of cases) {
      const res = await replaceFile(t, owner.token, draft.documentId, 'Shorter.pdf', bytes);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('FIELDS_OUTSIDE_DOCUMENT');
      expect(res.body.responseBody).toEqual({ fieldIds: expected });
      for (const id of expected) expect(res.body.errorDescription).toContain(String(id));
    }
    expect(await storedState(t)).toEqual(before);
    expect(await documentRow(t, draft.documentId)).toEqual(rowBefore);
    expect((await fieldIds(t, draft.documentId)).sort()).toEqual([onPage3.id, nearRightEdge.id, fits.id].sort());

    // A 3-page Letter replacement keeps every field in place.
    expect((await replaceFile(t, owner.token, draft.documentId, 'Same shape.pdf', await makePdf(3))).status).toBe(200);
  });

  test('accepts PDF only, and applies the upload checks; nothing changes on refusal', async ({
    app: t,
    owner,
    signer,
  }) => {
    const draft = await uploadedDraft(t, owner, signer, 1);
    const pdf = await makePdf(2);
    const rowBefore = await documentRow(t, draft.documentId);
    const before = await storedState(t);
    const cases: Array<[string, Uint8Array | string, string]> = [
      ['Revised.docx', makeDocx(), 'INVALID_DOCUMENT_TYPE'],
      ['Revised.doc', makeDocx(), 'INVALID_DOCUMENT_TYPE'],
      ['Revised.txt', 'text', 'INVALID_DOCUMENT_TYPE'],
      ['Revised.pdf', 'not a pdf', 'INVALID_DOCUMENT_TYPE'],
      ['Revised.pdf', new Uint8Array(0), 'INVALID_DOCUMENT_SIZE'],
      ['Revised.pdf', pdf.slice(0, pdf.length / 2), 'INVALID_PDF'],
      ['Revised.pdf', await makeEncryptedPdf(pdf, { userPassword: 'x' }), 'INVALID_PDF'],
      ['Revised.pdf', await makeSignedFieldPdf(pdf), 'DOCUMENT_ALREADY_SIGNED'],
    ];
    for (const [name, data, message] of cases) {
      const res = await replaceFile(t, owner.token, draft.documentId, name, data);
      expect(res.status, name).toBe(400);
      expect(res.body.message, `${name} ${res.body.errorDescription}`).toBe(message);
    }
    const docx = await replaceFile(t, owner.token, draft.documentId, 'Revised.docx', makeDocx());
    expect(docx.body.errorDescription).toBe('Invalid document type');
    expect(docx.body.responseBody.detail).toMatch(/replaced by a \.pdf/);

    const missing = await sendMultipart(t, 'PUT', `/document/v1/${draft.documentId}`, owner.token, [
      { name: 'other', data: 'x' },
    ]);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('BAD_REQUEST_BODY');

    expect(await storedState(t)).toEqual(before);
    expect(await documentRow(t, draft.documentId)).toEqual(rowBefore);
  });

  test('refuses more than 25 MB with INVALID_DOCUMENT_SIZE and stores nothing', async ({ app: t, owner, signer }) => {
    const draft = await uploadedDraft(t, owner, signer, 1);
    const before = await storedState(t);
    const big = new Uint8Array(UPLOAD_LIMIT_BYTES + 1);
    big.set(Buffer.from('%PDF-1.7\n'));
    const res = await replaceFile(t, owner.token, draft.documentId, 'Huge.pdf', big);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_DOCUMENT_SIZE');
    expect(await storedState(t)).toEqual(before);
  });

  test('owner only, DRAFT only: 404 for outsiders and unknown ids, INVALID_WORKFLOW_OWNER for a recipient, INVALID_WORKFLOW_STATUS once sent, 403 for a guest token', async ({
    app: t,
    owner,
    signer,
    stranger,
  }) => {
    const draft = await uploadedDraft(t, owner, signer, 1);
    const sent = await uploadedDraft(t, owner, signer, 1);
    await updateWorkflow(t, sent.workflowId, { status: 'SENT' });
    const pdf = await makePdf(1);
    const before = await storedState(t);

    const cases: Array<[string, number, number, string]> = [
      [stranger.token, draft.documentId, 404, 'NOT_FOUND'],
      [signer.token, draft.documentId, 404, 'NOT_FOUND'],
      [owner.token, 999999, 404, 'NOT_FOUND'],
      [signer.token, sent.documentId, 400, 'INVALID_WORKFLOW_OWNER'],
      [owner.token, sent.documentId, 400, 'INVALID_WORKFLOW_STATUS'],
      [await guestToken(t, sent.recipient), sent.documentId, 403, 'USER_NOT_HAVE_ACCESS'],
    ];
    for (const [token, documentId, status, message] of cases) {
      const res = await replaceFile(t, token, documentId, 'New.pdf', pdf);
      expect(res.status, message).toBe(status);
      expect(res.body.message).toBe(message);
    }
    expect((await replaceFile(t, undefined, draft.documentId, 'New.pdf', pdf)).status).toBe(401);
    expect(await storedState(t)).toEqual(before);
  });
});

describe('PUT /document/v1/{docId} JSON: rename', () => {
  test('renames the document (trimmed), not its workflow, and answers the document', async ({
    app: t,
    owner,
    signer,
  }) => {
    const draft = await uploadedDraft(t, owner, signer, 1);
    const res = await t.request('PUT', `/document/v1/${draft.documentId}`, {
      token: owner.token,
      body: { name: '  Master agreement v2  ' },
    });
    expect(res.status).toBe(200);
    // The answer is the updated document: `name` is the document's new name; the workflow keeps its own.
    expect(res.body).toMatchObject({
      id: draft.documentId,
      documentName: 'Master agreement v2',
      name: 'Master agreement v2',
      workflowName: 'Original',
      pages: 1,
    });
    expect((await documentRow(t, draft.documentId)).name).toBe('Master agreement v2');
    const exactly50 = 'x'.repeat(50);
    expect(
      (
        await t.request('PUT', `/document/v1/${draft.documentId}`, {
          token: owner.token,
          body: { name: ` ${exactly50} ` },
        })
      ).body.documentName,
    ).toBe(exactly50);
  });

  test('refuses empty, whitespace-only, too long or missing names', async ({ app: t, owner, signer }) => {
    const draft = await uploadedDraft(t, owner, signer, 1);
    const cases: Array<[unknown, string]> = [
      [{ name: '   ' }, 'INVALID_REQUEST_BODY'],
      [{ name: '' }, 'BAD_REQUEST_BODY'],
      [{ name: 'y'.repeat(51) }, 'BAD_REQUEST_BODY'],
      [{ name: 42 }, 'BAD_REQUEST_BODY'],
      [{}, 'BAD_REQUEST_BODY'],
    ];
    for (const [body, message] of cases) {
      const res = await t.request('PUT', `/document/v1/${draft.documentId}`, { token: owner.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toBe(message);
    }
    const asText = await t.request('PUT', `/document/v1/${draft.documentId}`, {
      token: owner.token,
      body: 'New name',
      headers: { 'content-type': 'text/plain' },
    });
    expect(asText.status).toBe(400);
    expect(asText.body.message).toBe('BAD_REQUEST_BODY');
    const empty = await t.request('PUT', `/document/v1/${draft.documentId}`, { token: owner.token });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('BAD_REQUEST_BODY');
    expect((await documentRow(t, draft.documentId)).name).toBe('Original');
  });

  test('allows the owner in any status but VOID; others get 404 or INVALID_WORKFLOW_OWNER', async ({
    app: t,
    owner,
    signer,
    stranger,
  }) => {
    const draft = await uploadedDraft(t, owner, signer, 1);
    await updateWorkflow(t, draft.workflowId, { status: 'COMPLETED' });
    expect(
      (
        await t.request('PUT', `/document/v1/${draft.documentId}`, {
          token: owner.token,
          body: { name: 'Signed copy' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await t.request('PUT', `/document/v1/${draft.documentId}`, { token: signer.token, body: { name: 'Mine' } })).body
        .message,
    ).toBe('INVALID_WORKFLOW_OWNER');
    expect(
      (await t.request('PUT', `/document/v1/${draft.documentId}`, { token: stranger.token, body: { name: 'Mine' } }))
        .status,
    ).toBe(404);
    await updateWorkflow(t, draft.workflowId, { status: 'VOID' });
    const voided = await t.request('PUT', `/document/v1/${draft.documentId}`, {
      token: owner.token,
      body: { name: 'Too late' },
    });
    expect(voided.status).toBe(400);
    expect(voided.body.message).toBe('INVALID_WORKFLOW_STATUS');
    expect((await documentRow(t, draft.documentId)).name).toBe('Signed copy');
  });

  test('a document created by the factories (not uploaded) can be renamed too', async ({ app: t, owner }) => {
    const { document } = await createDraftWorkflow(t, owner);
    const res = await t.request('PUT', `/document/v1/${document.id}`, {
      token: owner.token,
      body: { name: 'Renamed' },
    });
    expect(res.status).toBe(200);
    expect(res.body.thumbnailBase64).toBeNull();
  });
});
