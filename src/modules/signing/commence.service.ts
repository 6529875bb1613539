import { eq } from 'drizzle-orm';
import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import { workflows } from '../../platform/db/schema/index.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { assertOwner, findWorkflowForCaller, type RecipientRow } from '../workflows/workflow-access.ts';
import { advanceRouting, isActionRequired, type RoutingDeps } from './routing.ts';
import type { CommenceBody } from './commence.schemas.ts';
import { assertMaySend, debitCredit } from '../billing/entitlements.service.ts';
import { countDocuments, findRecipientRows, findRecipientsWithSignatureField, findUserName } from './commence.repo.ts';

export type CommenceResult = { workflowId: number; sentAt: Date; dispatchedRecipientIds: number[]; credits: number };

/** Sending a workflow (SPEC.md "States and transitions": DRAFT → SENT by POST commence). */
export function createCommenceService(deps: { db: Db; routing: RoutingDeps }) {
  const { db, routing } = deps;
  return { commence };

  /**
   * Checks in this order, all under the workflow's row lock: visible (404), owned (INVALID_WORKFLOW_OWNER),
   * kind (SELF and SURVEY: OPERATION_IS_NOT_ALLOWED), DRAFT (INVALID_WORKFLOW_STATUS), content (documents,
   * recipients, a signing field per signer: OPERATION_IS_NOT_ALLOWED), then the organization's plan
   * (PACKAGE_EXPIRED, SERVICE_PLAN_INACTIVE, SHARING_NOT_ALLOWED, INSUFFICIENT_CREDITS). One credit is
   * debited in the same transaction as the status change, the Sent activity and the commence mails.
   */
  async function commence(caller: UserCaller, workflowId: number, body: CommenceBody, context: RequestContext): Promise<CommenceResult> {
    const title = body.title?.trim() || null;
    const message = body.message?.trim() || null;
    const result = await db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      assertOwner(access);
      const { workflow } = access;
      if (workflow.sequence === 'SELF') throw new AppError('OPERATION_IS_NOT_ALLOWED', 'A self-sign workflow is signed by its owner without commence');
      if (workflow.sequence === 'SURVEY') throw new AppError('OPERATION_IS_NOT_ALLOWED', 'Power Survey dispatch is not available');
      if (workflow.status !== 'DRAFT') throw new AppError('INVALID_WORKFLOW_STATUS', `Workflow is ${workflow.status}; only a DRAFT can be sent`);

      if ((await countDocuments(tx, workflow.id)) === 0) throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The workflow has no document to send');
      const rows = await findRecipientRows(tx, workflow.id);
      if (rows.length === 0) throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The workflow has no recipients: add at least one before sending');
      if (!rows.some(isActionRequired)) throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The workflow has only CC recipients: add a signer or an approver');
      await assertEverySignerCanSign(tx, workflow.id, rows);

      const now = new Date();
      await assertMaySend(tx, workflow.organizationId, now);
      const credits = await debitCredit(tx, workflow.organizationId);

      await tx.update(workflows).set({ status: 'SENT', sentAt: now, statusAt: now, title, message }).where(eq(workflows.id, workflow.id));
      const ownerName = (await findUserName(tx, caller.userId)) || 'The owner';
      await recordActivity(tx, {
        workflowId: workflow.id,
        kind: 'WORKFLOW_SENT',
        action: 'Sent',
        sentence: `${ownerName} sent the envelope to ${describeRecipients(rows)}`,
        userId: caller.userId,
        userName: ownerName,
        status: 'SENT',
        context,
      });
      const routed = await advanceRouting(tx, routing, workflow.id);
      return { workflowId: workflow.id, sentAt: now, dispatchedRecipientIds: routed.dispatchedRecipientIds, credits };
    });
    routing.outbox.notify();
    return result;
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
}

function describeRecipients(rows: RecipientRow[]): string {
  const names = rows.filter((r) => !r.isHidden).map((r) => r.name);
  if (names.length <= 3) return names.join(', ') || 'its recipients';
  return `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

export type CommenceService = ReturnType<typeof createCommenceService>;
