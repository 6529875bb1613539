import { eq, sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { test as base } from '../helpers/fixtures.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertRecipient, type TestUser } from '../helpers/factories.ts';
import { markSent, setRecipient, setWorkflow } from '../helpers/envelope-states.ts';
import { reminderDeliveries } from '../../src/platform/db/schema/index.ts';
import { createReminderService, type ReminderService } from '../../src/modules/reminders/reminders.service.ts';
import { REMINDER_SWEEP_JOB } from '../../src/modules/reminders/reminders.jobs.ts';
import { MAX_INTERVAL_REMINDERS } from '../../src/modules/reminders/reminder-slots.ts';
import { createSigningCodes, loadSigningCodeKey } from '../../src/modules/signing/signing-codes.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const test = base.override({ ownerName: 'Olivia Owner' }).extend<{ reminders: ReminderService }>({
  // Built exactly as app.ts builds it, so tests can pick the clock.
  reminders: [
    async ({ app: t }, use) => {
      await use(
        createReminderService({
          db: t.platform.db,
          outbox: t.platform.outbox,
          codes: createSigningCodes(loadSigningCodeKey(t.config.dataDir)),
          publicUrl: t.config.publicUrl,
        }),
      );
    },
    { scope: 'file' },
  ],
});

/**
 * A SENT workflow whose recipients were dispatched at `dispatchedAt`. Tests put that instant weeks ahead
 * of the real clock, so the app's own per-minute sweep (real time) never finds these reminders due and
 * only the sweeps a test runs with its chosen clock send them.
 */
async function sentWorkflow(
  t: TestApp,
  owner: TestUser,
  reminder: { offsetMinutes?: number; intervalDays?: number; enabled?: boolean },
  options: { sequence?: 'ORDERED' | 'UNORDERED'; roles?: string[] } = {},
) {
  const dispatchedAt = new Date(Date.now() + 60 * DAY + Math.floor(Math.random() * DAY));
  const { workflow } = await createDraftWorkflow(t, owner, {
    sequence: options.sequence ?? 'UNORDERED',
    name: 'Lease renewal',
  });
  const recipients = [];
  for (const [index, role] of (options.roles ?? ['SIGNER']).entries()) {
    const person = await createUser(t, { name: `Person ${String.fromCharCode(65 + index)}` });
    recipients.push(
      await insertRecipient(t, workflow.id, {
        userId: person.userId,
        name: person.name,
        email: person.email,
        role,
        recipientOrder: options.sequence === 'ORDERED' ? index + 1 : null,
      }),
    );
  }
  await setWorkflow(t, workflow.id, {
    reminderEnabled: reminder.enabled ?? true,
    reminderOffsetMinutes: reminder.offsetMinutes ?? null,
    reminderIntervalDays: reminder.intervalDays ?? null,
    title: 'Please sign the lease',
  });
  await markSent(
    t,
    workflow.id,
    recipients.map((r) => r.id),
    dispatchedAt,
  );
  return { workflow, recipients, dispatchedAt, at: (ms: number) => new Date(dispatchedAt.getTime() + ms) };
}

async function reminderMails(t: TestApp, workflowId: number) {
  return (await t.mails({ kind: 'REMINDER' })).filter((m) => m.workflowId === workflowId);
}

