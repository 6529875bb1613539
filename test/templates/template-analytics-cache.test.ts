import { describe, expect } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { workflows } from '../../src/platform/db/schema/index.ts';
import {
  countByStatus,
  countSessions,
  dropOffCounts,
  timeToSign,
} from '../../src/modules/templates/template-analytics.repo.ts';
import { createNotifiedCache } from '../../src/platform/db/notified-cache.ts';
import { test } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { guestToken, type TestUser } from '../helpers/factories.ts';
import { createTemplate, sourceWorkflow, workflowOf } from './template-helpers.ts';

/*
 * Template analytics are cached until the database announces a change of their template (triggers of the changing
 * statement, migration 0025): every answer must equal a fresh aggregate, right after every kind of change.
 */

const hour = 3600 * 1000;

async function dispatch(t: TestApp, owner: TestUser, templateId: number): Promise<number> {
  const res = await t.request('POST', `/workflow/v1/templates/${templateId}/dispatch`, {
    token: owner.token,
    body: [],
  });
  expect(res.status, res.raw).toBe(200);
  return res.body.id;
}

/** The three analytics over HTTP, each asked twice (the second may be the cached one: both must agree). */
async function analytics(t: TestApp, owner: TestUser, templateId: number) {
  const paths = [
    `/organization/v1/templates/${templateId}/analytics`,
    `/organization/v1/templates/${templateId}/time-to-sign`,
    `/workflow/v1/templates/${templateId}/field-drop-off`,
  ];
  const answers = [];
  for (const path of paths) {
    const first = await t.request('GET', path, { token: owner.token });
    expect(first.status, first.raw).toBe(200);
    expect((await t.request('GET', path, { token: owner.token })).body, `${path} asked again`).toEqual(first.body);
    answers.push(first.body);
  }
  const [completion, time, drop] = answers;
  return { completion, time, drop };
}

/** The same figures straight from the aggregates, no cache. */
async function fresh(t: TestApp, templateId: number) {
  const [template] = (await t.platform.db.execute(sql`select snapshot_at from templates where id = ${templateId}`))
    .rows as { snapshot_at: string | Date }[];
  const since = new Date(template.snapshot_at);
  return {
    counts: await countByStatus(t.platform.db, templateId),
    sampleSize: (await timeToSign(t.platform.db, templateId)).n,
    sessions: await countSessions(t.platform.db, templateId, since),
    reached: (await dropOffCounts(t.platform.db, templateId, since)).reduce((sum, row) => sum + row.reached, 0),
  };
}

async function expectExact(t: TestApp, owner: TestUser, templateId: number, note: string) {
  const served = await analytics(t, owner, templateId);
  const expected = await fresh(t, templateId);
  const { other: _other, ...counts } = served.completion.counts;
  expect(counts, note).toEqual(expected.counts);
  expect(served.time.sampleSize, note).toBe(expected.sampleSize);
  expect(served.drop.totalSessions, note).toBe(expected.sessions);
  expect(
    served.drop.fields.reduce((sum: number, f: { reached: number }) => sum + f.reached, 0),
    note,
  ).toBe(expected.reached);
  return served;
}

describe('template analytics, cached', () => {
  test('follow every change at once: new workflows, status, times, deletion, field events, a rename; another template unaffected', {
    timeout: 300_000,
  }, async ({ app: t, owner }) => {
    const source = await sourceWorkflow(t, owner);
    const template = await createTemplate(t, owner.token, { name: 'Cached', workflowId: source.workflow.id });
    const other = await createTemplate(t, owner.token, { name: 'Other', workflowId: source.workflow.id });
    const set = (id: number, values: Partial<typeof workflows.$inferInsert>) =>
      t.platform.db.update(workflows).set(values).where(eq(workflows.id, id));

    await expectExact(t, owner, template.id, 'empty');
    const made = [await dispatch(t, owner, template.id), await dispatch(t, owner, template.id)];
    expect((await expectExact(t, owner, template.id, 'two dispatched')).completion.counts.total).toBe(2);
    const otherBefore = await analytics(t, owner, other.id);

    const sent = new Date(Date.now() - 10 * hour);
    await set(made[0], { status: 'COMPLETED', sentAt: sent, completedAt: new Date(sent.getTime() + 3 * hour) });
    expect((await expectExact(t, owner, template.id, 'one completed')).time.sampleSize).toBe(1);
    await set(made[0], { completedAt: new Date(sent.getTime() + 5 * hour) });
    expect((await expectExact(t, owner, template.id, 'completion time moved')).time.avgHours).toBe(5);

    const { recipients, fields } = await workflowOf(t, made[1]);
    const alice = recipients[0];
    const field = fields.find((f) => f.recipientId === alice.id)!;
    const events = await t.request('POST', '/workflow/v1/field-events', {
      token: await guestToken(t, alice),
      body: {
        sessionId: 'cache-1',
        workflowId: made[1],
        documentId: field.documentId,
        events: [
          { fieldId: null, type: 'SESSION_START', at: new Date(Date.now() - 1000).toISOString() },
          { fieldId: field.id, type: 'FIELD_VIEWED', at: new Date().toISOString() },
        ],
      },
    });
    expect(events.body.ingested).toBe(2);
    expect((await expectExact(t, owner, template.id, 'field events')).drop.totalSessions).toBe(1);

    await set(made[1], { deletedAt: new Date() });
    expect((await expectExact(t, owner, template.id, 'deleted')).completion.counts.total).toBe(1);
    expect(
      (
        await t.request('PUT', '/organization/v1/rename/templates', {
          token: owner.token,
          body: { id: template.id, name: 'Renamed' },
        })
      ).status,
    ).toBe(200);
    const renamed = await analytics(t, owner, template.id);
    expect([renamed.completion.templateName, renamed.time.templateName, renamed.drop.templateName]).toEqual([
      'Renamed',
      'Renamed',
      'Renamed',
    ]);

    // Nothing of the other template changed: the same answers.
    expect(await analytics(t, owner, other.id)).toEqual(otherBefore);

    // Many changes in a row: each one followed.
    for (let i = 0; i < 20; i++) {
      await set(made[0], { status: i % 2 ? 'COMPLETED' : 'SENT' });
      expect((await analytics(t, owner, template.id)).completion.counts.completed, `change ${i}`).toBe(i % 2);
    }
    await expectExact(t, owner, template.id, 'after many changes');
  });

  test('many requests at once for a cached answer are all served from the cache, none computes again', async ({
    app: t,
    owner,
  }) => {
    const source = await sourceWorkflow(t, owner);
    const template = await createTemplate(t, owner.token, { name: 'Busy', workflowId: source.workflow.id });
    const cache = createNotifiedCache(t.platform.database, 'template_analytics_changed');
    let computed = 0;
    const compute = async () => {
      computed += 1;
      return countByStatus(t.platform.db, template.id);
    };
    const first = await cache.read(template.id, 'busy', compute);
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.read(template.id, 'busy', compute)));
    expect(answers.every((answer) => JSON.stringify(answer) === JSON.stringify(first))).toBe(true);
    expect(computed).toBe(1);
    // A change to the template's workflows makes the next read compute again, once.
    await dispatch(t, owner, template.id);
    await cache.read(template.id, 'busy', compute);
    expect(computed).toBe(2);
  });
});
