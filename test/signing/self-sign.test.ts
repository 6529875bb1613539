import { describe, expect } from 'vitest';
import { test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, type TestUser } from '../helpers/factories.ts';
import { activityKinds, documentRows, mailRows, pngDataUrl, waitForSeal, workflowRow } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';

const test = base.override({ ownerName: 'Sally Self' });

async function selfDraft(t: TestApp, owner: TestUser) {
  const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF', pages: 2 });
  const signature = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'SIGNATURE',
    pageNo: 2,
    box: { x: 72, y: 600, width: 180, height: 50 },
  });
  const name = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'NAME',
    fieldRequired: true,
    box: { x: 72, y: 100, width: 200, height: 24 },
  });
  const date = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: selfRecipient!.id,
    fieldType: 'DATE',
    box: { x: 300, y: 100, width: 120, height: 24 },
  });
  return { workflow, document, selfRecipient: selfRecipient!, signature, name, date };
}

describe('self-signing', () => {
  test('the owner fills and signs a DRAFT with their own token: COMPLETED, sealed, valid for pdfsig, no mail', async ({
    app: t,
    owner,
  }) => {
    const { workflow, document, selfRecipient, signature, name, date } = await selfDraft(t, owner);

    const partial = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: owner.token,
      body: [
        { id: name.id, type: 'NAME', value: '  Sally Self ' },
        { id: date.id, type: 'DATE', value: '2026-11-22' },
      ],
    });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    expect(partial.body).toMatchObject({
      workflowId: workflow.id,
      recipientId: selfRecipient.id,
      recipientStatus: 'PENDING',
      workflowStatus: 'DRAFT',
      sealStatus: 'NONE',
      savedFieldIds: [name.id, date.id],
    });

    const signed = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: owner.token,
      body: { id: signature.id, image: pngDataUrl(120, 40) },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body).toMatchObject({
      recipientStatus: 'SIGNED',
      workflowStatus: 'COMPLETED',
      sealStatus: 'PENDING',
      savedFieldIds: [signature.id],
    });

    const completed = await workflowRow(t, workflow.id);
    expect(completed.status).toBe('COMPLETED');
    expect(completed.completedAt).not.toBeNull();
    expect(completed.sentAt).toBeNull();

    const sealed = await waitForSeal(t, workflow.id);
    expect(sealed.sealStatus).toBe('SEALED');
    const [doc] = await documentRows(t, workflow.id);
    expect(doc.sealedBlobKey).toMatch(/^[0-9a-f]{64}$/);
    const bytes = await t.platform.blobs.get(doc.sealedBlobKey!);
    expect(doc.sealedSize).toBe(bytes.length);
    // Incremental updates only: the uploaded file is a byte-identical prefix of the sealed one.
    const source = await t.platform.blobs.get(document.blobKey);
    expect(Buffer.from(bytes.subarray(0, source.length)).equals(Buffer.from(source))).toBe(true);
    const report = await pdfsig(bytes);
    expect(report.signatures, report.output).toBe(1);
    expect(report.allValid, report.output).toBe(true);

    expect(await activityKinds(t, workflow.id)).toEqual(['CONSENT_ACCEPTED', 'SIGNED', 'COMPLETED']);
    expect(await mailRows(t, workflow.id, 'COMPLETED')).toEqual([]);
    expect((await t.mails()).filter((m) => m.workflowId === workflow.id)).toEqual([]);
  });

  test('a COMPLETED self-signed workflow is read-only', async ({ app: t, owner }) => {
    const { workflow, document, signature, name } = await selfDraft(t, owner);
    const done = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: owner.token,
      body: [
        { id: name.id, type: 'NAME', value: 'Sally Self' },
        { id: signature.id, type: 'SIGNATURE', value: pngDataUrl() },
      ],
    });
    expect(done.body.workflowStatus).toBe('COMPLETED');
    const again = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: owner.token,
      body: [{ id: name.id, type: 'NAME', value: 'Someone Else' }],
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('INVALID_WORKFLOW_STATUS');
    await waitForSeal(t, workflow.id);
  });

  test("nobody else can act on the owner's self-sign draft", async ({ app: t, owner }) => {
    const { workflow, document, name } = await selfDraft(t, owner);
    const stranger = await createUser(t);
    const res = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: stranger.token,
      body: [{ id: name.id, type: 'NAME', value: 'Intruder' }],
    });
    expect(res.status).toBe(404);
    const sign = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: stranger.token,
      body: { id: name.id, image: pngDataUrl() },
    });
    expect(sign.status).toBe(404);
  });
});
