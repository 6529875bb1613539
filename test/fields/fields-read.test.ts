import { describe, expect } from 'vitest';
import { fileUser, test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, type TestUser } from '../helpers/factories.ts';
import { markSent } from '../helpers/envelope-states.ts';
import { addField, addRecipients, fieldEntry, recipientEntry, storedRecipients } from '../helpers/recipients.ts';

const test = base.override({ ownerName: 'Owner Person' }).extend<{ alice: TestUser; bob: TestUser }>({
  alice: fileUser({ name: 'Alice Person' }),
  bob: fileUser({ name: 'Bob Person' }),
});

const fieldsOf = (t: TestApp, workflowId: number, token: string) =>
  t.request('GET', `/workflow/v1/${workflowId}/fields`, { token });
const allFieldsOf = (t: TestApp, workflowId: number, token: string) =>
  t.request('GET', `/workflow/v1/${workflowId}/all-fields`, { token });
const oneField = (t: TestApp, workflowId: number, fieldId: number, token: string) =>
  t.request('GET', `/workflow/v1/${workflowId}/fields/${fieldId}`, { token });

/** A workflow where alice and bob each have a SIGNATURE field linked to a library entry, plus a TEXT field of alice's. */
async function setup(t: TestApp, owner: TestUser, alice: TestUser, bob: TestUser) {
  const { workflow, document } = await createDraftWorkflow(t, owner);
  const [a, b] = await addRecipients(t, owner.token, workflow.id, [
    recipientEntry({ name: 'Alice Person', emailAddress: alice.email }),
    recipientEntry({ name: 'Bob Person', emailAddress: bob.email }),
  ]);
  const aliceSignature = await addField(
    t,
    owner.token,
    document.id,
    fieldEntry(a.id, { fieldType: 'SIGNATURE', signatureAssetId: 11 }),
  );
  const bobSignature = await addField(
    t,
    owner.token,
    document.id,
    fieldEntry(b.id, { fieldType: 'SIGNATURE', signatureAssetId: 22 }),
  );
  const aliceText = await addField(t, owner.token, document.id, fieldEntry(a.id, { fieldType: 'TEXT' }));
  const [aRow, bRow] = await storedRecipients(t, workflow.id);
  return { workflow, document, aRow, bRow, aliceSignature, bobSignature, aliceText };
}

const ids = (res: { body: any[] }) => res.body.map((f) => f.id);
const assets = (res: { body: any[] }) => Object.fromEntries(res.body.map((f) => [f.id, f.signatureAssetId]));