describe('reminder sweep', () => {
  test('offsetMinutes: one reminder that many minutes after receipt, carrying a working signing link', async ({
    app: t,
    owner,
    reminders,
  }) => {
    const {
      workflow,
      recipients: [recipient],
      at,
    } = await sentWorkflow(t, owner, { offsetMinutes: 90 });
    expect(await reminders.runReminderSweep(at(90 * MINUTE - 1))).toEqual({ sent: 0 });
    expect(await reminders.runReminderSweep(at(90 * MINUTE))).toEqual({ sent: 1 });
    expect(await reminders.runReminderSweep(at(90 * MINUTE + 1))).toEqual({ sent: 0 });
    expect(await reminders.runReminderSweep(at(40 * DAY))).toEqual({ sent: 0 });

    const [mail] = await reminderMails(t, workflow.id);
    expect(mail).toMatchObject({
      toAddress: recipient.email,
      subject: 'Reminder: Please sign the lease',
      recipientId: recipient.id,
      organizationId: owner.organizationId,
      status: 'SENT',
    });
    expect(mail.textBody).toContain('Olivia Owner is still waiting for you to sign "Lease renewal"');
    const code = new RegExp(`${t.config.publicUrl}/sign/([A-Za-z0-9_-]+)`).exec(mail.textBody)?.[1];
    expect(code).toBeTruthy();
    const redeemed = await t.request('GET', `/auth/v1/getGuestToken/${code}`);
    expect(redeemed.status).toBe(200);
    expect(redeemed.body.workflowId).toBe(workflow.id);
  });

  test('offsetMinutes wins over intervalDays', async ({ app: t, owner, reminders }) => {
    const { at } = await sentWorkflow(t, owner, { offsetMinutes: 30, intervalDays: 1 });
    expect(await reminders.runReminderSweep(at(30 * MINUTE))).toEqual({ sent: 1 });
    expect(await reminders.runReminderSweep(at(DAY))).toEqual({ sent: 0 });
    expect(await reminders.runReminderSweep(at(3 * DAY))).toEqual({ sent: 0 });
  });

  test('intervalDays: every N days from the start of the turn, one mail per slot, no burst after downtime, capped', async ({
    app: t,
    owner,
    reminders,
  }) => {
    const {
      workflow,
      recipients: [recipient],
      at,
    } = await sentWorkflow(t, owner, { intervalDays: 2 });
    expect(await reminders.runReminderSweep(at(2 * DAY - 1))).toEqual({ sent: 0 });
    expect(await reminders.runReminderSweep(at(2 * DAY))).toEqual({ sent: 1 });
    expect(await reminders.runReminderSweep(at(3 * DAY))).toEqual({ sent: 0 });
    expect(await reminders.runReminderSweep(at(4 * DAY))).toEqual({ sent: 1 });
    // Down for a week: only the latest due slot goes out.
    expect(await reminders.runReminderSweep(at(11 * DAY))).toEqual({ sent: 1 });
    expect(await reminders.runReminderSweep(at(11 * DAY + MINUTE))).toEqual({ sent: 0 });
    expect(await reminders.runReminderSweep(at(400 * DAY))).toEqual({ sent: 1 });
    expect(await reminders.runReminderSweep(at(800 * DAY))).toEqual({ sent: 0 });

    const slots = await t.platform.db
      .select({ slot: reminderDeliveries.slot })
      .from(reminderDeliveries)
      .where(eq(reminderDeliveries.recipientId, recipient.id));
    expect(slots.map((s) => s.slot).sort((a, b) => a - b)).toEqual([1, 2, 5, MAX_INTERVAL_REMINDERS]);
    expect(await reminderMails(t, workflow.id)).toHaveLength(4);
  });

  test('never sends the same slot twice under concurrent sweeps', async ({ app: t, owner, reminders }) => {
    const { workflow, recipients, at } = await sentWorkflow(
      t,
      owner,
      { offsetMinutes: 10 },
      { roles: ['SIGNER', 'APPROVER', 'SIGNER'] },
    );
    const results = await Promise.all([1, 2, 3, 4].map(() => reminders.runReminderSweep(at(11 * MINUTE))));
    expect(results.reduce((sum, r) => sum + r.sent, 0)).toBe(3);
    const mails = await reminderMails(t, workflow.id);
    expect(mails.map((m) => m.recipientId).sort()).toEqual(recipients.map((r) => r.id).sort());
    expect(mails.find((m) => m.recipientId === recipients[1].id)!.textBody).toContain('waiting for you to approve');
  });

  test('stops once the recipient has acted or the workflow has left SENT', async ({ app: t, owner, reminders }) => {
    const signed = await sentWorkflow(t, owner, { offsetMinutes: 5 }, { roles: ['SIGNER', 'SIGNER'] });
    await setRecipient(t, signed.recipients[0].id, { status: 'SIGNED', actedAt: signed.at(MINUTE) });
    await setRecipient(t, signed.recipients[1].id, { status: 'VIEWED', viewedAt: signed.at(MINUTE) });
    expect(await reminders.runReminderSweep(signed.at(5 * MINUTE))).toEqual({ sent: 1 });
    expect((await reminderMails(t, signed.workflow.id)).map((m) => m.recipientId)).toEqual([signed.recipients[1].id]);

    for (const status of ['VOID', 'COMPLETED']) {
      const left = await sentWorkflow(t, owner, { intervalDays: 1 });
      expect(await reminders.runReminderSweep(left.at(DAY))).toEqual({ sent: 1 });
      await setWorkflow(t, left.workflow.id, { status });
      expect(await reminders.runReminderSweep(left.at(2 * DAY))).toEqual({ sent: 0 });
    }
    for (const status of ['DECLINED', 'DELEGATED', 'APPROVED']) {
      const finished = await sentWorkflow(t, owner, { offsetMinutes: 5 });
      await setRecipient(t, finished.recipients[0].id, { status });
      expect(await reminders.runReminderSweep(finished.at(DAY))).toEqual({ sent: 0 });
    }
  });

  test("sends nothing when reminders are disabled, to CC rows, or before a recipient's ORDERED turn", async ({
    app: t,
    owner,
    reminders,
  }) => {
    const disabled = await sentWorkflow(t, owner, { offsetMinutes: 5, enabled: false });
    expect(await reminders.runReminderSweep(disabled.at(DAY))).toEqual({ sent: 0 });

    const cc = await sentWorkflow(t, owner, { offsetMinutes: 5 }, { roles: ['CC'] });
    expect(await reminders.runReminderSweep(cc.at(DAY))).toEqual({ sent: 0 });

    const ordered = await sentWorkflow(
      t,
      owner,
      { offsetMinutes: 60 },
      { sequence: 'ORDERED', roles: ['SIGNER', 'SIGNER'] },
    );
    await setRecipient(t, ordered.recipients[1].id, { status: 'PENDING', dispatchedAt: null });
    expect(await reminders.runReminderSweep(ordered.at(2 * 60 * MINUTE))).toEqual({ sent: 1 });
    // The second turn begins later; its reminder counts from its own dispatch.
    await setRecipient(t, ordered.recipients[0].id, { status: 'SIGNED' });
    await setRecipient(t, ordered.recipients[1].id, { status: 'SENT', dispatchedAt: ordered.at(DAY) });
    expect(await reminders.runReminderSweep(ordered.at(DAY + 59 * MINUTE))).toEqual({ sent: 0 });
    expect(await reminders.runReminderSweep(ordered.at(DAY + 60 * MINUTE))).toEqual({ sent: 1 });
    expect((await reminderMails(t, ordered.workflow.id)).map((m) => m.recipientId)).toEqual(
      ordered.recipients.map((r) => r.id),
    );
  });

  test('runs as a cron job through the queue, mailing what is due now', async ({ app: t, owner }) => {
    const { rows } = await t.platform.database.sql.executeSql(
      'select name, cron from pgboss.schedule where name = $1',
      [REMINDER_SWEEP_JOB.name],
    );
    expect(rows).toEqual([{ name: REMINDER_SWEEP_JOB.name, cron: '* * * * *' }]);

    const due = await sentWorkflow(t, owner, { offsetMinutes: 15 });
    await setRecipient(t, due.recipients[0].id, { dispatchedAt: new Date(Date.now() - 20 * MINUTE) });
    await t.platform.jobs.send(null, REMINDER_SWEEP_JOB, {});
    t.platform.jobs.notify(REMINDER_SWEEP_JOB);
    await t.drainJobs();
    expect(await reminderMails(t, due.workflow.id)).toHaveLength(1);
    await t.platform.jobs.send(null, REMINDER_SWEEP_JOB, {});
    await t.drainJobs();
    expect(await reminderMails(t, due.workflow.id)).toHaveLength(1);
    const count = await t.platform.db.execute(
      sql`select count(*)::int as n from reminder_deliveries where recipient_id = ${due.recipients[0].id}`,
    );
    expect((count as any).rows[0].n).toBe(1);
  });
});
