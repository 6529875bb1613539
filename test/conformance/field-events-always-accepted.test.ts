import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldEvents } from '../../src/platform/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, guestToken, insertField, insertRecipient } from '../helpers/factories.ts';
import { markSent } from '../helpers/envelope-states.ts';

/*
 * SPEC.md "Events": POST /workflow/v1/field-events always answers 202 {ingested, skipped}. RUNTIME.md "Limits and status
 * codes": a body that is not the documented object ingests nothing; events past the first 1,000 of a request count as
 * skipped; an event of a documented type with a fieldId it does not need is ingested.
 */
let t: TestApp;
let token: string;
let workflowId: number;
let fieldId: number;

beforeAll(async () => {
  t = await createTestApp();
  const sender = await createUser(t, { name: 'Sara Sender' });
  const signer = await createUser(t, { name: 'Sven Signer' });
  const { workflow, document } = await createDraftWorkflow(t, sender, { sequence: 'UNORDERED' });
  const row = await insertRecipient(t, workflow.id, {
    userId: signer.userId,
    name: signer.name,
    email: signer.email,
    recipientOrder: 1,
  });
  fieldId = (
    await insertField(t, { workflowId: workflow.id, documentId: document.id, recipientId: row.id, fieldType: 'TEXT' })
  ).id;
  await markSent(t, workflow.id, [row.id]);
  workflowId = workflow.id;
  token = await guestToken(t, row);
});
afterAll(async () => {
  await t?.close();
});

const post = (body: unknown) => t.request('POST', '/workflow/v1/field-events', { token, body });
const at = (offsetMs = 0) => new Date(Date.now() - 5000 + offsetMs).toISOString();

describe('POST /workflow/v1/field-events answers 202 {ingested, skipped} for every body', () => {
  it('the four documented events, session events carrying a fieldId: all four ingested', async () => {
    const res = await post({
      sessionId: 'four',
      workflowId,
      events: [
        { fieldId, type: 'SESSION_START', at: at(0) },
        { fieldId, type: 'FIELD_VIEWED', at: at(1) },
        { fieldId, type: 'FIELD_FILLED', at: at(2) },
        { fieldId, type: 'SUBMITTED', at: at(3) },
      ],
    });
    expect([res.status, res.body]).toEqual([202, { ingested: 4, skipped: 0 }]);
    const stored = await t.platform.db.select().from(fieldEvents).where(eq(fieldEvents.sessionId, 'four'));
    // A session event is about no field: the fieldId it did not need is not kept.
    expect(stored.filter((e) => e.type === 'SESSION_START' || e.type === 'SUBMITTED').map((e) => e.fieldId)).toEqual([
      null,
      null,
    ]);
    expect(stored).toHaveLength(4);
  });

  it('more than 1,000 events: the first 1,000 are considered, the rest count as skipped', async () => {
    const many = Array.from({ length: 1003 }, (_, i) => ({ fieldId, type: 'FIELD_VIEWED', at: at(i) }));
    const res = await post({ sessionId: 'many', workflowId, events: many });
    expect([res.status, res.body]).toEqual([202, { ingested: 1000, skipped: 3 }]);
  });

  it.each([
    ['no body', undefined, 0],
    ['an array', [{ fieldId, type: 'FIELD_VIEWED', at: at() }], 0],
    ['a JSON string', JSON.stringify('events'), 0],
    [
      'a workflowId that is not an id',
      { sessionId: 's', workflowId: 'abc', events: [{ fieldId, type: 'FIELD_VIEWED', at: at() }] },
      1,
    ],
    ['events that are not an array', { sessionId: 's', workflowId, events: 'none' }, 0],
    [
      'no sessionId',
      {
        workflowId,
        events: [
          { fieldId, type: 'FIELD_VIEWED', at: at() },
          { fieldId, type: 'FIELD_FILLED', at: at() },
        ],
      },
      2,
    ],
    [
      'a sessionId too long',
      { sessionId: 'x'.repeat(101), workflowId, events: [{ fieldId, type: 'FIELD_VIEWED', at: at() }] },
      1,
    ],
  ])('%s: 202, nothing ingested', async (_name, body, skipped) => {
    const before = (await t.platform.db.select().from(fieldEvents).where(eq(fieldEvents.workflowId, workflowId)))
      .length;
    const res = await post(body);
    expect([res.status, res.body]).toEqual([202, { ingested: 0, skipped }]);
    expect((await t.platform.db.select().from(fieldEvents).where(eq(fieldEvents.workflowId, workflowId))).length).toBe(
      before,
    );
  });

  it('still needs a token: 401 without one', async () => {
    const res = await t.request('POST', '/workflow/v1/field-events', {
      body: { sessionId: 's', workflowId, events: [] },
    });
    expect(res.status).toBe(401);
  });
});
