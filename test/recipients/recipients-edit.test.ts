import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import {
  createDraftWorkflow,
  createUser,
  guestToken,
  insertField,
  insertRecipient,
  type TestUser,
} from '../helpers/factories.ts';
import { markSent, setWorkflow } from '../helpers/envelope-states.ts';
import { addRecipients, recipientEntry, storedFields, storedRecipients, userByEmail } from '../helpers/recipients.ts';
import { verifyPassword } from '../../src/platform/auth/passwords.ts';

async function put(t: TestApp, owner: TestUser, workflowId: number, body: unknown, token = owner.token) {
  return t.request('PUT', `/workflow/v1/${workflowId}/recipients`, { token, body });
}

async function del(t: TestApp, owner: TestUser, workflowId: number, recipientId: number, token = owner.token) {
  return t.request('DELETE', `/workflow/v1/${workflowId}/recipients/${recipientId}`, { token });
}

/** Expects a 4xx with the given error identifier and that the workflow's recipient rows did not change. */
async function expectPutRejected(
  t: TestApp,
  owner: TestUser,
  workflowId: number,
  body: unknown,
  status: number,
  message: string,
  token = owner.token,
) {
  const before = await storedRecipients(t, workflowId);
  const res = await put(t, owner, workflowId, body, token);
  expect(res.status, res.raw).toBe(status);
  expect(res.body.message).toBe(message);
  expect(await storedRecipients(t, workflowId)).toEqual(before);
  return res;
}

