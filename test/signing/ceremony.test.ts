import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { activities, signatureAssets } from '../../src/platform/db/schema/index.ts';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, insertField, insertRecipient } from '../helpers/factories.ts';
import { markSent, setRecipient, setWorkflow } from '../helpers/envelope-states.ts';
import { fieldRow, pngDataUrl, recipientRow, sentEnvelope, workflowRow } from '../helpers/ceremony.ts';

async function save(t: TestApp, token: string, documentId: number, body: unknown) {
  return t.request('POST', `/workflow/v1/${documentId}/fields/save`, { token, body });
}

describe('fields/save: whose fields', () => {
  test("a guest acting on another recipient's field gets 403 and nothing is written", async ({ app: t, owner }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const res = await save(t, env.aliceToken, env.document.id, [
      { id: env.bobSignature.id, type: 'SIGNATURE', value: pngDataUrl() },
    ]);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('USER_NOT_HAVE_ACCESS');
    const mixed = await save(t, env.aliceToken, env.document.id, [
      { id: env.fields[0].id, type: 'SIGNATURE', value: pngDataUrl() },
      { id: env.bobSignature.id, type: 'SIGNATURE', value: pngDataUrl() },
    ]);
    expect(mixed.status).toBe(403);
    expect((await fieldRow(t, env.fields[0].id)).value).toBeNull();
    expect((await recipientRow(t, env.alice.id)).status).toBe('SENT');
    const sign = await t.request('POST', `/workflow/v1/${env.workflow.id}/sign`, {
      token: env.aliceToken,
      body: { id: env.bobSignature.id, image: pngDataUrl() },
    });
    expect(sign.status).toBe(403);
  });

  test('a field or document of another workflow is 404, whoever asks', async ({ app: t, owner }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const other = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const foreignField = await save(t, env.aliceToken, env.document.id, [
      { id: other.fields[0].id, type: 'SIGNATURE', value: pngDataUrl() },
    ]);
    expect(foreignField.status).toBe(404);
    const foreignDocument = await save(t, env.aliceToken, other.document.id, [
      { id: other.fields[0].id, type: 'SIGNATURE', value: pngDataUrl() },
    ]);
    expect(foreignDocument.status).toBe(404);
    const missingDocument = await save(t, env.aliceToken, 2_000_000_000, []);
    expect(missingDocument.status).toBe(404);
    const missingField = await save(t, env.aliceToken, env.document.id, [
      { id: 2_000_000_000, type: 'TEXT', value: 'x' },
    ]);
    expect(missingField.status).toBe(404);
    const foreignSign = await t.request('POST', `/workflow/v1/${other.workflow.id}/sign`, {
      token: env.aliceToken,
      body: { id: other.fields[0].id, image: pngDataUrl() },
    });
    expect(foreignSign.status).toBe(404);
    expect((await fieldRow(t, other.fields[0].id)).value).toBeNull();
  });

  test("a STAMP cannot be filled by a hidden assistant row: neither the signer's nor one on its own row", async ({
    app: t,
    owner,
  }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'STAMP' }, { fieldType: 'SIGNATURE' }]);
    const assistantUser = await createUser(t, { name: 'Ann Assistant' });
    const assistant = await insertRecipient(t, env.workflow.id, {
      userId: assistantUser.userId,
      name: 'Ann Assistant',
      email: assistantUser.email,
      recipientOrder: 3,
    });
    await setRecipient(t, assistant.id, { isHidden: true, status: 'SENT', dispatchedAt: new Date() });
    const ownStamp = await insertField(t, {
      workflowId: env.workflow.id,
      documentId: env.document.id,
      recipientId: assistant.id,
      fieldType: 'STAMP',
    });
    const ownText = await insertField(t, {
      workflowId: env.workflow.id,
      documentId: env.document.id,
      recipientId: assistant.id,
      fieldType: 'TEXT',
    });
    const assistantToken = await guestToken(t, assistant);

    const onBehalf = await save(t, assistantToken, env.document.id, [
      { id: env.fields[0].id, type: 'STAMP', value: pngDataUrl() },
    ]);
    expect(onBehalf.status).toBe(403);
    expect(onBehalf.body.errorDescription).toMatch(/STAMP reserved for the recipient/);
    const own = await save(t, assistantToken, env.document.id, [
      { id: ownStamp.id, type: 'STAMP', value: pngDataUrl() },
    ]);
    expect(own.status).toBe(403);
    expect(own.body.errorDescription).toMatch(/assistant/);
    // The assistant's other fields are its own to fill.
    const text = await save(t, assistantToken, env.document.id, [
      { id: ownText.id, type: 'TEXT', value: 'pre-reviewed' },
    ]);
    expect(text.status, JSON.stringify(text.body)).toBe(200);
    // The person the STAMP belongs to fills it.
    const byOwner = await save(t, env.aliceToken, env.document.id, [
      { id: env.fields[0].id, type: 'STAMP', value: pngDataUrl(30, 30) },
    ]);
    expect(byOwner.status).toBe(200);
    expect((await fieldRow(t, ownStamp.id)).value).toBeNull();
  });

  test("signatureAssetId: an entry of the signer's own library is stored; null, 0 and negative leave it; someone else's or a missing one is 400; other types refuse one", async ({
    app: t,
    owner,
  }) => {
    const env = await sentEnvelope(t, owner, [
      { fieldType: 'INITIALS' },
      { fieldType: 'TEXT' },
      { fieldType: 'SIGNATURE' },
    ]);
    const [initials, text] = env.fields;
    const libraryEntry = async (userId: number) =>
      (
        await t.platform.db
          .insert(signatureAssets)
          .values({ userId, kind: 'INITIALS', name: 'Initials', image: pngDataUrl() })
          .returning()
      )[0].id;
    const own = await libraryEntry(env.alice.userId);
    const bobs = await libraryEntry(env.bob.userId);
    const first = await save(t, env.aliceToken, env.document.id, [
      { id: initials.id, type: 'INITIALS', value: pngDataUrl(), signatureAssetId: own },
    ]);
    expect(first.status).toBe(200);
    expect((await fieldRow(t, initials.id)).signatureAssetId).toBe(own);
    for (const signatureAssetId of [null, 0, -4]) {
      const res = await save(t, env.aliceToken, env.document.id, [
        { id: initials.id, type: 'INITIALS', value: pngDataUrl(8, 8), signatureAssetId },
      ]);
      expect(res.status).toBe(200);
      expect((await fieldRow(t, initials.id)).signatureAssetId).toBe(own);
    }
    // Several fields in one save (one statement writes them all): each gets its own value; a field without an
    // entry keeps the one it had; an emptied field loses its time.
    const several = await save(t, env.aliceToken, env.document.id, [
      { id: text.id, type: 'TEXT', value: 'together' },
      { id: initials.id, type: 'INITIALS', value: pngDataUrl(7, 7), signatureAssetId: null },
    ]);
    expect(several.status, JSON.stringify(several.body)).toBe(200);
    expect(await fieldRow(t, text.id)).toMatchObject({
      value: 'together',
      signatureAssetId: null,
      filledAt: expect.any(Date),
    });
    expect(await fieldRow(t, initials.id)).toMatchObject({
      value: expect.stringMatching(/^data:image\/png;base64,/),
      signatureAssetId: own,
      filledAt: expect.any(Date),
    });
    const emptied = await save(t, env.aliceToken, env.document.id, [
      { id: text.id, type: 'TEXT', value: '' },
      { id: initials.id, type: 'INITIALS', value: pngDataUrl(6, 6), signatureAssetId: own },
    ]);
    expect(emptied.status, JSON.stringify(emptied.body)).toBe(200);
    expect(await fieldRow(t, text.id)).toMatchObject({ value: null, filledAt: null });
    expect((await fieldRow(t, initials.id)).signatureAssetId).toBe(own);
    // Another person's entry answers exactly like one that does not exist, and nothing of the save is written.
    for (const signatureAssetId of [bobs, bobs + 1000]) {
      const res = await save(t, env.aliceToken, env.document.id, [
        { id: text.id, type: 'TEXT', value: 'not written' },
        { id: initials.id, type: 'INITIALS', value: pngDataUrl(9, 9), signatureAssetId },
      ]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: 'SIGNATURE_ASSET_NOT_FOUND', errorCode: 15107 });
      expect((await fieldRow(t, initials.id)).signatureAssetId).toBe(own);
      expect((await fieldRow(t, text.id)).value).toBeNull();
    }
    const onText = await save(t, env.aliceToken, env.document.id, [
      { id: text.id, type: 'TEXT', value: 'x', signatureAssetId: 3 },
    ]);
    expect(onText.status).toBe(400);
    expect(onText.body.message).toBe('INVALID_FIELD_VALUE');
  });
});

