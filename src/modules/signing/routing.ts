import type { Tx } from '../../platform/db/client.ts';
import { updateRecipients } from './signing.repo.ts';
import { findRecipientsInSigningOrder } from '../workflows/workflow-access.ts';
import { userDisplayName } from '../users/users.directory.ts';
import type { MailLanguage } from '../../platform/mail/messages/index.ts';
import { senderMailLanguage } from '../users/mail-language.ts';
import type { OutgoingMail, Outbox } from '../../platform/mail/outbox.ts';
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
 * The caller holds the workflow row lock, passes the row it read under that lock (nothing in its transaction has
 * changed it since), and calls outbox.notify() after the commit.
 * allDone is true when no action-required (SIGNER/APPROVER, not DELEGATED) row remains unfinished; approvalsOnly when
 * every action-required row is an APPROVER.
 */
export async function advanceRouting(
  tx: Tx,
  deps: RoutingDeps,
  workflow: WorkflowRow,
): Promise<{ allDone: boolean; approvalsOnly: boolean; dispatchedRecipientIds: number[] }> {
  const rows = await findRecipientsInSigningOrder(tx, workflow.id);
  const [outcome] = await advanceRoutingMany(tx, deps, [workflow], new Map([[workflow.id, rows]]));
  return outcome;
}

/**
 * advanceRouting for workflows whose rows the caller has already read (`rows`, in signing order, per workflow; one
 * workflow after a send, a batch of Power Survey children): the same decisions, written with a statement per
 * distinct new recipient status and one multi-row mail insert (outbox.enqueueMany) for them all. Results are in
 * the order of `workflows`.
 */
export async function advanceRoutingMany(
  tx: Tx,
  deps: RoutingDeps,
  workflows: WorkflowRow[],
  rows: Map<number, RecipientRow[]>,
): Promise<{ allDone: boolean; approvalsOnly: boolean; dispatchedRecipientIds: number[] }[]> {
  const now = new Date();
  const steps = workflows.map((workflow) => nextStep(workflow, rows.get(workflow.id) ?? []));
  // A sender's name and mail language, asked once per sender and organization (a Power Survey batch shares both).
  const senderNames = new Map<number, string>();
  const languages = new Map<string, MailLanguage>();
  const languageKey = (workflow: WorkflowRow) => `${workflow.ownerUserId}:${workflow.organizationId}`;
  for (const [index, workflow] of workflows.entries()) {
    if (steps[index].actions.length === 0) continue;
    if (!senderNames.has(workflow.ownerUserId))
      senderNames.set(workflow.ownerUserId, await userDisplayName(tx, workflow.ownerUserId));
    if (!languages.has(languageKey(workflow)))
      languages.set(languageKey(workflow), await senderMailLanguage(tx, workflow));
  }
  // Rows that move to the same status (a CC row SKIPPED, a dispatched one SENT or, once opened, as it was) are updated together.
  const byStatus = new Map<string, number[]>();
  for (const { row, notify } of steps.flatMap((step) => step.actions)) {
    const status = notify ? 'SKIPPED' : row.status === 'PENDING' ? 'SENT' : row.status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), row.id]);
  }
  const updated = new Map<number, RecipientRow>();
  for (const [status, ids] of byStatus)
    for (const row of await updateRecipients(tx, ids, { status, dispatchedAt: now })) updated.set(row.id, row);
  const mails: OutgoingMail[] = workflows.flatMap((workflow, index) =>
    steps[index].actions.map(({ row, notify, delegatedBy }) => {
      const recipient = updated.get(row.id)!;
      const { url, expiresAt } = signingLink(deps.codes, deps.publicUrl, recipient, now);
      const senderName = senderNames.get(workflow.ownerUserId)!;
      const language = languages.get(languageKey(workflow));
      return notify
        ? ccNotificationMail({ workflow, recipient, senderName, link: url, expiresAt, language })
        : commenceMail({ workflow, recipient, senderName, link: url, expiresAt, delegatedBy, language });
    }),
  );
  await deps.outbox.enqueueMany(tx, mails);
  return steps.map(outcomeOf);
}

type Step = {
  actions: { row: RecipientRow; notify: boolean; delegatedBy?: string }[];
  allDone: boolean;
  approvalsOnly: boolean;
};

/**
 * What advancing a workflow does, decided from its row and its recipients in signing order (see advanceRouting):
 * the rows to notify (CC) or dispatch, in that order.
 */
function nextStep(workflow: WorkflowRow, rows: RecipientRow[]): Step {
  const actions: Step['actions'] = [];
  if (workflow.status === 'SENT' && workflow.sequence !== 'SELF') {
    const reached = workflow.sequence === 'ORDERED' ? reachedInOrder(rows) : rows;
    for (const row of reached) {
      if (row.role === 'CC') {
        if (row.status === 'PENDING') actions.push({ row, notify: true });
      } else if (isActionRequired(row) && !isFinished(row) && !row.dispatchedAt) {
        actions.push({ row, notify: false, delegatedBy: rows.find((r) => r.delegatedToRecipientId === row.id)?.name });
      }
    }
  }
  const allDone = !rows.some((r) => isActionRequired(r) && !isFinished(r));
  // A workflow that only ever asked for approvals ends APPROVED rather than COMPLETED (workflow-status.ts).
  const approvalsOnly =
    workflow.sequence !== 'SELF' && rows.filter(isActionRequired).every((r) => r.role === 'APPROVER');
  return { actions, allDone, approvalsOnly };
}

function outcomeOf(step: Step): { allDone: boolean; approvalsOnly: boolean; dispatchedRecipientIds: number[] } {
  return {
    allDone: step.allDone,
    approvalsOnly: step.approvalsOnly,
    dispatchedRecipientIds: step.actions.filter((a) => !a.notify).map((a) => a.row.id),
  };
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
