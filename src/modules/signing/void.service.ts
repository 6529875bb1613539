import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import type { MailLanguage } from '../../platform/mail/messages/index.ts';
import { senderMailLanguage } from '../users/mail-language.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import { recordActivity } from '../activities/activities.service.ts';
import type { SurveyService } from '../surveys/surveys.service.ts';
import { userContact } from '../users/users.directory.ts';
import {
  assertOwner,
  findRecipientsInSigningOrderMany,
  findWorkflowForCaller,
  isSurveyParent,
  type RecipientRow,
  type WorkflowRow,
} from '../workflows/workflow-access.ts';
import { nextStatus } from '../workflows/workflow-status.ts';
import { isFinished } from './acting-recipient.ts';
import { findRecipientsById, findWorkflowRows, updateWorkflowRow } from './signing.repo.ts';
import { type VoidCause, voidedMail } from './signing-mails.ts';
import { VOID_REASON_MAX } from './void.schemas.ts';

export type VoidResult = { workflowId: number; reason: string; voidedAt: Date };

/**
 * Voiding a sent envelope (RUNTIME.md "Voiding a sent envelope"): the owner cancels a SENT workflow with a reason.
 * Declining is the recipient's way to the same VOID status (decline.service.ts).
 */
export function createVoidService(deps: {
  db: Db;
  outbox: Outbox;
  surveys: Pick<SurveyService, 'endParent' | 'afterChildSettled'>;
}) {
  const { db, outbox, surveys } = deps;
  return { voidWorkflow };

  /**
   * Owner only (a recipient who can see it: INVALID_WORKFLOW_OWNER; anyone else 404), SENT only
   * (INVALID_WORKFLOW_STATUS). The workflow becomes VOID, a Voided activity is recorded (the `workflow.voided`
   * webhook follows from it), and every recipient who was reached and has not finished is mailed the reason;
   * their links stop working from then on (guest-access.service.ts), a finished recipient's link still reads.
   * A Power Survey parent voids its pending children, whose recipients are told the same way.
   */
  async function voidWorkflow(
    caller: Caller,
    workflowId: number,
    rawReason: string,
    context: RequestContext,
  ): Promise<VoidResult> {
    const reason = rawReason.trim();
    if (reason.length === 0) throw new AppError('INVALID_REQUEST_BODY', 'reason must not be empty or whitespace only');
    if ([...reason].length > VOID_REASON_MAX)
      throw new AppError('INVALID_REQUEST_BODY', `reason is longer than ${VOID_REASON_MAX} characters`);
    const result = await db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      assertOwner(access);
      const owner = await userContact(tx, access.workflow.ownerUserId);
      const ownerName = owner.name || 'The sender';
      const why: VoidCause = { voidedBy: owner.name, reason };
      if (isSurveyParent(access.workflow)) {
        const ended = await surveys.endParent(tx, caller, access, 'VOIDED', reason, context);
        const children = await findWorkflowRows(tx, ended.voidedChildIds);
        const rowsOf = await findRecipientsInSigningOrderMany(tx, ended.voidedChildIds);
        await tellRecipients(
          tx,
          children.map((child) => ({ workflow: child, rows: rowsOf.get(child.id) ?? [] })),
          why,
          owner.email,
        );
        return { workflowId: ended.workflowId, reason, voidedAt: ended.endedAt };
      }
      const now = new Date();
      const voided = await updateWorkflowRow(tx, access.workflow.id, {
        status: nextStatus(access.workflow.status, 'VOID'),
        statusAt: now,
      });
      await surveys.afterChildSettled(tx, voided);
      await recordActivity(tx, {
        workflowId: voided.id,
        kind: 'VOIDED',
        action: 'Voided',
        sentence: `${ownerName} voided the envelope: ${reason}`,
        userId: caller.userId,
        userName: ownerName,
        status: voided.status,
        context,
      });
      await tellRecipients(tx, [{ workflow: voided, rows: await findRecipientsById(tx, voided.id) }], why, owner.email);
      return { workflowId: voided.id, reason, voidedAt: now };
    });
    outbox.notify();
    return result;
  }

  /**
   * One VOIDED mail per address reached and not finished (copy recipients included), per workflow, in one insert (a survey's children can be
   * many), in the sender's mail language; the owner, who voided it, is not told.
   */
  async function tellRecipients(
    tx: Tx,
    envelopes: { workflow: WorkflowRow; rows: RecipientRow[] }[],
    why: VoidCause,
    ownerEmail: string,
  ): Promise<void> {
    const mails = [];
    // A survey's children share their sender and organization: the language is asked once per pair.
    const languages = new Map<string, MailLanguage>();
    for (const { workflow, rows } of envelopes) {
      const key = `${workflow.ownerUserId}:${workflow.organizationId}`;
      if (!languages.has(key)) languages.set(key, await senderMailLanguage(tx, workflow));
      const language = languages.get(key);
      const told = new Set<string>([ownerEmail.toLowerCase()]);
      for (const row of rows) {
        // A copy recipient (SKIPPED once told) was promised the finished document, so it hears why none comes.
        const waiting = row.role === 'CC' ? row.status !== 'DELEGATED' : !isFinished(row);
        if (!row.dispatchedAt || !waiting || told.has(row.email.toLowerCase())) continue;
        told.add(row.email.toLowerCase());
        mails.push(voidedMail({ workflow, recipient: row, why, language }));
      }
    }
    if (mails.length > 0) await outbox.enqueueMany(tx, mails);
  }
}

export type VoidService = ReturnType<typeof createVoidService>;
