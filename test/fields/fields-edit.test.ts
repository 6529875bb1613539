import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent, setWorkflow } from '../helpers/envelope-states.ts';
import {
  addDocument,
  addField,
  addRecipients,
  fieldEntry,
  recipientEntry,
  storedFields,
} from '../helpers/recipients.ts';
import { fields } from '../../src/platform/db/schema/index.ts';

async function setup(t: TestApp, owner: TestUser, sequence: 'UNORDERED' | 'SURVEY' | 'SELF' = 'UNORDERED') {
  const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence, pages: 2 });
  const [signer] = selfRecipient
    ? [selfRecipient]
    : await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
  return { workflow, document, signer };
}

const put = (t: TestApp, owner: TestUser, documentId: number, fieldId: number, body: unknown, token = owner.token) =>
  t.request('PUT', `/workflow/v1/${documentId}/fields/${fieldId}`, { token, body });
const patch = (t: TestApp, owner: TestUser, documentId: number, fieldId: number, body: unknown, token = owner.token) =>
  t.request('PATCH', `/workflow/v1/${documentId}/fields/${fieldId}/required`, { token, body });
const del = (t: TestApp, owner: TestUser, workflowId: number, fieldId: number, token = owner.token) =>
  t.request('DELETE', `/workflow/v1/${workflowId}/fields/${fieldId}`, { token });
const getOne = (t: TestApp, owner: TestUser, workflowId: number, fieldId: number, token = owner.token) =>
  t.request('GET', `/workflow/v1/${workflowId}/fields/${fieldId}`, { token });

async function expectUnchanged(
  t: TestApp,
  workflowId: number,
  call: () => Promise<{ status: number; body: any; raw: string }>,
  status: number,
  message: string,
) {
  const before = await storedFields(t, workflowId);
  const res = await call();
  expect(res.status, res.raw).toBe(status);
  expect(res.body.message).toBe(message);
  expect(await storedFields(t, workflowId)).toEqual(before);
  return res;
}