describe('updating recipients', () => {
  test('replaces the attributes of each named recipient and answers them in request order', async ({
    app: t,
    owner,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const [a, b] = await addRecipients(t, owner.token, workflow.id, [
      recipientEntry({ name: 'First Person' }),
      recipientEntry({ name: 'Second Person' }),
    ]);
    const res = await put(t, owner, workflow.id, [
      {
        ...recipientEntry({
          name: 'Second Renamed',
          emailAddress: b.emailAddress,
          recipientRole: 'APPROVER',
          recipientColor: '#000000',
          enforceIdentity: true,
        }),
        id: b.id,
      },
      {
        ...recipientEntry({
          name: 'First Person',
          emailAddress: a.emailAddress,
          recipientRole: '',
          useDigitalCert: true,
        }),
        id: a.id,
      },
    ]);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.map((r: any) => r.id)).toEqual([b.id, a.id]);
    expect(res.body[0]).toMatchObject({
      name: 'Second Renamed',
      recipientRole: 'APPROVER',
      recipientColor: '#000000',
      enforceIdentity: true,
      status: 'PENDING',
    });
    expect(res.body[1]).toMatchObject({ recipientRole: 'SIGNER', useDigitalCert: true, enforceIdentity: false });
  });

  test('moves a row to the user holding a changed email, creating a guest user when none does', async ({
    app: t,
    owner,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const [row] = await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
    const res = await put(t, owner, workflow.id, [
      { ...recipientEntry({ emailAddress: 'New.Address@Example.com' }), id: row.id },
    ]);
    expect(res.body[0].emailAddress).toBe('new.address@example.com');
    const guest = await userByEmail(t, 'new.address@example.com');
    expect(guest?.isGuest).toBe(true);
    const [stored] = await storedRecipients(t, workflow.id);
    expect(stored.userId).toBe(guest!.id);
  });

  test('keeps the password when omitted, replaces it when given, removes it when empty or null', async ({
    app: t,
    owner,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const [row] = await addRecipients(t, owner.token, workflow.id, [
      recipientEntry({ recipientPassword: 'first-secret' }),
    ]);
    const entry = { ...recipientEntry({ emailAddress: row.emailAddress }), id: row.id };
    const hashOf = async () => (await storedRecipients(t, workflow.id))[0].passwordHash;
    const original = await hashOf();
    await put(t, owner, workflow.id, [entry]);
    expect(await hashOf()).toBe(original);
    await put(t, owner, workflow.id, [{ ...entry, recipientPassword: 'second-secret' }]);
    expect(await verifyPassword((await hashOf())!, 'second-secret')).toBe(true);
    await put(t, owner, workflow.id, [{ ...entry, recipientPassword: '' }]);
    expect(await hashOf()).toBeNull();
    await put(t, owner, workflow.id, [{ ...entry, recipientPassword: 'third-secret' }]);
    await put(t, owner, workflow.id, [{ ...entry, recipientPassword: null }]);
    expect(await hashOf()).toBeNull();
  });

  test('applies the add rules to every entry, all or nothing', async ({ app: t, owner }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const [a, b] = await addRecipients(t, owner.token, workflow.id, [recipientEntry(), recipientEntry()]);
    const res = await expectPutRejected(
      t,
      owner,
      workflow.id,
      [
        { ...recipientEntry({ name: 'Valid Change', emailAddress: a.emailAddress }), id: a.id },
        { ...recipientEntry({ name: 'N'.repeat(51), emailAddress: b.emailAddress }), id: b.id },
      ],
      400,
      'RECIPIENT_NAME_INVALID',
    );
    expect(res.body.errorCode).toBe(11001);
    expect(res.body.responseBody).toEqual({ index: 1, field: 'name' });
    await expectPutRejected(
      t,
      owner,
      workflow.id,
      [{ ...recipientEntry({ recipientColor: 'blue' }), id: a.id }],
      400,
      'BAD_REQUEST_BODY',
    );
    await expectPutRejected(t, owner, workflow.id, [recipientEntry()], 400, 'BAD_REQUEST_BODY');
    await expectPutRejected(t, owner, workflow.id, [], 400, 'BAD_REQUEST_BODY');
  });

  test('refuses an id twice (INVALID_REQUEST_BODY) and an id of another workflow (404)', async ({ app: t, owner }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const other = await createDraftWorkflow(t, owner);
    const [a] = await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
    const [foreign] = await addRecipients(t, owner.token, other.workflow.id, [recipientEntry()]);
    await expectPutRejected(
      t,
      owner,
      workflow.id,
      [
        { ...recipientEntry(), id: a.id },
        { ...recipientEntry(), id: a.id },
      ],
      400,
      'INVALID_REQUEST_BODY',
    );
    await expectPutRejected(
      t,
      owner,
      workflow.id,
      [
        { ...recipientEntry(), id: a.id },
        { ...recipientEntry(), id: foreign.id },
      ],
      404,
      'NOT_FOUND',
    );
    expect((await storedRecipients(t, other.workflow.id))[0].name).toBe(foreign.name);
  });

  describe('under ORDERED', () => {
    test('lets two recipients swap orders in one call', async ({ app: t, owner }) => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
      const [a, b] = await addRecipients(t, owner.token, workflow.id, [
        recipientEntry({ recipientOrder: 1 }),
        recipientEntry({ recipientOrder: 2 }),
      ]);
      const res = await put(t, owner, workflow.id, [
        { ...recipientEntry({ emailAddress: a.emailAddress, recipientOrder: '2' }), id: a.id },
        { ...recipientEntry({ emailAddress: b.emailAddress, recipientOrder: 1 }), id: b.id },
      ]);
      expect(res.status, res.raw).toBe(200);
      expect(res.body.map((r: any) => r.recipientOrder)).toEqual(['2', '1']);
    });

    test('refuses an order or email that collides with a row left as it is, and a missing order', async ({
      app: t,
      owner,
    }) => {
      const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
      const [a, b] = await addRecipients(t, owner.token, workflow.id, [
        recipientEntry({ recipientOrder: 1 }),
        recipientEntry({ recipientOrder: 2 }),
      ]);
      await expectPutRejected(
        t,
        owner,
        workflow.id,
        [{ ...recipientEntry({ emailAddress: b.emailAddress, recipientOrder: 1 }), id: b.id }],
        400,
        'DUPLICATE_RECIPIENT',
      );
      await expectPutRejected(
        t,
        owner,
        workflow.id,
        [{ ...recipientEntry({ emailAddress: a.emailAddress.toUpperCase(), recipientOrder: 2 }), id: b.id }],
        400,
        'DUPLICATE_RECIPIENT',
      );
      await expectPutRejected(
        t,
        owner,
        workflow.id,
        [{ ...recipientEntry({ emailAddress: b.emailAddress }), id: b.id }],
        400,
        'INVALID_RECIPIENT',
      );
    });
  });

  test('lets the owner edit the SELF row but not its email or role', async ({ app: t, owner }) => {
    const { workflow, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const id = selfRecipient!.id;
    const ok = await put(t, owner, workflow.id, [
      {
        ...recipientEntry({
          name: 'Owner Renamed',
          emailAddress: owner.email.toUpperCase(),
          recipientColor: '#123456',
          useDigitalCert: true,
        }),
        id,
      },
    ]);
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body[0]).toMatchObject({
      name: 'Owner Renamed',
      emailAddress: owner.email,
      recipientColor: '#123456',
      useDigitalCert: true,
      recipientRole: 'SIGNER',
    });
    await expectPutRejected(t, owner, workflow.id, [{ ...recipientEntry(), id }], 400, 'OPERATION_IS_NOT_ALLOWED');
    await expectPutRejected(
      t,
      owner,
      workflow.id,
      [{ ...recipientEntry({ emailAddress: owner.email, recipientRole: 'APPROVER' }), id }],
      400,
      'OPERATION_IS_NOT_ALLOWED',
    );
  });

  test('refuses to make a recipient with fields CC, and allows it once the fields are gone', async ({
    app: t,
    owner,
  }) => {
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const [row] = await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
    const field = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: row.id,
      fieldType: 'TEXT',
    });
    const body = [{ ...recipientEntry({ emailAddress: row.emailAddress, recipientRole: 'CC' }), id: row.id }];
    const res = await expectPutRejected(t, owner, workflow.id, body, 400, 'INVALID_RECIPIENT');
    expect(res.body.responseBody).toEqual({ index: 0, field: 'recipientRole' });
    await t.request('DELETE', `/workflow/v1/${workflow.id}/fields/${field.id}`, { token: owner.token });
    expect((await put(t, owner, workflow.id, body)).body[0].recipientRole).toBe('CC');
  });

  test('refuses a non-SIGNER role on a Power Survey', async ({ app: t, owner }) => {
    const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'SURVEY' });
    const [row] = await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
    await expectPutRejected(
      t,
      owner,
      workflow.id,
      [{ ...recipientEntry({ emailAddress: row.emailAddress, recipientRole: 'CC' }), id: row.id }],
      400,
      'OPERATION_IS_NOT_ALLOWED',
    );
  });

  test('refuses a workflow that is not DRAFT, a recipient, a stranger and a signing-link token', async ({
    app: t,
    owner,
  }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const signer = await createUser(t);
    const row = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Signer Person',
      email: signer.email,
    });
    const body = [{ ...recipientEntry({ emailAddress: signer.email }), id: row.id }];
    await expectPutRejected(t, owner, workflow.id, body, 403, 'USER_NOT_HAVE_ACCESS', await guestToken(t, row));
    await expectPutRejected(t, owner, workflow.id, body, 404, 'NOT_FOUND', (await createUser(t)).token);
    await markSent(t, workflow.id, [row.id]);
    await expectPutRejected(t, owner, workflow.id, body, 400, 'INVALID_WORKFLOW_STATUS');
    await expectPutRejected(t, owner, workflow.id, body, 400, 'INVALID_WORKFLOW_OWNER', signer.token);
  });
});

