import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Tx } from '../../platform/db/client.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { assertMaySend, debitCredit } from '../billing/entitlements.service.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';
import { nextStatus } from '../workflows/workflow-status.ts';
import { countDocuments, findRecipientsWithSignatureField, updateWorkflowRow } from './signing.repo.ts';
import { findRecipientsInSigningOrder } from '../workflows/workflow-access.ts';
import { userDisplayName } from '../users/users.directory.ts';
import { advanceRouting, isActionRequired, type RoutingDeps } from './routing.ts';

export type SendResult = { workflowId: number; sentAt: Date; dispatchedRecipientIds: number[]; credits: number };

/**
 * DRAFT → SENT, the one way a workflow goes out (POST commence, template dispatch, a Power Survey child). Runs in
 * the caller's transaction with the workflow row locked, after the caller decided who may send it. Checks, in
 * order: DRAFT (INVALID_WORKFLOW_STATUS), content (documents, recipients, an action-required one, a signing field
 * per signer: OPERATION_IS_NOT_ALLOWED), then the organization's plan (PACKAGE_EXPIRED, SERVICE_PLAN_INACTIVE,
 * SHARING_NOT_ALLOWED, INSUFFICIENT_CREDITS). One credit is debited with the status change, the Sent activity and
 * the first dispatch mails. The caller calls `routing.outbox.notify()` after the commit.
 */
export async function sendWorkflow(tx: Tx, routing: RoutingDeps, workflow: WorkflowRow, sender: { userId: number }, message: { title: string | null; message: string | null }, context: Partial<RequestContext>, options: { prepaid?: { credits: number } } = {}): Promise<SendResult> {
  if (workflow.status !== 'DRAFT') throw new AppError('INVALID_WORKFLOW_STATUS', `Workflow is ${workflow.status}; only a DRAFT can be sent`);
  if ((await countDocuments(tx, workflow.id)) === 0) throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The workflow has no document to send');
  const rows = await findRecipientsInSigningOrder(tx, workflow.id);
  if (rows.length === 0) throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The workflow has no recipients: add at least one before sending');
  if (!rows.some(isActionRequired)) throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The workflow has only CC recipients: add a signer or an approver');
  await assertEverySignerCanSign(tx, workflow.id, rows);

  const now = new Date();
  // A Power Survey child was paid for, and its plan checked, when its parent commenced (entitlements debitSurvey).
  if (!options.prepaid) await assertMaySend(tx, workflow.organizationId, now, sender.userId);
  const credits = options.prepaid ? options.prepaid.credits : await debitCredit(tx, workflow.organizationId);

  const status = nextStatus(workflow.status, 'SEND');
  await updateWorkflowRow(tx, workflow.id, { status, sentAt: now, statusAt: now, title: message.title, message: message.message });
  const senderName = await userDisplayName(tx, sender.userId, 'The owner');
  await recordActivity(tx, {
    workflowId: workflow.id,
    kind: 'WORKFLOW_SENT',
    action: 'Sent',
    sentence: `${senderName} sent the envelope to ${describeRecipients(rows)}`,
    userId: sender.userId,
    userName: senderName,
    status,
    context,
  });
  const routed = await advanceRouting(tx, routing, workflow.id);
  return { workflowId: workflow.id, sentAt: now, dispatchedRecipientIds: routed.dispatchedRecipientIds, credits };
}

/**
 * A signer finishes when its SIGNATURE and INITIALS fields are filled (RUNTIME.md), so a signer with none
 * would have nothing to sign. Unlike services that add a free-form signature at signing time, the service
 * refuses to send and names the signers, so the owner places their fields first.
 */
async function assertEverySignerCanSign(tx: Tx, workflowId: number, rows: RecipientRow[]): Promise<void> {
  const signers = rows.filter((r) => r.role === 'SIGNER' && r.status !== 'DELEGATED');
  const withField = await findRecipientsWithSignatureField(tx, workflowId, signers.map((r) => r.id));
  const missing = signers.filter((r) => !withField.has(r.id));
  if (missing.length === 0) return;
  throw new AppError(
    'OPERATION_IS_NOT_ALLOWED',
    `Every signer needs a SIGNATURE or INITIALS field; missing for: ${missing.map((r) => `${r.name} <${r.email}>`).join(', ')}`,
    { recipientsWithoutSignatureField: missing.map((r) => ({ recipientId: r.id, name: r.name, emailAddress: r.email })) },
  );
}

function describeRecipients(rows: RecipientRow[]): string {
  const names = rows.filter((r) => !r.isHidden).map((r) => r.name);
  if (names.length <= 3) return names.join(', ') || 'its recipients';
  return `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}