describe('updating a field (PUT)', () => {
  test('replaces placement, type and styling; members left out keep their value, null clears', async ({
    app: t,
    owner,
  }) => {
    const { document, signer } = await setup(t, owner);
    const field = await addField(
      t,
      owner.token,
      document.id,
      fieldEntry(signer.id, { label: 'Company', fieldRequired: true, styling: { bold: true } }),
    );
    const moved = await put(t, owner, document.id, field.id, {
      pageNo: 2,
      box: { x: 10, y: 20, width: 30, height: 40 },
      fieldType: 'NAME',
      styling: { textAlign: 'right', fontSize: 9 },
    });
    expect(moved.status, moved.raw).toBe(200);
    expect(moved.body).toMatchObject({
      id: field.id,
      recipientId: signer.id,
      pageNo: 2,
      box: { x: 10, y: 20, width: 30, height: 40 },
      fieldType: 'NAME',
      fieldRequired: true,
      label: 'Company',
      styling: { textAlign: 'right', fontSize: 9 },
    });
    const cleared = await put(t, owner, document.id, field.id, {
      ...fieldEntry(signer.id),
      label: null,
      styling: null,
      fieldRequired: false,
    });
    expect(cleared.body).toMatchObject({ fieldType: 'TEXT', label: null, styling: null, fieldRequired: false });
  });

  test('applies the create rules and changes nothing when one is broken', async ({ app: t, owner }) => {
    const { workflow, document, signer } = await setup(t, owner);
    const other = await setup(t, owner);
    const field = await addField(t, owner.token, document.id, fieldEntry(signer.id));
    const cases: [unknown, string][] = [
      [fieldEntry(signer.id, { pageNo: 3 }), 'INVALID_FIELD'],
      [fieldEntry(signer.id, { box: { x: 72, y: 72, width: 541, height: 40 } }), 'INVALID_FIELD'],
      [fieldEntry(other.signer.id), 'INVALID_FIELD'],
      [fieldEntry(null), 'INVALID_FIELD'],
      [fieldEntry(signer.id, { fieldType: 'DROPDOWN' }), 'INVALID_FIELD'],
      [fieldEntry(signer.id, { styling: { colour: '#000000' } }), 'BAD_REQUEST_BODY'],
      [fieldEntry(signer.id, { box: undefined }), 'BAD_REQUEST_BODY'],
    ];
    for (const [body, message] of cases)
      await expectUnchanged(t, workflow.id, () => put(t, owner, document.id, field.id, body), 400, message);
  });

  test('answers 404 for a field on another document, even of the same workflow', async ({ app: t, owner }) => {
    const { workflow, document, signer } = await setup(t, owner);
    const second = await addDocument(t, workflow.id, [{ width: 612, height: 792, rotation: 0 }]);
    const field = await addField(t, owner.token, document.id, fieldEntry(signer.id));
    await expectUnchanged(
      t,
      workflow.id,
      () => put(t, owner, second.id, field.id, fieldEntry(signer.id)),
      404,
      'NOT_FOUND',
    );
    await expectUnchanged(
      t,
      workflow.id,
      () => put(t, owner, 2147483000, field.id, fieldEntry(signer.id)),
      404,
      'NOT_FOUND',
    );
  });

  test('clears a saved value when the type changes, and keeps it otherwise', async ({ app: t, owner }) => {
    const { workflow, document, signer } = await setup(t, owner, 'SELF');
    const field = await addField(t, owner.token, document.id, fieldEntry(signer.id, { fieldType: 'TEXT' }));
    await t.platform.db.update(fields).set({ value: 'filled in', filledAt: new Date() }).where(eq(fields.id, field.id));
    expect(
      (await put(t, owner, document.id, field.id, fieldEntry(signer.id, { fieldType: 'TEXT', pageNo: 2 }))).body.value,
    ).toBe('filled in');
    expect(
      (await put(t, owner, document.id, field.id, fieldEntry(signer.id, { fieldType: 'NUMBER' }))).body.value,
    ).toBeNull();
    const [stored] = await storedFields(t, workflow.id);
    expect(stored.filledAt).toBeNull();
  });

  test('unassigns a Power Survey field with recipientId null and keeps the assignment when it is left out', async ({
    app: t,
    owner,
  }) => {
    const { document, signer } = await setup(t, owner, 'SURVEY');
    const field = await addField(t, owner.token, document.id, fieldEntry(signer.id, { fieldType: 'SIGNATURE' }));
    expect(
      (await put(t, owner, document.id, field.id, fieldEntry(null, { recipientId: undefined, fieldType: 'SIGNATURE' })))
        .body.recipientId,
    ).toBe(signer.id);
    expect(
      (await put(t, owner, document.id, field.id, fieldEntry(null, { fieldType: 'SIGNATURE' }))).body.recipientId,
    ).toBeNull();
  });

  describe('signatureAssetId (SPEC.md rule 2: null, zero and negative leave the stored link unchanged)', () => {
    test('keeps the link for null, 0, negative and an omitted value, and replaces it with a positive one', async ({
      app: t,
      owner,
    }) => {
      // On a SELF workflow the owner is the signer, so the owner's reads show the link.
      const { workflow, document, signer } = await setup(t, owner, 'SELF');
      const field = await addField(
        t,
        owner.token,
        document.id,
        fieldEntry(signer.id, { fieldType: 'SIGNATURE', signatureAssetId: 7 }),
      );
      expect(field.signatureAssetId).toBe(7);
      for (const signatureAssetId of [null, 0, -3, undefined]) {
        const res = await put(
          t,
          owner,
          document.id,
          field.id,
          fieldEntry(signer.id, { fieldType: 'SIGNATURE', signatureAssetId }),
        );
        expect(res.body.signatureAssetId, `after ${signatureAssetId}`).toBe(7);
      }
      expect(
        (
          await put(
            t,
            owner,
            document.id,
            field.id,
            fieldEntry(signer.id, { fieldType: 'SIGNATURE', signatureAssetId: 9 }),
          )
        ).body.signatureAssetId,
      ).toBe(9);
      expect((await getOne(t, owner, workflow.id, field.id)).body.signatureAssetId).toBe(9);
      expect((await patch(t, owner, document.id, field.id, { fieldRequired: true })).body.signatureAssetId).toBe(9);
    });

    test('drops the link when the type changes to one that takes no library entry', async ({ app: t, owner }) => {
      const { workflow, document, signer } = await setup(t, owner, 'SELF');
      const field = await addField(
        t,
        owner.token,
        document.id,
        fieldEntry(signer.id, { fieldType: 'INITIALS', signatureAssetId: 4 }),
      );
      await put(t, owner, document.id, field.id, fieldEntry(signer.id, { fieldType: 'TEXT' }));
      expect((await storedFields(t, workflow.id))[0].signatureAssetId).toBeNull();
      await expectUnchanged(
        t,
        workflow.id,
        () => put(t, owner, document.id, field.id, fieldEntry(signer.id, { fieldType: 'TEXT', signatureAssetId: 4 })),
        400,
        'INVALID_FIELD',
      );
    });

    test('keeps the link on a field of another signer while the owner reads null', async ({ app: t, owner }) => {
      const { workflow, document, signer } = await setup(t, owner);
      const field = await addField(
        t,
        owner.token,
        document.id,
        fieldEntry(signer.id, { fieldType: 'STAMP', signatureAssetId: 12 }),
      );
      expect(field.signatureAssetId).toBeNull();
      const res = await put(
        t,
        owner,
        document.id,
        field.id,
        fieldEntry(signer.id, { fieldType: 'STAMP', signatureAssetId: 0 }),
      );
      expect(res.body.signatureAssetId).toBeNull();
      expect((await storedFields(t, workflow.id))[0].signatureAssetId).toBe(12);
    });
  });
});

