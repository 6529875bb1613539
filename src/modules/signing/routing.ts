import type { Tx } from '../../platform/db/client.ts';
import { findWorkflowRow, updateRecipient } from './signing.repo.ts';
import { findRecipientsInSigningOrder } from '../workflows/workflow-access.ts';
import { userDisplayName } from '../users/users.directory.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';
import { isFinished } from './acting-recipient.ts';
import { signingLink, type SigningCodes } from './signing-codes.ts';
import { ccNotificationMail, commenceMail } from './signing-mails.ts';

export type RoutingDeps = { outbox: Outbox; publicUrl: string; codes: SigningCodes };

/** SIGNER and APPROVER rows owe an action; CC rows are only told. A DELEGATED row's task moved to its delegate. */
export function isActionRequired(recipient: RecipientRow): boolean {
  return (recipient.role === 'SIGNER' || recipient.role === 'APPROVER') && recipient.status !== 'DELEGATED';
}

/**
 * Moves a SENT (or SELF DRAFT) workflow forward inside `tx`, after commence, after a recipient finished, or
 * after a delegation. Idempotent: a row already dispatched is not dispatched again.
 * - ORDERED: walks the rows by recipientOrder (then id); CC rows reached on the way are marked SKIPPED and
 *   sent a CC notification; the first unfinished action-required row is dispatched unless it already was,
 *   and the walk stops there. CC rows after the last signer are notified once the last one finishes.
 * - UNORDERED: dispatches every unfinished action-required row not yet dispatched and notifies every CC
 *   row at once (they are SKIPPED at commence).
 * - SELF: nothing is mailed (the owner signs their own draft); only allDone is computed.
 * Dispatch = status SENT, dispatchedAt = now, the commence mail with a fresh signing link queued in `tx`.
 * The caller holds the workflow row lock and calls outbox.notify() after the commit.
 * allDone is true when no action-required (SIGNER/APPROVER, not DELEGATED) row remains unfinished; approvalsOnly when
 * every action-required row is an APPROVER.
 */
export async function advanceRouting(tx: Tx, deps: RoutingDeps, workflowId: number): Promise<{ allDone: boolean; approvalsOnly: boolean; dispatchedRecipientIds: number[] }> {
  const workflow = await findWorkflowRow(tx, workflowId);
  if (!workflow) throw new Error(`advanceRouting: workflow ${workflowId} does not exist`);
  const rows = await findRecipientsInSigningOrder(tx, workflowId);

  const dispatchedRecipientIds: number[] = [];
  if (workflow.status === 'SENT' && workflow.sequence !== 'SELF') {
    const senderName = await userDisplayName(tx, workflow.ownerUserId, 'The sender');
    const now = new Date();
    const reached = workflow.sequence === 'ORDERED' ? reachedInOrder(rows) : rows;
    for (const row of reached) {
      if (row.role === 'CC') {
        if (row.status === 'PENDING') await notifyCc(tx, deps, workflow, row, senderName, now);
      } else if (isActionRequired(row) && !isFinished(row) && !row.dispatchedAt) {
        const delegator = rows.find((r) => r.delegatedToRecipientId === row.id);
        await dispatchRecipient(tx, deps, workflow, row, senderName, now, delegator?.name);
        dispatchedRecipientIds.push(row.id);
      }
    }
  }
  const allDone = !rows.some((r) => isActionRequired(r) && !isFinished(r));
  // A workflow that only ever asked for approvals ends APPROVED rather than COMPLETED (workflow-status.ts).
  const approvalsOnly = workflow.sequence !== 'SELF' && rows.filter(isActionRequired).every((r) => r.role === 'APPROVER');
  return { allDone, approvalsOnly, dispatchedRecipientIds };
}

/** ORDERED: the rows the sequence has reached: everything up to and including the first unfinished action-required row. */
function reachedInOrder(rows: RecipientRow[]): RecipientRow[] {
  const reached: RecipientRow[] = [];
  for (const row of rows) {
    if (row.status === 'DELEGATED') continue;
    reached.push(row);
    if (isActionRequired(row) && !isFinished(row)) break;
  }
  return reached;
}

/**
 * Hands one recipient its turn: status SENT (a row that already opened its link keeps VIEWED), dispatchedAt,
 * and the commence mail. `delegatedBy` names who passed the task on, for the mail text.
 */
async function dispatchRecipient(tx: Tx, deps: RoutingDeps, workflow: WorkflowRow, row: RecipientRow, senderName: string, now: Date, delegatedBy?: string): Promise<void> {
  const status = row.status === 'PENDING' ? 'SENT' : row.status;
  const updated = await updateRecipient(tx, row.id, { status, dispatchedAt: now });
  const { url, expiresAt } = signingLink(deps.codes, deps.publicUrl, updated, now);
  await deps.outbox.enqueue(tx, commenceMail({ workflow, recipient: updated, senderName, link: url, expiresAt, delegatedBy }));
}

async function notifyCc(tx: Tx, deps: RoutingDeps, workflow: WorkflowRow, row: RecipientRow, senderName: string, now: Date): Promise<void> {
  const updated = await updateRecipient(tx, row.id, { status: 'SKIPPED', dispatchedAt: now });
  const { url, expiresAt } = signingLink(deps.codes, deps.publicUrl, updated, now);
  await deps.outbox.enqueue(tx, ccNotificationMail({ workflow, recipient: updated, senderName, link: url, expiresAt }));
}
