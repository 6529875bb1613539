import type { Db, Tx } from '../../platform/db/client.ts';
import { senderMailLanguage } from '../users/mail-language.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import { signingLink, type SigningCodes } from '../signing/signing-codes.ts';
import { reminderMail as reminderMailIn } from '../signing/signing-mails.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';
import { dueSlot } from './reminder-slots.ts';
import {
  AWAITING_STATUSES,
  claimReminderSlot,
  findDeliveredSlots,
  findRecipientById,
  findReminderCandidates,
  lockWorkflowWithOwner,
} from './reminders.repo.ts';

export type ReminderService = ReturnType<typeof createReminderService>;

export function createReminderService(deps: {
  db: Db;
  outbox: Outbox;
  codes: SigningCodes;
  publicUrl: string;
  log?: (message: string, error?: unknown) => void;
}) {
  return { runReminderSweep };

  /**
   * Mails every reminder due at `now`. Safe to run concurrently and repeatedly: a slot is claimed in
   * reminder_deliveries (unique per recipient and slot) in the same transaction as its mail.
   */
  async function runReminderSweep(now: Date): Promise<{ sent: number }> {
    const candidates = await findReminderCandidates(deps.db, now);
    const delivered = await findDeliveredSlots(
      deps.db,
      candidates.map((c) => c.recipientId),
    );
    let sent = 0;
    for (const candidate of candidates) {
      const slot = dueSlot(
        { offsetMinutes: candidate.offsetMinutes, intervalDays: candidate.intervalDays },
        candidate.dispatchedAt!,
        now,
      );
      if (slot === null || delivered.has(`${candidate.recipientId}:${slot}`)) continue;
      try {
        if (await sendReminder(candidate.workflowId, candidate.recipientId, now)) sent += 1;
      } catch (error) {
        // One broken row must not starve the others; the next sweep tries it again.
        deps.log?.(`reminder for recipient ${candidate.recipientId} failed`, error);
      }
    }
    if (sent > 0) deps.outbox.notify();
    return { sent };
  }

  /** Re-checks everything under the workflow lock: the recipient may have acted since the candidates were read. */
  async function sendReminder(workflowId: number, recipientId: number, now: Date): Promise<boolean> {
    return deps.db.transaction(async (tx) => {
      const locked = await lockWorkflowWithOwner(tx, workflowId);
      if (!locked) return false;
      const { workflow, ownerName } = locked;
      if (workflow.status !== 'SENT' || !workflow.reminderEnabled || workflow.deletedAt || workflow.sequence === 'SELF')
        return false;
      const recipient = await findRecipientById(tx, recipientId);
      if (!recipient || recipient.workflowId !== workflow.id || recipient.role === 'CC' || !recipient.dispatchedAt)
        return false;
      if (!AWAITING_STATUSES.includes(recipient.status)) return false;
      const slot = dueSlot(
        { offsetMinutes: workflow.reminderOffsetMinutes, intervalDays: workflow.reminderIntervalDays },
        recipient.dispatchedAt,
        now,
      );
      if (slot === null || !(await claimReminderSlot(tx, recipient.id, slot, now))) return false;
      // A fresh code, valid as long as a commence link, so a reminder still works after the first link expired.
      await enqueueReminderMail(
        tx,
        workflow,
        recipient,
        ownerName,
        signingLink(deps.codes, deps.publicUrl, recipient, now).url,
      );
      return true;
    });
  }

  async function enqueueReminderMail(
    tx: Tx,
    workflow: WorkflowRow,
    recipient: RecipientRow,
    ownerName: string,
    link: string,
  ) {
    // The reminder is written in the sender's mail language, as the invitation it follows.
    const language = await senderMailLanguage(tx, workflow);
    const reminderMail = (input: Parameters<typeof reminderMailIn>[0]) => reminderMailIn({ ...input, language });
    await deps.outbox.enqueue(tx, reminderMail({ workflow, recipient, senderName: ownerName, link }));
  }
}