describe('reading fields', () => {
  test('gives the owner every field on both lists, with every signatureAssetId null', async ({
    app: t,
    owner,
    alice,
    bob,
  }) => {
    const s = await setup(t, owner, alice, bob);
    for (const res of [
      await fieldsOf(t, s.workflow.id, owner.token),
      await allFieldsOf(t, s.workflow.id, owner.token),
    ]) {
      expect(res.status, res.raw).toBe(200);
      expect(ids(res)).toEqual([s.aliceSignature.id, s.bobSignature.id, s.aliceText.id]);
      expect(res.body.every((f: any) => f.signatureAssetId === null)).toBe(true);
    }
    expect((await oneField(t, s.workflow.id, s.aliceSignature.id, owner.token)).body.signatureAssetId).toBeNull();
  });

  test('gives a signing-link token its own fields on `fields`, all on `all-fields`, and only its own links', async ({
    app: t,
    owner,
    alice,
    bob,
  }) => {
    const s = await setup(t, owner, alice, bob);
    const link = await guestToken(t, s.aRow);
    const own = await fieldsOf(t, s.workflow.id, link);
    expect(own.status, own.raw).toBe(200);
    expect(ids(own)).toEqual([s.aliceSignature.id, s.aliceText.id]);
    expect(own.body[0].signatureAssetId).toBe(11);
    const all = await allFieldsOf(t, s.workflow.id, link);
    expect(assets(all)).toEqual({ [s.aliceSignature.id]: 11, [s.bobSignature.id]: null, [s.aliceText.id]: null });
    expect((await oneField(t, s.workflow.id, s.aliceSignature.id, link)).body.signatureAssetId).toBe(11);
    expect((await oneField(t, s.workflow.id, s.bobSignature.id, link)).body.signatureAssetId).toBeNull();
    const bobLink = await guestToken(t, s.bRow);
    expect(assets(await allFieldsOf(t, s.workflow.id, bobLink))).toEqual({
      [s.aliceSignature.id]: null,
      [s.bobSignature.id]: 22,
      [s.aliceText.id]: null,
    });
  });

  test('hides a DRAFT from a registered recipient, and once sent shows the links of their own fields only', async ({
    app: t,
    owner,
    alice,
    bob,
  }) => {
    const s = await setup(t, owner, alice, bob);
    expect((await fieldsOf(t, s.workflow.id, bob.token)).status).toBe(404);
    expect((await oneField(t, s.workflow.id, s.bobSignature.id, bob.token)).status).toBe(404);
    await markSent(t, s.workflow.id, [s.aRow.id, s.bRow.id]);
    const own = await fieldsOf(t, s.workflow.id, bob.token);
    expect(ids(own)).toEqual([s.bobSignature.id]);
    expect(own.body[0].signatureAssetId).toBe(22);
    expect(assets(await allFieldsOf(t, s.workflow.id, bob.token))).toEqual({
      [s.aliceSignature.id]: null,
      [s.bobSignature.id]: 22,
      [s.aliceText.id]: null,
    });
  });

  test("shows the owner the links of fields on the owner's own recipient row", async ({ app: t, owner }) => {
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const [me, other] = await addRecipients(t, owner.token, workflow.id, [
      recipientEntry({ name: 'Owner Person', emailAddress: owner.email }),
      recipientEntry(),
    ]);
    const mine = await addField(
      t,
      owner.token,
      document.id,
      fieldEntry(me.id, { fieldType: 'INITIALS', signatureAssetId: 5 }),
    );
    expect(mine.signatureAssetId).toBe(5);
    await addField(t, owner.token, document.id, fieldEntry(other.id, { fieldType: 'INITIALS', signatureAssetId: 6 }));
    expect((await fieldsOf(t, workflow.id, owner.token)).body.map((f: any) => f.signatureAssetId)).toEqual([5, null]);
  });

  test("includes unassigned Power Survey fields in a respondent's own list, with no link for anyone", async ({
    app: t,
    owner,
  }) => {
    const { workflow, document } = await createDraftWorkflow(t, owner, { sequence: 'SURVEY' });
    await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
    const unassigned = await addField(
      t,
      owner.token,
      document.id,
      fieldEntry(null, { fieldType: 'SIGNATURE', signatureAssetId: 3 }),
    );
    const [row] = await storedRecipients(t, workflow.id);
    const res = await fieldsOf(t, workflow.id, await guestToken(t, row));
    expect(ids(res)).toEqual([unassigned.id]);
    expect(res.body[0].signatureAssetId).toBeNull();
  });

  test('answers 404 to a stranger, to a signing-link token of another workflow, and for a field of another workflow', async ({
    app: t,
    owner,
    alice,
    bob,
  }) => {
    const s = await setup(t, owner, alice, bob);
    const other = await setup(t, owner, alice, bob);
    const stranger = await createUser(t);
    for (const token of [stranger.token, await guestToken(t, other.aRow)]) {
      expect((await fieldsOf(t, s.workflow.id, token)).status).toBe(404);
      expect((await allFieldsOf(t, s.workflow.id, token)).status).toBe(404);
      const res = await oneField(t, s.workflow.id, s.aliceSignature.id, token);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('NOT_FOUND');
    }
    expect((await oneField(t, s.workflow.id, other.aliceSignature.id, owner.token)).status).toBe(404);
    expect((await fieldsOf(t, 2147483000, owner.token)).status).toBe(404);
  });
});
