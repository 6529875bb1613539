import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { fieldEvents } from '../../src/platform/db/schema/index.ts';
import { hashPassword } from '../../src/platform/auth/passwords.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  createDraftWorkflow,
  createUser,
  guestToken,
  insertField,
  insertRecipient,
  type TestUser,
} from '../helpers/factories.ts';
import { insertBusinessApp } from '../helpers/auth.ts';
import { markSent, setRecipient, setWorkflow } from '../helpers/envelope-states.ts';
import { organizationName } from '../organizations/org-helpers.ts';
import { partnerToken } from './security-helpers.ts';

/**
 * POST /workflow/v1/field-events writes telemetry against the caller's own recipient row. It must reach a workflow only
 * the way every other call does (workflow-access.ts findWorkflowForCaller): visible to the caller (a verified account's
 * rows, no Power Survey parent, the token's organization for a business app) and past the recipient-password gate. A
 * workflow the caller cannot reach ingests nothing, and the answer (always 202 {ingested, skipped}) is the same as for
 * an id that does not exist, so it tells nothing.
 */
let t: TestApp;
let sender: TestUser;
let signer: TestUser;
let unverified: TestUser;
let member: TestUser;
let partner: string;

/** A SENT workflow of the sender addressed to `to` (dispatched), with a TEXT field of that row; `sequence` SURVEY makes a survey parent. */
async function sentTo(to: TestUser, options: { sequence?: 'UNORDERED' | 'SURVEY'; name?: string } = {}) {
  const { workflow, document } = await createDraftWorkflow(t, sender, {
    sequence: options.sequence ?? 'UNORDERED',
    name: options.name,
  });
  const row = await insertRecipient(t, workflow.id, {
    userId: to.userId,
    name: to.name,
    email: to.email,
    recipientOrder: 1,
  });
  const field = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: row.id,
    fieldType: 'TEXT',
  });
  await markSent(t, workflow.id, [row.id]);
  return { workflowId: workflow.id, documentId: document.id, fieldId: field.id, row };
}

function events(fieldId: number) {
  const at = new Date(Date.now() - 1000).toISOString();
  return [
    { fieldId: null, type: 'SESSION_START', at },
    { fieldId, type: 'FIELD_VIEWED', at },
    { fieldId, type: 'FIELD_FILLED', at },
  ];
}

const post = (token: string, workflowId: number, fieldId: number, sessionId = `s-${workflowId}-${Math.random()}`) =>
  t.request('POST', '/workflow/v1/field-events', { token, body: { sessionId, workflowId, events: events(fieldId) } });

const storedFor = async (workflowIds: number[]) =>
  t.platform.db.select().from(fieldEvents).where(inArray(fieldEvents.workflowId, workflowIds));

beforeAll(async () => {
  t = await createTestApp();
  sender = await createUser(t, { name: 'Sara Sender' });
  signer = await createUser(t, { name: 'Sven Signer' });
  unverified = await createUser(t, { name: 'Uma Unverified', emailVerified: false });
  // A member of the sender's organization, also owner of an organization of her own; the app is of the sender's.
  const outside = await createUser(t, { name: 'Olga Outside' });
  member = await createUser(t, { name: 'Mona Member' });
  const invited = await t.request('POST', '/organization/v1/user', {
    token: sender.token,
    body: { name: member.name, emailAddress: member.email },
  });
  expect(invited.status, invited.raw).toBe(200);
  const accepted = await t.request('PUT', '/organization/v1/invite', {
    token: member.token,
    body: { orgNames: [await organizationName(t, sender)], inviteStatus: 'ACCEPTED' },
  });
  expect(accepted.status, accepted.raw).toBe(200);
  partner = await partnerToken(t, member, await insertBusinessApp(t, sender.organizationId));
  // Only Olga's organization reaches this one: she sent it to the member.
  const { workflow, document } = await createDraftWorkflow(t, outside, { name: 'Olga to Mona' });
  const row = await insertRecipient(t, workflow.id, {
    userId: member.userId,
    name: member.name,
    email: member.email,
    recipientOrder: 1,
  });
  const field = await insertField(t, {
    workflowId: workflow.id,
    documentId: document.id,
    recipientId: row.id,
    fieldType: 'TEXT',
  });
  await markSent(t, workflow.id, [row.id]);
  otherOrganization = { workflowId: workflow.id, fieldId: field.id };
}, 60_000);
let otherOrganization: { workflowId: number; fieldId: number };