describe('setting required (PATCH .../required)', () => {
  test('changes fieldRequired and styling and nothing else', async ({ app: t, owner }) => {
    const { document, signer } = await setup(t, owner);
    const field = await addField(
      t,
      owner.token,
      document.id,
      fieldEntry(signer.id, { label: 'Keep me', styling: { italic: true } }),
    );
    const res = await patch(t, owner, document.id, field.id, {
      fieldRequired: true,
      pageNo: 2,
      label: 'ignored',
      box: { x: 1, y: 1, width: 1, height: 1 },
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toEqual({ ...field, fieldRequired: true });
    const styled = await patch(t, owner, document.id, field.id, {
      fieldRequired: false,
      styling: { underline: true, textColor: '#ABCDEF' },
    });
    expect(styled.body).toEqual({ ...field, fieldRequired: false, styling: { underline: true, textColor: '#ABCDEF' } });
    expect(
      (await patch(t, owner, document.id, field.id, { fieldRequired: false, styling: null })).body.styling,
    ).toBeNull();
  });

  test('refuses a missing or non-boolean fieldRequired and bad styling', async ({ app: t, owner }) => {
    const { workflow, document, signer } = await setup(t, owner);
    const field = await addField(t, owner.token, document.id, fieldEntry(signer.id));
    for (const body of [
      {},
      { fieldRequired: 'true' },
      { fieldRequired: true, styling: { fontSize: 100 } },
      { fieldRequired: true, styling: { shadow: true } },
    ]) {
      await expectUnchanged(
        t,
        workflow.id,
        () => patch(t, owner, document.id, field.id, body),
        400,
        'BAD_REQUEST_BODY',
      );
    }
  });
});

describe('removing a field', () => {
  test('deletes the field and answers 204', async ({ app: t, owner }) => {
    const { workflow, document, signer } = await setup(t, owner);
    const field = await addField(t, owner.token, document.id, fieldEntry(signer.id));
    const kept = await addField(t, owner.token, document.id, fieldEntry(signer.id));
    const res = await del(t, owner, workflow.id, field.id);
    expect(res.status).toBe(204);
    expect((await storedFields(t, workflow.id)).map((f) => f.id)).toEqual([kept.id]);
    expect((await getOne(t, owner, workflow.id, field.id)).status).toBe(404);
  });

  test('answers 404 for a field of another workflow', async ({ app: t, owner }) => {
    const mine = await setup(t, owner);
    const other = await setup(t, owner);
    const field = await addField(t, owner.token, other.document.id, fieldEntry(other.signer.id));
    await expectUnchanged(t, other.workflow.id, () => del(t, owner, mine.workflow.id, field.id), 404, 'NOT_FOUND');
  });
});

describe('who may change fields', () => {
  test('refuses every write on a workflow that is not DRAFT, to a recipient, a stranger and a signing-link token', async ({
    app: t,
    owner,
  }) => {
    const { workflow, document, signer } = await setup(t, owner);
    const field = await addField(t, owner.token, document.id, fieldEntry(signer.id));
    const member = await createUser(t);
    const row = await insertRecipient(t, workflow.id, {
      userId: member.userId,
      name: 'Member Person',
      email: member.email,
    });
    const writes = (token?: string) => [
      () => put(t, owner, document.id, field.id, fieldEntry(signer.id, { pageNo: 2 }), token),
      () => patch(t, owner, document.id, field.id, { fieldRequired: true }, token),
      () => del(t, owner, workflow.id, field.id, token),
    ];
    const stranger = await createUser(t);
    for (const call of writes(stranger.token)) await expectUnchanged(t, workflow.id, call, 404, 'NOT_FOUND');
    const link = await guestToken(t, row);
    for (const call of writes(link)) await expectUnchanged(t, workflow.id, call, 403, 'USER_NOT_HAVE_ACCESS');
    await markSent(t, workflow.id, [row.id]);
    for (const call of writes(member.token)) await expectUnchanged(t, workflow.id, call, 400, 'INVALID_WORKFLOW_OWNER');
    for (const status of ['SENT', 'COMPLETED', 'VOID']) {
      await setWorkflow(t, workflow.id, { status });
      for (const call of writes()) await expectUnchanged(t, workflow.id, call, 400, 'INVALID_WORKFLOW_STATUS');
    }
  });
});
