import { describe, expect } from 'vitest';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { addActivity, markSent, setRecipient, setWorkflow } from '../helpers/envelope-states.ts';

const test = base.override({ ownerName: 'Olivia Owner' }).extend<{ signer: TestUser; outsider: TestUser }>({
  signer: fileUser({ name: 'Sam Signer' }),
  outsider: fileUser({ name: 'Oscar Outsider' }),
});

const TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const history = (t: TestApp, id: number, token: string, query = '') =>
  t.request('GET', `/workflow/v1/${id}/history${query}`, { token });

/** The same instant written as Asia/Kolkata wall time (UTC+05:30, no daylight saving). */
function kolkata(date: Date): string {
  return new Date(date.getTime() + 330 * 60_000).toISOString().slice(0, 19).replace('T', ' ');
}

async function draftWithSigner(t: TestApp, owner: TestUser, signer: TestUser, name = 'Lease') {
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
    sentence: `${owner.name} created the envelope`,
    userId: owner.userId,
    userName: owner.name,
    status: 'DRAFT',
  });
  return { workflow, document, recipient };
}

describe('GET /workflow/v1/{id}/history', () => {
  test('gives the owner of a draft the metadata and a single Created row, dateSent empty', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow, document } = await draftWithSigner(t, owner, signer, 'Lease draft');
    await addActivity(t, {
      workflowId: workflow.id,
      kind: 'DOCUMENT_UPLOADED',
      action: 'Created',
      sentence: 'second upload',
      userId: owner.userId,
      userName: owner.name,
    });
    const created = new Date('2024-03-10T20:15:30.000Z');
    await setWorkflow(t, workflow.id, { timeZone: 'Asia/Kolkata', createdAt: created, statusAt: created });

    const res = await history(t, workflow.id, owner.token, '?locale=fr');
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual({
      workFlowName: 'Lease draft',
      workflowId: String(workflow.id),
      dateCreated: '2024-03-11 01:45:30',
      dateSent: '',
      statusDate: '2024-03-11 01:45:30',
      timeZone: 'Asia/Kolkata',
      documentName: [document.name],
      documentRecipients: [
        { documentName: document.name, recipients: [{ name: signer.name, email: signer.email, status: 'PENDING' }] },
      ],
      status: 'DRAFT',
      holder: owner.name,
      flowType: 'UNORDERED',
    });
    expect(res.body.activities).toHaveLength(1);
    expect(res.body.activities[0]).toMatchObject({
      action: 'Created',
      activity: `${owner.name} created the envelope`,
      userName: owner.name,
      consent: null,
    });
    expect(res.body.activities[0].time).toMatch(TIME);
  });

  test('lists activities oldest first in the workflow time zone, with channel, IP and the consent object on its row only', async ({
    app: t,
    owner,
    signer,
  }) => {
    const { workflow, recipient } = await draftWithSigner(t, owner, signer);
    await setWorkflow(t, workflow.id, { timeZone: 'Asia/Kolkata GMT+05:30' });
    await markSent(t, workflow.id, [recipient.id]);
    await addActivity(t, {
      workflowId: workflow.id,
      kind: 'WORKFLOW_SENT',
      action: 'Sent',
      sentence: 'Olivia Owner sent the envelope',
      userId: owner.userId,
      userName: owner.name,
      status: 'SENT',
      context: { ipAddress: '203.0.113.7', accessChannel: 'web', userAgent: 'Firefox' },
    });
    const consent = {
      recipientName: signer.name,
      recipientEmail: signer.email,
      ipAddress: '198.51.100.2',
      accessChannel: 'mobile',
      source: 'fields/save',
      evidence: 'checkbox',
      textHash: 'ab'.repeat(32),
      text: 'I agree to sign electronically.',
      userAgent: 'okhttp/4.9',
    };
    await addActivity(t, {
      workflowId: workflow.id,
      kind: 'CONSENT_ACCEPTED',
      action: 'Consent accepted',
      sentence: 'Sam Signer accepted the electronic-signature disclosure',
      userId: signer.userId,
      userName: signer.name,
      recipientId: recipient.id,
      consent,
      context: { ipAddress: '198.51.100.2', accessChannel: 'mobile', userAgent: 'okhttp/4.9' },
    });
    const signed = await addActivity(t, {
      workflowId: workflow.id,
      kind: 'SIGNED',
      action: 'Signed',
      sentence: 'Sam Signer signed',
      userId: signer.userId,
      userName: signer.name,
      recipientId: recipient.id,
      status: 'SIGNED',
      context: { ipAddress: '198.51.100.2', accessChannel: 'mobile' },
    });

    const res = await history(t, workflow.id, owner.token);
    expect(res.status).toBe(200);
    expect(res.body.metadata.timeZone).toBe('Asia/Kolkata');
    expect(res.body.activities.map((a: any) => a.action)).toEqual(['Created', 'Sent', 'Consent accepted', 'Signed']);
    expect(res.body.activities[1]).toMatchObject({
      ipAddress: '203.0.113.7',
      accessChannel: 'web',
      status: 'SENT',
      consent: null,
    });
    expect(res.body.activities[2].consent).toEqual(consent);
    expect(res.body.activities[3]).toMatchObject({ accessChannel: 'mobile', userName: signer.name, consent: null });
    expect(res.body.activities[3].time).toBe(kolkata(signed.createdAt));
    expect(res.body.metadata.dateSent).toMatch(TIME);
  });

  test('names the dispatched, unfinished recipients as holder while SENT and nobody once finished', async ({
    app: t,
    owner,
    signer,
    outsider,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
    const first = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'First Signer',
      email: signer.email,
      recipientOrder: 1,
    });
    const second = await insertRecipient(t, workflow.id, {
      userId: outsider.userId,
      name: 'Second Signer',
      email: outsider.email,
      recipientOrder: 2,
    });
    await markSent(t, workflow.id, [first.id]);
    expect((await history(t, workflow.id, owner.token)).body.metadata).toMatchObject({
      holder: 'First Signer',
      flowType: 'ORDERED',
      status: 'SENT',
    });

    await setRecipient(t, first.id, { status: 'SIGNED', actedAt: new Date() });
    await setRecipient(t, second.id, { status: 'SENT', dispatchedAt: new Date() });
    const res = await history(t, workflow.id, owner.token);
    expect(res.body.metadata.holder).toBe('Second Signer');
    expect(res.body.metadata.documentRecipients[0].recipients.map((r: any) => [r.name, r.status])).toEqual([
      ['First Signer', 'SIGNED'],
      ['Second Signer', 'SENT'],
    ]);

    await setRecipient(t, second.id, { status: 'SIGNED', actedAt: new Date() });
    await setWorkflow(t, workflow.id, { status: 'COMPLETED', completedAt: new Date() });
    expect((await history(t, workflow.id, owner.token)).body.metadata.holder).toBe('');
  });

  test('omits hidden assistant rows and their routing activities', async ({ app: t, owner, signer }) => {
    const { workflow, recipient } = await draftWithSigner(t, owner, signer);
    const assistant = await createUser(t, { name: 'Ann Assistant' });
    const hidden = await insertRecipient(t, workflow.id, {
      userId: assistant.userId,
      name: 'Ann Assistant',
      email: assistant.email,
    });
    await setRecipient(t, hidden.id, { isHidden: true });
    await markSent(t, workflow.id, [recipient.id, hidden.id]);
    await addActivity(t, {
      workflowId: workflow.id,
      kind: 'ASSISTANT_ROUTED',
      action: 'Routed',
      sentence: 'routed to the assistant',
      recipientId: hidden.id,
      userName: 'Ann Assistant',
    });
    await addActivity(t, {
      workflowId: workflow.id,
      kind: 'DOCUMENT_OPENED',
      action: 'Opened',
      sentence: 'opened by the assistant row',
      recipientId: hidden.id,
      userName: 'Ann Assistant',
    });
    await addActivity(t, {
      workflowId: workflow.id,
      kind: 'SIGNED',
      action: 'Signed',
      sentence: 'Sam Signer signed',
      recipientId: recipient.id,
      userName: signer.name,
    });

    const res = await history(t, workflow.id, owner.token);
    expect(res.body.activities.map((a: any) => a.activity)).toEqual([
      `${owner.name} created the envelope`,
      'Sam Signer signed',
    ]);
    expect(JSON.stringify(res.body.metadata)).not.toContain('Ann Assistant');
    expect(res.body.metadata.holder).toBe(signer.name);
  });

  describe('access', () => {
    test('refuses a recipient while DRAFT with OPERATION_IS_NOT_ALLOWED and lets them read once sent', async ({
      app: t,
      owner,
      signer,
    }) => {
      const { workflow, recipient } = await draftWithSigner(t, owner, signer);
      const draftRes = await history(t, workflow.id, signer.token);
      expect(draftRes.status).toBe(400);
      expect(draftRes.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
      const guest = await guestToken(t, recipient);
      expect((await history(t, workflow.id, guest)).body.message).toBe('OPERATION_IS_NOT_ALLOWED');

      await markSent(t, workflow.id, [recipient.id]);
      expect((await history(t, workflow.id, signer.token)).status).toBe(200);
      expect((await history(t, workflow.id, guest)).status).toBe(200);
    });

    test('answers 404 to outsiders, to a guest token of another workflow, and for unknown or deleted workflows', async ({
      app: t,
      owner,
      signer,
      outsider,
    }) => {
      const { workflow, recipient } = await draftWithSigner(t, owner, signer);
      await markSent(t, workflow.id, [recipient.id]);
      expect((await history(t, workflow.id, outsider.token)).status).toBe(404);
      const other = await draftWithSigner(t, owner, signer);
      const otherGuest = await guestToken(t, other.recipient);
      expect((await history(t, workflow.id, otherGuest)).status).toBe(404);
      expect((await history(t, 2_000_000, owner.token)).status).toBe(404);
      await setWorkflow(t, workflow.id, { deletedAt: new Date() });
      expect((await history(t, workflow.id, owner.token)).status).toBe(404);
    });

    test('gives INVALID_WORKFLOW_OWNER to anyone but the owner of a SELF workflow', async ({
      app: t,
      owner,
      signer,
      outsider,
    }) => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
      expect((await history(t, workflow.id, owner.token)).status).toBe(200);
      const res = await history(t, workflow.id, outsider.token);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('INVALID_WORKFLOW_OWNER');
      await setWorkflow(t, workflow.id, { status: 'COMPLETED' });
      expect((await history(t, workflow.id, signer.token)).body.message).toBe('INVALID_WORKFLOW_OWNER');
    });

    test('rejects a malformed id with 400 and no token with 401', async ({ app: t, owner }) => {
      expect((await history(t, 0, owner.token)).status).toBe(400);
      expect((await t.request('GET', '/workflow/v1/abc/history', { token: owner.token })).status).toBe(400);
      expect((await t.request('GET', '/workflow/v1/1/history')).status).toBe(401);
    });
  });
});