describe('removing a recipient', () => {
  test('deletes the row and its fields, leaving other recipients and their fields', async ({ app: t, owner }) => {
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const [a, b] = await addRecipients(t, owner.token, workflow.id, [recipientEntry(), recipientEntry()]);
    await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: a.id,
      fieldType: 'SIGNATURE',
    });
    await insertField(t, { workflowId: workflow.id, documentId: document.id, recipientId: a.id, fieldType: 'TEXT' });
    const kept = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: b.id,
      fieldType: 'SIGNATURE',
    });
    const res = await del(t, owner, workflow.id, a.id);
    expect(res.status, res.raw).toBe(204);
    expect((await storedRecipients(t, workflow.id)).map((r) => r.id)).toEqual([b.id]);
    expect((await storedFields(t, workflow.id)).map((f) => f.id)).toEqual([kept.id]);
    expect(
      (await t.request('GET', `/workflow/v1/${workflow.id}/recipients/${a.id}`, { token: owner.token })).status,
    ).toBe(404);
  });

  test("refuses to remove the owner's row of a SELF workflow", async ({ app: t, owner }) => {
    const { workflow, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const res = await del(t, owner, workflow.id, selfRecipient!.id);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    expect(await storedRecipients(t, workflow.id)).toHaveLength(1);
  });

  test('answers 404 for a recipient of another workflow and leaves it', async ({ app: t, owner }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const other = await createDraftWorkflow(t, owner);
    const [foreign] = await addRecipients(t, owner.token, other.workflow.id, [recipientEntry()]);
    expect((await del(t, owner, workflow.id, foreign.id)).status).toBe(404);
    expect(await storedRecipients(t, other.workflow.id)).toHaveLength(1);
  });

  test('refuses a workflow that is not DRAFT, a recipient and a stranger', async ({ app: t, owner }) => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const signer = await createUser(t);
    const row = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Signer Person',
      email: signer.email,
    });
    expect((await del(t, owner, workflow.id, row.id, (await createUser(t)).token)).status).toBe(404);
    expect((await del(t, owner, workflow.id, row.id, await guestToken(t, row))).status).toBe(403);
    await markSent(t, workflow.id, [row.id]);
    const recipient = await del(t, owner, workflow.id, row.id, signer.token);
    expect(recipient.body.message).toBe('INVALID_WORKFLOW_OWNER');
    const sent = await del(t, owner, workflow.id, row.id);
    expect(sent.body.message).toBe('INVALID_WORKFLOW_STATUS');
    await setWorkflow(t, workflow.id, { status: 'VOID' });
    expect((await del(t, owner, workflow.id, row.id)).body.message).toBe('INVALID_WORKFLOW_STATUS');
    expect(await storedRecipients(t, workflow.id)).toHaveLength(1);
  });
});
