import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent, setRecipient } from '../helpers/envelope-states.ts';
import { addRecipients, recipientEntry } from '../helpers/recipients.ts';

let t: TestApp;
let owner: TestUser;
let signer: TestUser;
let assistant: TestUser;
let workflowId: number;
let rows: { signer: any; second: any; cc: any; hidden: any };

const list = (token: string, id = workflowId) => t.request('GET', `/workflow/v1/${id}/recipients`, { token });
const one = (token: string, recipientId: number, id = workflowId) =>
  t.request('GET', `/workflow/v1/${id}/recipients/${recipientId}`, { token });

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Owner Person' });
  signer = await createUser(t, { name: 'Signer Person' });
  assistant = await createUser(t, { name: 'Assistant Person' });
  const { workflow } = await createDraftWorkflow(t, owner, { sequence: 'ORDERED' });
  workflowId = workflow.id;
  const [second, first, cc] = await addRecipients(t, owner.token, workflowId, [
    recipientEntry({ name: 'Second Signer', recipientOrder: 2, recipientPassword: 'never-shown' }),
    recipientEntry({ name: 'Signer Person', emailAddress: signer.email, recipientOrder: '1' }),
    recipientEntry({ name: 'Copy Reader', recipientRole: 'CC', recipientOrder: 3 }),
  ]);
  const hidden = await insertRecipient(t, workflowId, {
    userId: assistant.userId,
    name: 'Assistant Person',
    email: assistant.email,
    recipientOrder: 4,
  });
  await setRecipient(t, hidden.id, { isHidden: true });
  rows = { signer: first, second, cc, hidden };
});
afterAll(async () => {
  await t?.close();
});

describe('reading recipients', () => {
  it('gives the owner every row, hidden ones included, in signing order, without passwords', async () => {
    const res = await list(owner.token);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.map((r: any) => r.id)).toEqual([rows.signer.id, rows.second.id, rows.cc.id, rows.hidden.id]);
    expect(res.body.map((r: any) => r.recipientOrder)).toEqual(['1', '2', '3', '4']);
    expect(res.raw).not.toMatch(/password|never-shown|argon/i);
    const single = await one(owner.token, rows.hidden.id);
    expect(single.status).toBe(200);
    expect(single.body).toEqual({
      id: rows.hidden.id,
      name: 'Assistant Person',
      emailAddress: assistant.email,
      recipientRole: 'SIGNER',
      recipientOrder: '4',
      recipientColor: '#FF0000',
      useDigitalCert: false,
      enforceIdentity: false,
      status: 'PENDING',
    });
  });

  it('hides a DRAFT from a registered recipient (404) but not from a signing-link token of it', async () => {
    expect((await list(signer.token)).status).toBe(404);
    expect((await one(signer.token, rows.signer.id)).status).toBe(404);
    const guest = await guestToken(t, { id: rows.second.id, userId: await storedUserId(rows.second.id), workflowId });
    // This row has a recipient password: the token reads nothing before it is entered (test/signing/recipient-password.test.ts).
    expect((await list(guest)).status).toBe(403);
    expect(
      (
        await t.request('POST', `/workflow/v1/${workflowId}/identity/verify-password`, {
          token: guest,
          body: { password: 'never-shown' },
        })
      ).status,
    ).toBe(200);
    const res = await list(guest);
    expect(res.status, res.raw).toBe(200);
    expect(res.body.map((r: any) => r.id)).toEqual([rows.signer.id, rows.second.id, rows.cc.id]);
  });

  it('shows a recipient every row but hidden ones once sent, and the hidden row to the person holding it', async () => {
    const { workflow } = await createDraftWorkflow(t, owner);
    const mine = await insertRecipient(t, workflow.id, {
      userId: signer.userId,
      name: 'Signer Person',
      email: signer.email,
    });
    const hidden = await insertRecipient(t, workflow.id, {
      userId: assistant.userId,
      name: 'Assistant Person',
      email: assistant.email,
    });
    await setRecipient(t, hidden.id, { isHidden: true });
    await markSent(t, workflow.id, [mine.id]);

    const asSigner = await list(signer.token, workflow.id);
    expect(asSigner.body.map((r: any) => r.id)).toEqual([mine.id]);
    expect((await one(signer.token, hidden.id, workflow.id)).status).toBe(404);
    expect((await one(signer.token, mine.id, workflow.id)).status).toBe(200);

    const asAssistant = await list(assistant.token, workflow.id);
    expect(asAssistant.body.map((r: any) => r.id)).toEqual([mine.id, hidden.id]);
    const assistantLink = await guestToken(t, hidden);
    expect((await one(assistantLink, hidden.id, workflow.id)).status).toBe(200);
    const signerLink = await guestToken(t, mine);
    expect((await one(signerLink, hidden.id, workflow.id)).status).toBe(404);
  });

  it('answers 404 to a stranger, to a signing-link token of another workflow and for a recipient of another workflow', async () => {
    const stranger = await createUser(t);
    expect((await list(stranger.token)).status).toBe(404);
    expect((await one(stranger.token, rows.signer.id)).status).toBe(404);

    const other = await createDraftWorkflow(t, owner);
    const [foreign] = await addRecipients(t, owner.token, other.workflow.id, [recipientEntry()]);
    const foreignLink = await guestToken(t, {
      id: foreign.id,
      userId: await storedUserId(foreign.id),
      workflowId: other.workflow.id,
    });
    const res = await list(foreignLink);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('NOT_FOUND');
    expect((await one(foreignLink, rows.signer.id)).status).toBe(404);
    expect((await one(owner.token, foreign.id)).status).toBe(404);
    expect((await list(owner.token, 2147483000)).status).toBe(404);
  });
});

async function storedUserId(recipientId: number): Promise<number> {
  const res = await t.platform.database.sql.executeSql('select user_id from recipients where id = $1', [recipientId]);
  return res.rows[0].user_id;
}
