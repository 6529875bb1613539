import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, insertField, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent, setWorkflow } from '../helpers/envelope-states.ts';
import { addRecipients, recipientEntry, storedFields, storedRecipients, userByEmail } from '../helpers/recipients.ts';
import { verifyPassword } from '../../src/platform/auth/passwords.ts';

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Owner Person' });
});
afterAll(async () => { await t?.close(); });

async function put(workflowId: number, body: unknown, token = owner.token) {
  return t.request('PUT', `/workflow/v1/${workflowId}/recipients`, { token, body });
}

async function del(workflowId: number, recipientId: number, token = owner.token) {
  return t.request('DELETE', `/workflow/v1/${workflowId}/recipients/${recipientId}`, { token });
}

/** Expects a 4xx with the given error identifier and that the workflow's recipient rows did not change. */
async function expectPutRejected(workflowId: number, body: unknown, status: number, message: string, token = owner.token) {
  const before = await storedRecipients(t, workflowId);
  const res = await put(workflowId, body, token);
  expect(res.status, res.raw).toBe(status);
  expect(res.body.message).toBe(message);
  expect(await storedRecipients(t, workflowId)).toEqual(before);
  return res;
}

describe('updating recipients', () => {
  it('replaces the attributes of each named recipient and answers them in request order', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const [a, b] = await addRecipients(t, owner.token, workflow.id, [recipientEntry({ name: 'First Person' }), recipientEntry({ name: 'Second Person' })]);
    const res = await put(workflow.id, [
      { ...recipientEntry({ name: 'Second Renamed', emailAddress: b.emailAddress, recipientRole: 'APPROVER', recipientColor: '#000000', enforceIdentity: true }), id: b.id },
      { ...recipientEntry({ name: 'First Person', emailAddress: a.emailAddress, recipientRole: '', useDigitalCert: true }), id: a.id },
    ]);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.map((r: any) => r.id)).toEqual([b.id, a.id]);
    expect(res.body[0]).toMatchObject({ name: 'Second Renamed', recipientRole: 'APPROVER', recipientColor: '#000000', enforceIdentity: true, status: 'PENDING' });
    expect(res.body[1]).toMatchObject({ recipientRole: 'SIGNER', useDigitalCert: true, enforceIdentity: false });
  });

  it('moves a row to the user holding a changed email, creating a guest user when none does', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const [row] = await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
    const res = await put(workflow.id, [{ ...recipientEntry({ emailAddress: 'New.Address@Example.com' }), id: row.id }]);
    expect(res.body[0].emailAddress).toBe('new.address@example.com');
    const guest = await userByEmail(t, 'new.address@example.com');
    expect(guest?.isGuest).toBe(true);
    const [stored] = await storedRecipients(t, workflow.id);
    expect(stored.userId).toBe(guest!.id);
  });

  it('keeps the password when omitted, replaces it when given, removes it when empty or null', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const [row] = await addRecipients(t, owner.token, workflow.id, [recipientEntry({ recipientPassword: 'first-secret' })]);
    const entry = { ...recipientEntry({ emailAddress: row.emailAddress }), id: row.id };
    const hashOf = async () => (await storedRecipients(t, workflow.id))[0].passwordHash;
    const original = await hashOf();
    await put(workflow.id, [entry]);
    expect(await hashOf()).toBe(original);
    await put(workflow.id, [{ ...entry, recipientPassword: 'second-secret' }]);
    expect(await verifyPassword((await hashOf())!, 'second-secret')).toBe(true);
    await put(workflow.id, [{ ...entry, recipientPassword: '' }]);
    expect(await hashOf()).toBeNull();
    await put(workflow.id, [{ ...entry, recipientPassword: 'third-secret' }]);
    await put(workflow.id, [{ ...entry, recipientPassword: null }]);
    expect(await hashOf()).toBeNull();
  });

  it('applies the add rules to every entry, all or nothing', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const [a, b] = await addRecipients(t, owner.token, workflow.id, [recipientEntry(), recipientEntry()]);
    const res = await expectPutRejected(workflow.id, [
      { ...recipientEntry({ name: 'Valid Change', emailAddress: a.emailAddress }), id: a.id },
      { ...recipientEntry({ name: 'N'.repeat(51), emailAddress: b.emailAddress }), id: b.id },
    ], 400, 'RECIPIENT_NAME_INVALID');
    expect(res.body.errorCode).toBe(11001);
    expect(res.body.responseBody).toEqual({ index: 1, field: 'name' });
    await expectPutRejected(workflow.id, [{ ...recipientEntry({ recipientColor: 'blue' }), id: a.id }], 400, 'BAD_REQUEST_BODY');
    await expectPutRejected(workflow.id, [recipientEntry()], 400, 'BAD_REQUEST_BODY');
    await expectPutRejected(workflow.id, [], 400, 'BAD_REQUEST_BODY');
  });

  it('refuses an id twice (INVALID_REQUEST_BODY) and an id of another workflow (404)', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const other = await createDraftWorkflow(t, owner);
    const [a] = await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
    const [foreign] = await addRecipients(t, owner.token, other.workflow.id, [recipientEntry()]);
    await expectPutRejected(workflow.id, [{ ...recipientEntry(), id: a.id }, { ...recipientEntry(), id: a.id }], 400, 'INVALID_REQUEST_BODY');
    await expectPutRejected(workflow.id, [{ ...recipientEntry(), id: a.id }, { ...recipientEntry(), id: foreign.id }], 404, 'NOT_FOUND');
    expect((await storedRecipients(t, other.workflow.id))[0].name).toBe(foreign.name);
  });

  describe('under ORDERED', () => {
    it('lets two recipients swap orders in one call', async () => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
      const [a, b] = await addRecipients(t, owner.token, workflow.id, [recipientEntry({ recipientOrder: 1 }), recipientEntry({ recipientOrder: 2 })]);
      const res = await put(workflow.id, [
        { ...recipientEntry({ emailAddress: a.emailAddress, recipientOrder: '2' }), id: a.id },
        { ...recipientEntry({ emailAddress: b.emailAddress, recipientOrder: 1 }), id: b.id },
      ]);
      expect(res.status, res.raw).toBe(200);
      expect(res.body.map((r: any) => r.recipientOrder)).toEqual(['2', '1']);
    });

    it('refuses an order or email that collides with a row left as it is, and a missing order', async () => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
      const [a, b] = await addRecipients(t, owner.token, workflow.id, [recipientEntry({ recipientOrder: 1 }), recipientEntry({ recipientOrder: 2 })]);
      await expectPutRejected(workflow.id, [{ ...recipientEntry({ emailAddress: b.emailAddress, recipientOrder: 1 }), id: b.id }], 400, 'DUPLICATE_RECIPIENT');
      await expectPutRejected(workflow.id, [{ ...recipientEntry({ emailAddress: a.emailAddress.toUpperCase(), recipientOrder: 2 }), id: b.id }], 400, 'DUPLICATE_RECIPIENT');
      await expectPutRejected(workflow.id, [{ ...recipientEntry({ emailAddress: b.emailAddress }), id: b.id }], 400, 'INVALID_RECIPIENT');
    });
  });

  it('lets the owner edit the SELF row but not its email or role', async () => {
    const { workflow, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const id = selfRecipient!.id;
    const ok = await put(workflow.id, [{ ...recipientEntry({ name: 'Owner Renamed', emailAddress: owner.email.toUpperCase(), recipientColor: '#123456', useDigitalCert: true }), id }]);
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body[0]).toMatchObject({ name: 'Owner Renamed', emailAddress: owner.email, recipientColor: '#123456', useDigitalCert: true, recipientRole: 'SIGNER' });
    await expectPutRejected(workflow.id, [{ ...recipientEntry(), id }], 400, 'OPERATION_IS_NOT_ALLOWED');
    await expectPutRejected(workflow.id, [{ ...recipientEntry({ emailAddress: owner.email, recipientRole: 'APPROVER' }), id }], 400, 'OPERATION_IS_NOT_ALLOWED');
  });

  it('refuses to make a recipient with fields CC, and allows it once the fields are gone', async () => {
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const [row] = await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
    const field = await insertField(t, { workflowId: workflow.id, documentId: document.id, recipientId: row.id, fieldType: 'TEXT' });
    const body = [{ ...recipientEntry({ emailAddress: row.emailAddress, recipientRole: 'CC' }), id: row.id }];
    const res = await expectPutRejected(workflow.id, body, 400, 'INVALID_RECIPIENT');
    expect(res.body.responseBody).toEqual({ index: 0, field: 'recipientRole' });
    await t.request('DELETE', `/workflow/v1/${workflow.id}/fields/${field.id}`, { token: owner.token });
    expect((await put(workflow.id, body)).body[0].recipientRole).toBe('CC');
  });

  it('refuses a non-SIGNER role on a Power Survey', async () => {
    const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'SURVEY' });
    const [row] = await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
    await expectPutRejected(workflow.id, [{ ...recipientEntry({ emailAddress: row.emailAddress, recipientRole: 'CC' }), id: row.id }], 400, 'OPERATION_IS_NOT_ALLOWED');
  });

  it('refuses a workflow that is not DRAFT, a recipient, a stranger and a signing-link token', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const signer = await createUser(t);
    const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Signer Person', email: signer.email });
    const body = [{ ...recipientEntry({ emailAddress: signer.email }), id: row.id }];
    await expectPutRejected(workflow.id, body, 403, 'USER_NOT_HAVE_ACCESS', await guestToken(t, row));
    await expectPutRejected(workflow.id, body, 404, 'NOT_FOUND', (await createUser(t)).token);
    await markSent(t, workflow.id, [row.id]);
    await expectPutRejected(workflow.id, body, 400, 'INVALID_WORKFLOW_STATUS');
    await expectPutRejected(workflow.id, body, 400, 'INVALID_WORKFLOW_OWNER', signer.token);
  });
});

