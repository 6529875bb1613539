import { and, eq, inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { test as base } from '../helpers/fixtures.ts';
import { childrenOf, draftSurvey, setSurveyLimit } from './survey-helpers.ts';
import { registerApp } from '../business-apps/helpers.ts';
import { dispatchBatch } from '../../src/modules/surveys/survey-dispatch.ts';
import { listActivities, verifyChain } from '../../src/modules/activities/activities.service.ts';
import { createSigningCodes, loadSigningCodeKey } from '../../src/modules/signing/signing-codes.ts';
import { mailOutbox, recipients, webhookDeliveries, workflows } from '../../src/platform/db/schema/index.ts';

// Its own file: the business app registered here makes every later send of this organization queue webhook deliveries.
const test = base.override({ ownerName: 'Olivia Owner' });

test('a Power Survey batch sends its children as sendWorkflow sends one: each child SENT with an intact audit chain ending in its Sent activity, its row dispatched, one COMMENCE mail with its job and a workflow.sent webhook delivery; a rolled-back batch leaves nothing, and the next starts from the recipients still without a child', async ({
  app: t,
  owner,
}) => {
  await setSurveyLimit(t, owner, 50);
  // An app that takes webhooks: the batch queues the children's workflow.sent deliveries like recordActivity does.
  await registerApp(t, owner.token, { callbackUrl: 'https://hooks.example.test/survey' });
  const survey = await draftSurvey(t, owner, { recipients: 4 });
  await t.platform.db
    .update(workflows)
    .set({ status: 'SENT', sentAt: new Date(), title: 'Tell us' })
    .where(eq(workflows.id, survey.workflowId));
  const routing = {
    outbox: t.platform.outbox,
    publicUrl: t.config.publicUrl,
    codes: createSigningCodes(loadSigningCodeKey(t.config.dataDir)),
  };
  const deps = { db: t.platform.db, jobs: t.platform.jobs, routing };
  const emails = survey.recipients.map((r) => r.emailAddress.toLowerCase());

  // A crash after the batch wrote everything but before its commit: nothing of it stays.
  await expect(
    t.platform.db.transaction(async (tx) => {
      expect(await dispatchBatch(tx, deps, survey.workflowId, 3)).toBe(3);
      throw new Error('killed before the commit');
    }),
  ).rejects.toThrow('killed before the commit');
  expect(await childrenOf(t, survey.workflowId)).toHaveLength(0);
  expect(await t.platform.db.select().from(mailOutbox).where(inArray(mailOutbox.toAddress, emails))).toHaveLength(0);

  expect(await t.platform.db.transaction((tx) => dispatchBatch(tx, deps, survey.workflowId, 3))).toBe(3);
  expect(await t.platform.db.transaction((tx) => dispatchBatch(tx, deps, survey.workflowId, 3))).toBe(1);
  const children = await childrenOf(t, survey.workflowId);
  expect(children.map((c) => c.parentRecipientId).sort()).toEqual(survey.recipients.map((r) => r.id).sort());
  for (const child of children) {
    expect(child).toMatchObject({ status: 'SENT', title: 'Tell us' });
    const chain = await listActivities(t.platform.db, child.id);
    expect(verifyChain(chain)).toEqual([]);
    expect(chain.at(-1)).toMatchObject({ kind: 'WORKFLOW_SENT', action: 'Sent', status: 'SENT', userId: owner.userId });
    const [row] = await t.platform.db.select().from(recipients).where(eq(recipients.workflowId, child.id));
    expect(row.status).toBe('SENT');
    expect(row.dispatchedAt).not.toBeNull();
    const mails = await t.platform.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.workflowId, child.id), eq(mailOutbox.kind, 'COMMENCE')));
    expect(mails.map((m) => [m.toAddress, m.recipientId])).toEqual([[row.email, row.id]]);
    expect(mails[0].textBody).toMatch(/\/sign\/[A-Za-z0-9_-]+/);
    const { rows: jobs } = await t.platform.database.sql.executeSql(
      "select count(*)::int as n from pgboss.job where name = 'mail.deliver' and (data->>'mailId')::int = $1",
      [mails[0].id],
    );
    expect(jobs[0].n).toBe(1);
    const deliveries = await t.platform.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.workflowId, child.id));
    expect(deliveries.map((d) => d.eventType)).toEqual(['workflow.sent']);
  }
});
