import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Tx } from '../../platform/db/client.ts';
import { recordActivities, type ActivityInput } from '../activities/activities.service.ts';
import { assertMaySend, debitCredit } from '../billing/entitlements.service.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';
import { nextStatus, type WorkflowStatus } from '../workflows/workflow-status.ts';
import { countDocumentsOf, updateWorkflowRows } from './signing.repo.ts';
import { findRecipientsInSigningOrderMany } from '../workflows/workflow-access.ts';
import { assertSenderVerified, userDisplayName } from '../users/users.directory.ts';
import { assertActiveMemberOf } from '../organizations/organization-membership.ts';
import { advanceRoutingMany, isActionRequired, type RoutingDeps } from './routing.ts';

export type SendResult = { workflowId: number; sentAt: Date; dispatchedRecipientIds: number[]; credits: number };

/**
 * DRAFT → SENT, the one way a workflow goes out (POST commence, template dispatch, a Power Survey child). Runs in
 * the caller's transaction with the workflow row locked, after the caller decided who may send it. Checks, in
 * order: the sender's verified address (EMAIL_NOT_VERIFIED), the sender's ACTIVE membership of the workflow's organization
 * (USER_NOT_HAVE_ACCESS), DRAFT (INVALID_WORKFLOW_STATUS), content (documents, recipients, an action-required one:
 * OPERATION_IS_NOT_ALLOWED; a signer without a signature field is sent too, RUNTIME.md, and finishes when its required
 * fields are filled, the web app warning the sender first), then the organization's plan (PACKAGE_EXPIRED, SERVICE_PLAN_INACTIVE,
 * SHARING_NOT_ALLOWED, INSUFFICIENT_CREDITS). One credit is debited with the status change, the Sent activity and
 * the first dispatch mails. The caller calls `routing.outbox.notify()` after the commit.
 */
export async function sendWorkflow(
  tx: Tx,
  routing: RoutingDeps,
  workflow: WorkflowRow,
  sender: { userId: number },
  message: { title: string | null; message: string | null },
  context: Partial<RequestContext>,
  options: { prepaid?: { credits: number } } = {},
): Promise<SendResult> {
  // A prepaid send (a Power Survey child) had its sender checked when the parent commenced.
  if (!options.prepaid) {
    await assertSenderVerified(tx, sender.userId);
    await assertActiveMemberOf(tx, workflow.organizationId, sender.userId);
  }
  const [sent] = await sendDrafts(tx, routing, [workflow], sender, message, context);
  // The plan's checks and the debit come last, after writes that cannot fail on their own (so the errors are still the
  // plan's, and a refusal rolls the writes back): they lock the organization's row until the commit, which serializes
  // the sends of one organization, and this holds it for the debit and the commit only, not the whole send (measured:
  // commence waited for that lock most of its 270-310 ms p50 on PostgreSQL, bench/README.md "Lifecycle throughput").
  // A Power Survey child was paid for, and its plan checked, when its parent commenced (entitlements debitSurvey).
  if (!options.prepaid) await assertMaySend(tx, workflow.organizationId, sent.sentAt, sender.userId);
  const credits = options.prepaid ? options.prepaid.credits : await debitCredit(tx, workflow.organizationId);
  return { ...sent, credits };
}

/**
 * sendWorkflow for many prepaid DRAFTs of one sender at once (a Power Survey batch: the children its transaction
 * has just created, paid for when the parent commenced). Results are in the order of `workflows`. The caller calls
 * `routing.outbox.notify()` after the commit.
 */
export async function sendWorkflows(
  tx: Tx,
  routing: RoutingDeps,
  workflows: WorkflowRow[],
  sender: { userId: number },
  message: { title: string | null; message: string | null },
  context: Partial<RequestContext>,
  options: { prepaid: { credits: number } },
): Promise<SendResult[]> {
  return (await sendDrafts(tx, routing, workflows, sender, message, context)).map((sent) => ({
    ...sent,
    credits: options.prepaid.credits,
  }));
}

/**
 * What every send does, for one workflow or a batch: the content checks, in order and with the same errors (the first
 * failing workflow's), then the writes (status, Sent activity, dispatch and mails) in a handful of multi-row
 * statements for the whole batch.
 */
async function sendDrafts(
  tx: Tx,
  routing: RoutingDeps,
  workflows: WorkflowRow[],
  sender: { userId: number },
  message: { title: string | null; message: string | null },
  context: Partial<RequestContext>,
): Promise<Omit<SendResult, 'credits'>[]> {
  if (workflows.length === 0) return [];
  const ids = workflows.map((workflow) => workflow.id);
  for (const workflow of workflows)
    if (workflow.status !== 'DRAFT')
      throw new AppError('INVALID_WORKFLOW_STATUS', `Workflow is ${workflow.status}; only a DRAFT can be sent`);
  const documentCounts = await countDocumentsOf(tx, ids);
  const rowsOf = await findRecipientsInSigningOrderMany(tx, ids);
  for (const workflow of workflows) {
    if (!documentCounts.get(workflow.id))
      throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The workflow has no document to send');
    assertSendable(rowsOf.get(workflow.id) ?? []);
  }

  const now = new Date();
  const status = nextStatus('DRAFT', 'SEND');
  const sent = new Map(
    (
      await updateWorkflowRows(tx, ids, {
        status,
        sentAt: now,
        statusAt: now,
        title: message.title,
        message: message.message,
      })
    ).map((row) => [row.id, row]),
  );
  const senderName = await userDisplayName(tx, sender.userId, 'The owner');
  await recordActivities(
    tx,
    workflows.map((workflow) =>
      sentActivity(workflow.id, rowsOf.get(workflow.id) ?? [], sender, senderName, status, context),
    ),
  );
  // The rows read above are still the workflows': the send changed only the workflow rows.
  const routed = await advanceRoutingMany(
    tx,
    routing,
    ids.map((id) => sent.get(id)!),
    rowsOf,
  );
  return workflows.map((workflow, index) => ({
    workflowId: workflow.id,
    sentAt: now,
    dispatchedRecipientIds: routed[index].dispatchedRecipientIds,
  }));
}

function sentActivity(
  workflowId: number,
  rows: RecipientRow[],
  sender: { userId: number },
  senderName: string,
  status: WorkflowStatus,
  context: Partial<RequestContext>,
): ActivityInput {
  return {
    workflowId,
    kind: 'WORKFLOW_SENT',
    action: 'Sent',
    sentence: `${senderName} sent the envelope to ${describeRecipients(rows)}`,
    userId: sender.userId,
    userName: senderName,
    status,
    context,
  };
}

/** Content a workflow needs before it can go out: a recipient, and one who must act. */
function assertSendable(rows: RecipientRow[]): void {
  if (rows.length === 0)
    throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The workflow has no recipients: add at least one before sending');
  if (!rows.some(isActionRequired))
    throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The workflow has only CC recipients: add a signer or an approver');
}

function describeRecipients(rows: RecipientRow[]): string {
  const names = rows.filter((r) => !r.isHidden).map((r) => r.name);
  if (names.length <= 3) return names.join(', ') || 'its recipients';
  return `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}
