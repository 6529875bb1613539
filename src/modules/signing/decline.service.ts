import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db } from '../../platform/db/client.ts';
import { findDeclinedRows, findRecipientsById, updateRecipient, updateWorkflowRow } from './signing.repo.ts';
import { userContact } from '../users/users.directory.ts';
import { senderMailLanguage } from '../users/mail-language.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { findWorkflowForCaller, isSurveyParent, type RecipientRow } from '../workflows/workflow-access.ts';
import { actingRecipient } from './acting-recipient.ts';
import { nextStatus } from '../workflows/workflow-status.ts';
import { DECLINE_REASON_MAX } from './decline.schemas.ts';
import { declinedMail, voidedMail } from './signing-mails.ts';
import type { SurveyService } from '../surveys/surveys.service.ts';

export type DeclineResult = { workflowId: number; recipientId: number; reason: string; rejectedAt: Date };

/** Declining (SPEC.md: SENT → VOID by POST decline) and reading who declined (reject-details). */
export function createDeclineService(deps: {
  db: Db;
  outbox: Outbox;
  surveys: Pick<SurveyService, 'endParent' | 'afterChildSettled'>;
}) {
  const { db, outbox, surveys } = deps;
  return { decline, rejectDetails };

  /**
   * The caller's row must be one that may act now (acting-recipient.ts: SENT, its turn, not finished, a
   * SIGNER or APPROVER, identity verified when flagged). The row becomes DECLINED with the reason, the
   * workflow VOID (read-only from then on), a Declined activity is recorded, the owner is mailed the reason,
   * and every other recipient already reached is told the envelope is void.
   */
  async function decline(
    caller: Caller,
    workflowId: number,
    rawReason: string,
    context: RequestContext,
  ): Promise<DeclineResult> {
    const reason = rawReason.trim();
    if (reason.length === 0) throw new AppError('INVALID_REQUEST_BODY', 'reason must not be empty or whitespace only');
    if ([...reason].length > DECLINE_REASON_MAX)
      throw new AppError('INVALID_REQUEST_BODY', `reason is longer than ${DECLINE_REASON_MAX} characters`);
    const result = await db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      if (isSurveyParent(access.workflow)) {
        const ended = await surveys.endParent(tx, caller, access, 'DECLINED', reason, context);
        return { workflowId: ended.workflowId, recipientId: 0, reason, rejectedAt: ended.endedAt };
      }
      const recipient = actingRecipient(access);
      const { workflow } = access;
      const now = new Date();
      const declined = await updateRecipient(tx, recipient.id, {
        status: 'DECLINED',
        declineReason: reason,
        actedAt: now,
      });
      const voided = await updateWorkflowRow(tx, workflow.id, {
        status: nextStatus(workflow.status, 'VOID'),
        statusAt: now,
      });
      await surveys.afterChildSettled(tx, voided);
      await recordActivity(tx, {
        workflowId: workflow.id,
        kind: 'DECLINED',
        action: 'Declined',
        sentence: `${declined.name} declined the envelope: ${reason}`,
        userId: caller.userId,
        userName: declined.name,
        recipientId: declined.id,
        status: 'DECLINED',
        context,
      });

      const contact = await userContact(tx, workflow.ownerUserId);
      // The owner and the recipients read about it in the sender's mail language, as they read the invitation.
      const language = await senderMailLanguage(tx, workflow);
      const owner = contact.email ? { ...contact, language } : null;
      const told = new Set<string>([declined.email.toLowerCase()]);
      if (owner && !told.has(owner.email.toLowerCase())) {
        told.add(owner.email.toLowerCase());
        await outbox.enqueue(tx, declinedMail({ workflow: voided, owner, decliner: declined, reason }));
      }
      const others = await findRecipientsById(tx, workflow.id);
      for (const other of others) {
        if (!other.dispatchedAt || other.status === 'DELEGATED' || told.has(other.email.toLowerCase())) continue;
        told.add(other.email.toLowerCase());
        await outbox.enqueue(
          tx,
          voidedMail({ workflow: voided, recipient: other, why: { declinedBy: declined.name }, language }),
        );
      }
      return { workflowId: workflow.id, recipientId: declined.id, reason, rejectedAt: now };
    });
    outbox.notify();
    return result;
  }

  /**
   * The owner or any recipient of the workflow (others: 404). The declined rows of the workflow, and for a
   * Power Survey parent those of its children as well.
   */
  async function rejectDetails(caller: Caller, workflowId: number): Promise<RecipientRow[]> {
    const { workflow } = await findWorkflowForCaller(db, caller, workflowId);
    return findDeclinedRows(db, workflow.id);
  }
}

export type DeclineService = ReturnType<typeof createDeclineService>;
