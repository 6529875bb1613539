import { AppError } from '../../errors.ts';
import {
  assertMayActAsRecipient,
  ownRecipientRow,
  type RecipientRow,
  type WorkflowAccess,
} from '../workflows/workflow-access.ts';
import { isReadOnlyStatus } from '../workflows/workflow-status.ts';

/** Recipient statuses after which a row can no longer act. */
export const FINISHED_RECIPIENT_STATUSES = ['SIGNED', 'APPROVED', 'DECLINED', 'SKIPPED', 'DELEGATED'] as const;

export function isFinished(recipient: RecipientRow): boolean {
  return (FINISHED_RECIPIENT_STATUSES as readonly string[]).includes(recipient.status);
}

/**
 * The recipient row that may act now (fill, sign, approve, decline) for the caller, or an error:
 * - a business app's token never acts as a recipient (403 USER_NOT_HAVE_ACCESS, workflow-access.ts ownRecipientRow);
 * - a VOID or COMPLETED workflow is read-only (INVALID_WORKFLOW_STATUS);
 * - a SELF workflow acts in DRAFT (its owner signs without commence), every other kind only once SENT;
 * - the caller must hold a row (OPERATION_IS_NOT_ALLOWED), not yet finished (a finished recipient's
 *   link still reads and downloads, but cannot act), dispatched (its turn under ORDERED), and CC rows never act;
 * - a row with enforceIdentity must have passed the one-time code (403 IDENTITY_NOT_VERIFIED).
 */
export function actingRecipient(access: WorkflowAccess): RecipientRow {
  const recipient = recipientAllowedToAct(access);
  if (recipient.enforceIdentity && !recipient.identityVerifiedAt)
    throw new AppError('IDENTITY_NOT_VERIFIED', 'Identity not verified: complete the one-time code challenge');
  return recipient;
}

/**
 * Every rule of actingRecipient except the identity step-up: the row that may ask for and verify a
 * one-time code (which is how it passes that last rule).
 */
export function recipientAllowedToAct(access: WorkflowAccess): RecipientRow {
  assertMayActAsRecipient(access);
  const { workflow } = access;
  if (isReadOnlyStatus(workflow.status)) {
    throw new AppError('INVALID_WORKFLOW_STATUS', `Workflow is ${workflow.status} and read-only`);
  }
  const expected = workflow.sequence === 'SELF' ? 'DRAFT' : 'SENT';
  if (workflow.status !== expected) throw new AppError('INVALID_WORKFLOW_STATUS', `Workflow is ${workflow.status}`);
  const recipient = ownRecipientRow(access);
  if (recipient.role === 'CC') throw new AppError('OPERATION_IS_NOT_ALLOWED', 'A CC recipient has nothing to sign');
  if (isFinished(recipient))
    throw new AppError('OPERATION_IS_NOT_ALLOWED', `This recipient has already finished (${recipient.status})`);
  if (workflow.sequence !== 'SELF' && !recipient.dispatchedAt)
    throw new AppError('OPERATION_IS_NOT_ALLOWED', "It is not this recipient's turn yet");
  return recipient;
}