describe('who may act, and when', () => {
  test('records the consent once, on the first save, with the disclosure text and its hash', async ({
    app: t,
    owner,
  }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'TEXT' }, { fieldType: 'SIGNATURE' }]);
    const res = await t.request('POST', `/workflow/v1/${env.document.id}/fields/save`, {
      token: env.aliceToken,
      body: [{ id: env.fields[0].id, type: 'TEXT', value: 'a' }],
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)' },
    });
    expect(res.status).toBe(200);
    await save(t, env.aliceToken, env.document.id, [{ id: env.fields[0].id, type: 'TEXT', value: 'b' }]);
    const rows = (
      await t.platform.db.select().from(activities).where(eq(activities.workflowId, env.workflow.id))
    ).filter((a) => a.kind === 'CONSENT_ACCEPTED');
    expect(rows).toHaveLength(1);
    const disclosure = await t.request('GET', '/workflow/v1/signing/disclosure');
    expect(disclosure.status).toBe(200);
    expect(disclosure.body.textHash).toBe(crypto.createHash('sha256').update(disclosure.body.text).digest('hex'));
    expect(rows[0].recipientId).toBe(env.alice.id);
    expect(rows[0].consent).toEqual({
      recipientName: 'Alice Signer',
      recipientEmail: env.alice.email,
      ipAddress: '127.0.0.1',
      accessChannel: 'mobile',
      source: 'SIGNING_LINK',
      evidence: expect.stringContaining('fields/save'),
      textHash: disclosure.body.textHash,
      text: disclosure.body.text,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)',
    });
  });

  test("a finished recipient's token can read but not act", async ({ app: t, owner }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const done = await save(t, env.aliceToken, env.document.id, [
      { id: env.fields[0].id, type: 'SIGNATURE', value: pngDataUrl() },
    ]);
    expect(done.body.recipientStatus).toBe('SIGNED');
    const signed = (await fieldRow(t, env.fields[0].id)).value;
    const again = await save(t, env.aliceToken, env.document.id, [
      { id: env.fields[0].id, type: 'SIGNATURE', value: pngDataUrl(9, 9) },
    ]);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    const sign = await t.request('POST', `/workflow/v1/${env.workflow.id}/sign`, {
      token: env.aliceToken,
      body: { id: env.fields[0].id, image: pngDataUrl(9, 9) },
    });
    expect(sign.status).toBe(400);
    expect((await fieldRow(t, env.fields[0].id)).value).toBe(signed);
    const read = await t.request('GET', `/workflow/v1/${env.workflow.id}/comments`, { token: env.aliceToken });
    expect(read.status).toBe(200);
  });

  test('VOID and COMPLETED workflows are read-only', async ({ app: t, owner }) => {
    for (const status of ['VOID', 'COMPLETED']) {
      const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
      await setWorkflow(t, env.workflow.id, { status });
      const res = await save(t, env.aliceToken, env.document.id, [
        { id: env.fields[0].id, type: 'SIGNATURE', value: pngDataUrl() },
      ]);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('INVALID_WORKFLOW_STATUS');
      const sign = await t.request('POST', `/workflow/v1/${env.workflow.id}/sign`, {
        token: env.aliceToken,
        body: { id: env.fields[0].id, image: pngDataUrl() },
      });
      expect(sign.body.message).toBe('INVALID_WORKFLOW_STATUS');
      expect((await fieldRow(t, env.fields[0].id)).value).toBeNull();
    }
  });

  test('ORDERED: a recipient whose turn has not come cannot act; the owner who is no recipient cannot either', async ({
    app: t,
    owner,
  }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }], { sequence: 'ORDERED' });
    const early = await save(t, env.bobToken, env.document.id, [
      { id: env.bobSignature.id, type: 'SIGNATURE', value: pngDataUrl() },
    ]);
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    const byOwner = await save(t, owner.token, env.document.id, [
      { id: env.fields[0].id, type: 'SIGNATURE', value: pngDataUrl() },
    ]);
    expect(byOwner.status).toBe(400);
    expect(byOwner.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
  });

  test('a DRAFT (not self-signed) cannot be signed yet', async ({ app: t, owner }) => {
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const alice = await insertRecipient(t, workflow.id, {
      userId: (await createUser(t)).userId,
      name: 'Alice Signer',
      email: `a-${crypto.randomUUID()}@example.com`,
    });
    const field = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: alice.id,
      fieldType: 'SIGNATURE',
    });
    const res = await save(t, await guestToken(t, alice), document.id, [
      { id: field.id, type: 'SIGNATURE', value: pngDataUrl() },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_WORKFLOW_STATUS');
  });

  test('an identity-enforced recipient must pass the one-time code first', async ({ app: t, owner }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    await setRecipient(t, env.alice.id, { enforceIdentity: true });
    const res = await save(t, env.aliceToken, env.document.id, [
      { id: env.fields[0].id, type: 'SIGNATURE', value: pngDataUrl() },
    ]);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('IDENTITY_NOT_VERIFIED');
  });

  test('/sign takes only SIGNATURE and INITIALS fields', async ({ app: t, owner }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'TEXT' }, { fieldType: 'INITIALS' }]);
    const onText = await t.request('POST', `/workflow/v1/${env.workflow.id}/sign`, {
      token: env.aliceToken,
      body: { id: env.fields[0].id, image: pngDataUrl() },
    });
    expect(onText.status).toBe(400);
    expect(onText.body.message).toBe('INVALID_FIELD');
    const empty = await t.request('POST', `/workflow/v1/${env.workflow.id}/sign`, {
      token: env.aliceToken,
      body: { id: env.fields[1].id, image: '' },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('REQUIRED_FIELD_EMPTY');
    const ok = await t.request('POST', `/workflow/v1/${env.workflow.id}/sign`, {
      token: env.aliceToken,
      body: { id: env.fields[1].id, image: pngDataUrl() },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      recipientStatus: 'SIGNED',
      workflowStatus: 'SENT',
      savedFieldIds: [env.fields[1].id],
    });
  });

  test('approve: refused to a SIGNER; an APPROVER approves with a comment', async ({ app: t, owner }) => {
    const env = await sentEnvelope(t, owner, [{ fieldType: 'SIGNATURE' }]);
    const bySigner = await t.request('POST', `/workflow/v1/${env.workflow.id}/approve`, {
      token: env.aliceToken,
      body: { comment: 'fine' },
    });
    expect(bySigner.status).toBe(400);
    expect(bySigner.body.message).toBe('OPERATION_IS_NOT_ALLOWED');

    const approverUser = await createUser(t, { name: 'Paul Approver' });
    const approver = await insertRecipient(t, env.workflow.id, {
      userId: approverUser.userId,
      name: 'Paul Approver',
      email: approverUser.email,
      role: 'APPROVER',
      recipientOrder: 3,
    });
    const required = await insertField(t, {
      workflowId: env.workflow.id,
      documentId: env.document.id,
      recipientId: approver.id,
      fieldType: 'TEXT',
      fieldRequired: true,
    });
    await markSent(t, env.workflow.id, [approver.id]);
    const early = await t.request('POST', `/workflow/v1/${env.workflow.id}/approve`, {
      token: approverUser.token,
      body: {},
    });
    expect(early.status).toBe(400);
    expect(early.body.message).toBe('REQUIRED_FIELD_EMPTY');
    await save(t, approverUser.token, env.document.id, [{ id: required.id, type: 'TEXT', value: 'checked' }]);
    expect((await recipientRow(t, approver.id)).status).toBe('SENT');
    const res = await t.request('POST', `/workflow/v1/${env.workflow.id}/approve`, {
      token: approverUser.token,
      body: { comment: '  Looks right.  ' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ recipientId: approver.id, recipientStatus: 'APPROVED', workflowStatus: 'SENT' });
    const approved = (
      await t.platform.db.select().from(activities).where(eq(activities.workflowId, env.workflow.id))
    ).find((a) => a.kind === 'APPROVED')!;
    expect(approved.action).toBe('Approved');
    expect(approved.sentence).toContain('Looks right.');
    expect(approved.userName).toBe('Paul Approver');
    const twice = await t.request('POST', `/workflow/v1/${env.workflow.id}/approve`, {
      token: approverUser.token,
      body: {},
    });
    expect(twice.status).toBe(400);
    expect((await workflowRow(t, env.workflow.id)).status).toBe('SENT');
  });

  test('every ceremony route refuses a call without a token', async ({ app: t }) => {
    for (const url of ['/workflow/v1/1/fields/save', '/workflow/v1/1/sign', '/workflow/v1/1/approve']) {
      const res = await t.request('POST', url, { body: {} });
      expect(res.status).toBe(401);
    }
  });
});
