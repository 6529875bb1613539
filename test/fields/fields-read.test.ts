import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, type TestUser } from '../helpers/factories.ts';
import { markSent } from '../helpers/envelope-states.ts';
import { addField, addRecipients, fieldEntry, recipientEntry, storedRecipients } from '../helpers/recipients.ts';

let t: TestApp;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Owner Person' });
  alice = await createUser(t, { name: 'Alice Person' });
  bob = await createUser(t, { name: 'Bob Person' });
});
afterAll(async () => { await t?.close(); });

const fieldsOf = (workflowId: number, token: string) => t.request('GET', `/workflow/v1/${workflowId}/fields`, { token });
const allFieldsOf = (workflowId: number, token: string) => t.request('GET', `/workflow/v1/${workflowId}/all-fields`, { token });
const oneField = (workflowId: number, fieldId: number, token: string) => t.request('GET', `/workflow/v1/${workflowId}/fields/${fieldId}`, { token });

/** A workflow where alice and bob each have a SIGNATURE field linked to a library entry, plus a TEXT field of alice's. */
async function setup() {
  const { workflow, document } = await createDraftWorkflow(t, owner);
  const [a, b] = await addRecipients(t, owner.token, workflow.id, [
    recipientEntry({ name: 'Alice Person', emailAddress: alice.email }),
    recipientEntry({ name: 'Bob Person', emailAddress: bob.email }),
  ]);
  const aliceSignature = await addField(t, owner.token, document.id, fieldEntry(a.id, { fieldType: 'SIGNATURE', signatureAssetId: 11 }));
  const bobSignature = await addField(t, owner.token, document.id, fieldEntry(b.id, { fieldType: 'SIGNATURE', signatureAssetId: 22 }));
  const aliceText = await addField(t, owner.token, document.id, fieldEntry(a.id, { fieldType: 'TEXT' }));
  const [aRow, bRow] = await storedRecipients(t, workflow.id);
  return { workflow, document, aRow, bRow, aliceSignature, bobSignature, aliceText };
}

const ids = (res: { body: any[] }) => res.body.map((f) => f.id);
const assets = (res: { body: any[] }) => Object.fromEntries(res.body.map((f) => [f.id, f.signatureAssetId]));

describe('reading fields', () => {
  it('gives the owner every field on both lists, with every signatureAssetId null', async () => {
    const s = await setup();
    for (const res of [await fieldsOf(s.workflow.id, owner.token), await allFieldsOf(s.workflow.id, owner.token)]) {
      expect(res.status, res.raw).toBe(200);
      expect(ids(res)).toEqual([s.aliceSignature.id, s.bobSignature.id, s.aliceText.id]);
      expect(res.body.every((f: any) => f.signatureAssetId === null)).toBe(true);
    }
    expect((await oneField(s.workflow.id, s.aliceSignature.id, owner.token)).body.signatureAssetId).toBeNull();
  });

  it('gives a signing-link token its own fields on `fields`, all on `all-fields`, and only its own links', async () => {
    const s = await setup();
    const link = await guestToken(t, s.aRow);
    const own = await fieldsOf(s.workflow.id, link);
    expect(own.status, own.raw).toBe(200);
    expect(ids(own)).toEqual([s.aliceSignature.id, s.aliceText.id]);
    expect(own.body[0].signatureAssetId).toBe(11);
    const all = await allFieldsOf(s.workflow.id, link);
    expect(assets(all)).toEqual({ [s.aliceSignature.id]: 11, [s.bobSignature.id]: null, [s.aliceText.id]: null });
    expect((await oneField(s.workflow.id, s.aliceSignature.id, link)).body.signatureAssetId).toBe(11);
    expect((await oneField(s.workflow.id, s.bobSignature.id, link)).body.signatureAssetId).toBeNull();
    const bobLink = await guestToken(t, s.bRow);
    expect(assets(await allFieldsOf(s.workflow.id, bobLink))).toEqual({ [s.aliceSignature.id]: null, [s.bobSignature.id]: 22, [s.aliceText.id]: null });
  });

  it('hides a DRAFT from a registered recipient, and once sent shows the links of their own fields only', async () => {
    const s = await setup();
    expect((await fieldsOf(s.workflow.id, bob.token)).status).toBe(404);
    expect((await oneField(s.workflow.id, s.bobSignature.id, bob.token)).status).toBe(404);
    await markSent(t, s.workflow.id, [s.aRow.id, s.bRow.id]);
    const own = await fieldsOf(s.workflow.id, bob.token);
    expect(ids(own)).toEqual([s.bobSignature.id]);
    expect(own.body[0].signatureAssetId).toBe(22);
    expect(assets(await allFieldsOf(s.workflow.id, bob.token))).toEqual({ [s.aliceSignature.id]: null, [s.bobSignature.id]: 22, [s.aliceText.id]: null });
  });

  it('shows the owner the links of fields on the owner\'s own recipient row', async () => {
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const [me, other] = await addRecipients(t, owner.token, workflow.id, [recipientEntry({ name: 'Owner Person', emailAddress: owner.email }), recipientEntry()]);
    const mine = await addField(t, owner.token, document.id, fieldEntry(me.id, { fieldType: 'INITIALS', signatureAssetId: 5 }));
    expect(mine.signatureAssetId).toBe(5);
    await addField(t, owner.token, document.id, fieldEntry(other.id, { fieldType: 'INITIALS', signatureAssetId: 6 }));
    expect((await fieldsOf(workflow.id, owner.token)).body.map((f: any) => f.signatureAssetId)).toEqual([5, null]);
  });

  it('includes unassigned Power Survey fields in a respondent\'s own list, with no link for anyone', async () => {
    const { workflow, document } = await createDraftWorkflow(t, owner, { sequence: 'SURVEY' });
    await addRecipients(t, owner.token, workflow.id, [recipientEntry()]);
    const unassigned = await addField(t, owner.token, document.id, fieldEntry(null, { fieldType: 'SIGNATURE', signatureAssetId: 3 }));
    const [row] = await storedRecipients(t, workflow.id);
    const res = await fieldsOf(workflow.id, await guestToken(t, row));
    expect(ids(res)).toEqual([unassigned.id]);
    expect(res.body[0].signatureAssetId).toBeNull();
  });

  it('answers 404 to a stranger, to a signing-link token of another workflow, and for a field of another workflow', async () => {
    const s = await setup();
    const other = await setup();
    const stranger = await createUser(t);
    for (const token of [stranger.token, await guestToken(t, other.aRow)]) {
      expect((await fieldsOf(s.workflow.id, token)).status).toBe(404);
      expect((await allFieldsOf(s.workflow.id, token)).status).toBe(404);
      const res = await oneField(s.workflow.id, s.aliceSignature.id, token);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('NOT_FOUND');
    }
    expect((await oneField(s.workflow.id, other.aliceSignature.id, owner.token)).status).toBe(404);
    expect((await fieldsOf(2147483000, owner.token)).status).toBe(404);
  });
});
