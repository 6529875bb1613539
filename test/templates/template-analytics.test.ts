import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { fieldEvents, workflows } from '../../src/platform/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, guestToken, type TestUser } from '../helpers/factories.ts';
import { createTemplate, sourceWorkflow, templatesMember, workflowOf } from './template-helpers.ts';

let t: TestApp;
let owner: TestUser;
let outsider: TestUser;
let templateId: number;
let sourceId: number;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
  outsider = await createUser(t, { name: 'Oscar Outsider' });
  const source = await sourceWorkflow(t, owner);
  sourceId = source.workflow.id;
  templateId = (await createTemplate(t, owner.token, { name: 'Measured', workflowId: sourceId })).id;
});
afterAll(async () => {
  await t?.close();
});

const hour = 3600 * 1000;
async function dispatch(): Promise<number> {
  const res = await t.request('POST', `/workflow/v1/templates/${templateId}/dispatch`, {
    token: owner.token,
    body: [],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}
const setWorkflow = (id: number, values: Partial<typeof workflows.$inferInsert>) =>
  t.platform.db.update(workflows).set(values).where(eq(workflows.id, id));

describe('completion and time to sign', () => {
  it("count the template's workflows by status and the hours from sent to completed", async () => {
    const empty = await t.request('GET', `/organization/v1/templates/${templateId}/time-to-sign`, {
      token: owner.token,
    });
    expect(empty.body).toMatchObject({ sampleSize: 0, avgHours: null, medianHours: null, p90Hours: null });
    const ids = [await dispatch(), await dispatch(), await dispatch(), await dispatch(), await dispatch()];
    const sent = new Date(Date.now() - 30 * 24 * hour);
    await setWorkflow(ids[0], {
      status: 'COMPLETED',
      sentAt: sent,
      completedAt: new Date(sent.getTime() + 0.5 * hour),
    });
    await setWorkflow(ids[1], { status: 'COMPLETED', sentAt: sent, completedAt: new Date(sent.getTime() + 2 * hour) });
    await setWorkflow(ids[2], { status: 'APPROVED', sentAt: sent, completedAt: new Date(sent.getTime() + 200 * hour) });
    await setWorkflow(ids[3], { status: 'VOID' });
    expect(
      (await t.request('GET', `/organization/v1/templates/${templateId}/use`, { token: owner.token })).status,
    ).toBe(200);
    // Deleted workflows and the source itself do not count.
    const gone = await dispatch();
    await setWorkflow(gone, { deletedAt: new Date() });

    const completion = await t.request('GET', `/organization/v1/templates/${templateId}/analytics`, {
      token: owner.token,
    });
    expect(completion.status).toBe(200);
    expect(completion.body).toEqual({
      templateId,
      templateName: 'Measured',
      completionRate: 0.5,
      counts: { total: 6, completed: 3, void: 1, inProgress: 1, draft: 1, other: 0 },
    });
    const time = await t.request('GET', `/organization/v1/templates/${templateId}/time-to-sign`, {
      token: owner.token,
    });
    expect(time.body).toEqual({
      templateId,
      templateName: 'Measured',
      sampleSize: 3,
      avgHours: 67.5,
      medianHours: 2,
      p90Hours: 160.4,
      distribution: { under1h: 1, under1d: 1, under3d: 0, under7d: 0, over7d: 1 },
    });
    const full = await t.request('GET', `/organization/v1/templates/${templateId}/analytics/full`, {
      token: owner.token,
    });
    expect(full.body).toEqual({ ...completion.body, timeToSign: time.body });
  });

  it('who may read: 401, guest 403, no TEMPLATES 403, another organization 404, unknown id 404', async () => {
    const { member } = await templatesMember(t, owner, null, 'Nina Noright');
    const { member: viewer } = await templatesMember(t, owner, { canView: true }, 'Vera Viewer');
    const workflowId = await dispatch();
    const row = (await workflowOf(t, workflowId)).recipients[0];
    const guest = await guestToken(t, row);
    for (const path of ['analytics', 'analytics/full', 'time-to-sign']) {
      const url = `/organization/v1/templates/${templateId}/${path}`;
      expect((await t.request('GET', url)).status).toBe(401);
      expect((await t.request('GET', url, { token: guest })).status).toBe(403);
      expect((await t.request('GET', url, { token: member.token })).status).toBe(403);
      expect((await t.request('GET', url, { token: outsider.token })).status).toBe(404);
      expect((await t.request('GET', url, { token: viewer.token })).status).toBe(200);
      expect((await t.request('GET', `/organization/v1/templates/999999/${path}`, { token: owner.token })).status).toBe(
        404,
      );
    }
    const drop = `/workflow/v1/templates/${templateId}/field-drop-off`;
    expect((await t.request('GET', drop)).status).toBe(401);
    expect((await t.request('GET', drop, { token: guest })).status).toBe(403);
    expect((await t.request('GET', drop, { token: outsider.token })).status).toBe(404);
  });
});

describe('field events and drop-off', () => {
  it("ingests the signing page's batches for the caller's row, skipping malformed and foreign events, once per session", async () => {
    const workflowId = await dispatch();
    const made = await workflowOf(t, workflowId);
    const [alice, bob] = made.recipients;
    const aliceFields = made.fields.filter((f) => f.recipientId === alice.id);
    const signature = aliceFields.find((f) => f.fieldType === 'SIGNATURE')!;
    const text = aliceFields.find((f) => f.fieldType === 'TEXT')!;
    const bobField = made.fields.find((f) => f.recipientId === bob.id)!;
    const token = await guestToken(t, alice);
    const now = Date.now();
    const at = (offsetMs: number) => new Date(now - 60_000 + offsetMs).toISOString();
    const post = (body: unknown, auth = token) => t.request('POST', '/workflow/v1/field-events', { token: auth, body });
    const documentId = signature.documentId;

    const first = await post({
      sessionId: 's1',
      workflowId,
      documentId,
      events: [
        { fieldId: null, type: 'SESSION_START', at: at(0) },
        { fieldId: text.id, type: 'FIELD_GLANCED', at: at(1000) },
        { fieldId: signature.id, type: 'FIELD_VIEWED', at: at(2000) },
        { fieldId: signature.id, type: 'FIELD_VIEWED', at: at(2500) },
        { fieldId: text.id, type: 'FIELD_FOCUSED', at: at(3000) },
        { fieldId: text.id, type: 'FIELD_FILLED', at: at(4000) },
        // Malformed or foreign: each skipped.
        { fieldId: text.id, type: 'FIELD_EXPLODED', at: at(0) },
        { fieldId: text.id, type: 'FIELD_FILLED', at: new Date(now + 3600_000).toISOString() },
        { fieldId: text.id, type: 'FIELD_FILLED', at: '2026-01-01T10:00:00+02:00' },
        { fieldId: text.id, type: 'FIELD_FILLED', at: 'yesterday' },
        { fieldId: 'x', type: 'FIELD_FILLED', at: at(0) },
        { fieldId: 999999, type: 'FIELD_FILLED', at: at(0) },
        { fieldId: bobField.id, type: 'FIELD_VIEWED', at: at(0) },
        'not an object',
        null,
        42,
      ],
    });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ ingested: 6, skipped: 10 });
    const stored = await t.platform.db.select().from(fieldEvents).where(eq(fieldEvents.workflowId, workflowId));
    expect(stored).toHaveLength(5); // the repeated FIELD_VIEWED is kept once
    expect(stored.every((e) => e.recipientId === alice.id && e.templateId === templateId)).toBe(true);

    // A second session that reaches the signature and stops.
    expect(
      (
        await post({
          sessionId: 's2',
          workflowId,
          documentId,
          events: [{ fieldId: signature.id, type: 'FIELD_FOCUSED', at: at(5000) }],
        })
      ).body,
    ).toEqual({ ingested: 1, skipped: 0 });
    // Another workflow than the token's, an unknown workflow, a DRAFT: all skipped, still 202.
    const otherWorkflow = await dispatch();
    expect(
      (
        await post({
          sessionId: 's3',
          workflowId: otherWorkflow,
          events: [{ fieldId: null, type: 'SESSION_START', at: at(0) }],
        })
      ).body,
    ).toEqual({ ingested: 0, skipped: 1 });
    // A malformed envelope ingests nothing (test/conformance/field-events-always-accepted.test.ts); no token 401.
    expect((await post({ sessionId: 's4', workflowId: 'abc', events: [] })).body).toEqual({ ingested: 0, skipped: 0 });
    expect(
      (await t.request('POST', '/workflow/v1/field-events', { body: { sessionId: 's', workflowId, events: [] } }))
        .status,
    ).toBe(401);
    // The outsider (a user with no row) reports nothing.
    expect(
      (
        await post(
          { sessionId: 's5', workflowId, events: [{ fieldId: null, type: 'SESSION_START', at: at(0) }] },
          outsider.token,
        )
      ).body,
    ).toEqual({ ingested: 0, skipped: 1 });

    const drop = await t.request('GET', `/workflow/v1/templates/${templateId}/field-drop-off`, { token: owner.token });
    expect(drop.status).toBe(200);
    expect(drop.body.totalSessions).toBe(2);
    expect(Date.parse(drop.body.collectingSince)).toBeLessThanOrEqual(Date.now());
    const byType = (type: string, recipientRow: number) =>
      drop.body.fields.filter((f: any) => f.fieldType === type)[recipientRow];
    expect(byType('TEXT', 0)).toMatchObject({
      label: 'Company',
      pageNo: 1,
      reached: 1,
      completed: 1,
      dropOffRate: 0,
      lowSample: true,
      confusionRecoveries: 1,
    });
    expect(byType('SIGNATURE', 0)).toMatchObject({
      reached: 2,
      completed: 0,
      dropOffRate: 1,
      lowSample: true,
      confusionRecoveries: 0,
    });
    expect(drop.body.fields).toHaveLength(3);
    expect(new Set(drop.body.fields.map((f: any) => f.placeholderKey)).size).toBe(3);
  });

  it("the signing page's payload shape is accepted (web/src/signing/telemetry.ts)", async () => {
    const workflowId = await dispatch();
    const [alice] = (await workflowOf(t, workflowId)).recipients;
    // As the page sends SESSION_START before documents load: documentId 0 and fieldId null.
    const res = await t.request('POST', '/workflow/v1/field-events', {
      token: await guestToken(t, alice),
      body: {
        sessionId: crypto.randomUUID(),
        workflowId,
        documentId: 0,
        events: [{ fieldId: null, type: 'SESSION_START', at: new Date().toISOString() }],
      },
    });
    expect([res.status, res.body]).toEqual([202, { ingested: 1, skipped: 0 }]);
  });
});