afterAll(async () => {
  await t?.close();
});

describe('field events reach only workflows the caller may see', () => {
  it("ingests for the caller's own visible row (signing link and account)", async () => {
    const open = await sentTo(signer);
    expect((await post(await guestToken(t, open.row), open.workflowId, open.fieldId)).body).toEqual({
      ingested: 3,
      skipped: 0,
    });
    expect((await post(signer.token, open.workflowId, open.fieldId)).body).toEqual({ ingested: 3, skipped: 0 });
  });

  it("ingests nothing past the recipient-password gate, for an unverified account, for a survey parent, outside a business app's organization, and tells none of them from an unknown id", async () => {
    const guarded = await sentTo(signer, { name: 'Guarded' });
    await setRecipient(t, guarded.row.id, { passwordHash: await hashPassword('correct horse battery') });
    const notYours = await sentTo(unverified, { name: 'To an unverified account' });
    const survey = await sentTo(signer, { sequence: 'SURVEY', name: 'Survey parent' });
    const deleted = await sentTo(signer, { name: 'Deleted' });
    await setWorkflow(t, deleted.workflowId, { deletedAt: new Date() });

    const nothing = { ingested: 0, skipped: 3 };
    const cases: [string, string, { workflowId: number; fieldId: number }][] = [
      ['recipient password not entered (account)', signer.token, guarded],
      ['recipient password not entered (signing link)', await guestToken(t, guarded.row), guarded],
      ['rows of an unverified account', unverified.token, notYours],
      ['a Power Survey parent', signer.token, survey],
      ['a deleted workflow', signer.token, deleted],
      ["another organization than the business app's", partner, otherOrganization],
      ['an id that does not exist', signer.token, { workflowId: 999_999, fieldId: guarded.fieldId }],
    ];
    const answers: Record<string, unknown> = {};
    for (const [label, token, target] of cases) {
      const res = await post(token, target.workflowId, target.fieldId);
      answers[label] = [res.status, res.body];
    }
    expect(answers).toEqual(Object.fromEntries(cases.map(([label]) => [label, [202, nothing]])));
    expect(
      await storedFor([
        guarded.workflowId,
        notYours.workflowId,
        survey.workflowId,
        deleted.workflowId,
        otherOrganization.workflowId,
      ]),
    ).toEqual([]);

    // Once the password is entered in that session, the same row reports.
    const link = await guestToken(t, guarded.row);
    const verified = await t.request('POST', `/workflow/v1/${guarded.workflowId}/identity/verify-password`, {
      token: link,
      body: { password: 'correct horse battery' },
    });
    expect(verified.status, verified.raw).toBe(200);
    expect((await post(link, guarded.workflowId, guarded.fieldId)).body).toEqual({ ingested: 3, skipped: 0 });
    expect((await storedFor([guarded.workflowId])).length).toBe(3);
  });

  it("a business app's token reports no signing telemetry even in its organization: it is never a recipient", async () => {
    const inOrganization = await sentTo(member, { name: 'Sara to Mona' });
    expect((await post(partner, inOrganization.workflowId, inOrganization.fieldId)).body).toEqual({
      ingested: 0,
      skipped: 3,
    });
    expect(await storedFor([inOrganization.workflowId])).toEqual([]);
    // Mona's own signing link reports.
    expect(
      (await post(await guestToken(t, inOrganization.row), inOrganization.workflowId, inOrganization.fieldId)).body,
    ).toEqual({ ingested: 3, skipped: 0 });
    expect(
      (await t.platform.db.select().from(fieldEvents).where(eq(fieldEvents.recipientId, inOrganization.row.id))).length,
    ).toBe(3);
  });
});