describe('removing a recipient', () => {
  it('deletes the row and its fields, leaving other recipients and their fields', async () => {
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const [a, b] = await addRecipients(t, owner.token, workflow.id, [recipientEntry(), recipientEntry()]);
    await insertField(t, { workflowId: workflow.id, documentId: document.id, recipientId: a.id, fieldType: 'SIGNATURE' });
    await insertField(t, { workflowId: workflow.id, documentId: document.id, recipientId: a.id, fieldType: 'TEXT' });
    const kept = await insertField(t, { workflowId: workflow.id, documentId: document.id, recipientId: b.id, fieldType: 'SIGNATURE' });
    const res = await del(workflow.id, a.id);
    expect(res.status, res.raw).toBe(204);
    expect((await storedRecipients(t, workflow.id)).map((r) => r.id)).toEqual([b.id]);
    expect((await storedFields(t, workflow.id)).map((f) => f.id)).toEqual([kept.id]);
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/recipients/${a.id}`, { token: owner.token })).status).toBe(404);
  });

  it('refuses to remove the owner\'s row of a SELF workflow', async () => {
    const { workflow, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const res = await del(workflow.id, selfRecipient!.id);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    expect(await storedRecipients(t, workflow.id)).toHaveLength(1);
  });

  it('answers 404 for a recipient of another workflow and leaves it', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const other = await createDraftWorkflow(t, owner);
    const [foreign] = await addRecipients(t, owner.token, other.workflow.id, [recipientEntry()]);
    expect((await del(workflow.id, foreign.id)).status).toBe(404);
    expect(await storedRecipients(t, other.workflow.id)).toHaveLength(1);
  });

  it('refuses a workflow that is not DRAFT, a recipient and a stranger', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const signer = await createUser(t);
    const row = await insertRecipient(t, workflow.id, { userId: signer.userId, name: 'Signer Person', email: signer.email });
    expect((await del(workflow.id, row.id, (await createUser(t)).token)).status).toBe(404);
    expect((await del(workflow.id, row.id, await guestToken(t, row))).status).toBe(403);
    await markSent(t, workflow.id, [row.id]);
    const recipient = await del(workflow.id, row.id, signer.token);
    expect(recipient.body.message).toBe('INVALID_WORKFLOW_OWNER');
    const sent = await del(workflow.id, row.id);
    expect(sent.body.message).toBe('INVALID_WORKFLOW_STATUS');
    await setWorkflow(t, workflow.id, { status: 'VOID' });
    expect((await del(workflow.id, row.id)).body.message).toBe('INVALID_WORKFLOW_STATUS');
    expect(await storedRecipients(t, workflow.id)).toHaveLength(1);
  });
});
