import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db } from '../../platform/db/client.ts';
import { hasSignedRevision } from './signer-revisions.ts';
import {
  findRecipient,
  insertRecipientRow,
  isActiveRecipientEmail,
  moveFieldsEmpty,
  updateRecipient,
} from './signing.repo.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { checkRecipientName } from '../recipients/recipient-rules.ts';
import { findOrCreateGuestUser, normalizeEmail, userDisplayName } from '../users/users.directory.ts';
import {
  assertMayActAsRecipient,
  findRecipientOfWorkflow,
  findWorkflowForCaller,
  type RecipientRow,
} from '../workflows/workflow-access.ts';
import { isFinished } from './acting-recipient.ts';
import type { DelegateBody } from './delegate.schemas.ts';
import { advanceRouting, type RoutingDeps } from './routing.ts';

/**
 * Delegation (RUNTIME.md "Delegation"): a recipient's task moves to another person after sending. The
 * original row becomes DELEGATED and can no longer act (its link no longer redeems); a new row with the
 * delegate's name and email takes its order, role, colour, digital-certificate and identity flags, and fields.
 */
export function createDelegateService(deps: { db: Db; routing: RoutingDeps }) {
  const { db, routing } = deps;
  return { delegate };

  /**
   * Callers: the owner, or the recipient itself (its signing-link token, or its user token); another
   * participant 403 USER_NOT_HAVE_ACCESS. Only while the workflow is SENT, for a SIGNER or APPROVER row that
   * has not finished. A recipient delegating its own row must have passed identity verification when flagged.
   * The delegate gets the commence mail at once when the original's turn had come, else at its turn.
   */
  async function delegate(
    caller: Caller,
    workflowId: number,
    recipientId: number,
    body: DelegateBody,
    context: RequestContext,
  ): Promise<RecipientRow> {
    const name = delegateName(body.name);
    const email = normalizeEmail(body.emailAddress);
    const created = await db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      const { workflow } = access;
      const original = await findRecipientOfWorkflow(tx, workflow.id, recipientId);
      if (!original || (original.isHidden && !access.isOwner && original.userId !== caller.userId))
        throw new AppError('NOT_FOUND', 'Recipient not found');
      // A business app's token holds no row (workflow-access.ts ownRecipientRow): it delegates as the owner only.
      const isSelf =
        caller.kind === 'guest'
          ? caller.recipientId === original.id
          : access.recipient !== null && original.userId === caller.userId;
      if (!access.isOwner && !isSelf) {
        assertMayActAsRecipient(access);
        throw new AppError('USER_NOT_HAVE_ACCESS', 'Only the workflow owner or this recipient may delegate it');
      }

      if (workflow.sequence === 'SELF')
        throw new AppError('OPERATION_IS_NOT_ALLOWED', 'A self-sign workflow cannot be delegated');
      if (workflow.status === 'DRAFT')
        throw new AppError(
          'INVALID_WORKFLOW_STATUS',
          'The workflow has not been sent: change the recipient instead of delegating',
        );
      if (workflow.status !== 'SENT')
        throw new AppError('INVALID_WORKFLOW_STATUS', `Workflow is ${workflow.status} and read-only`);
      if (original.role === 'CC')
        throw new AppError('OPERATION_IS_NOT_ALLOWED', 'A CC recipient has nothing to delegate');
      if (isFinished(original))
        throw new AppError('OPERATION_IS_NOT_ALLOWED', `This recipient has already finished (${original.status})`);
      if (!access.isOwner && original.enforceIdentity && !original.identityVerifiedAt) {
        throw new AppError(
          'IDENTITY_NOT_VERIFIED',
          'Identity not verified: complete the one-time code challenge before delegating',
        );
      }

      // A personal signature is already part of the document: its signed values cannot move to someone else.
      if (await hasSignedRevision(tx, original.id))
        throw new AppError(
          'OPERATION_IS_NOT_ALLOWED',
          'This recipient has already signed with their certificate; it can no longer be delegated',
        );
      if (await isActiveRecipientEmail(tx, workflow.id, email))
        throw new AppError('DUPLICATE_RECIPIENT', `${email} is already a recipient of this workflow`, {
          field: 'emailAddress',
        });

      const user = await findOrCreateGuestUser(tx, email, name);
      const now = new Date();
      const delegateRow = await insertRecipientRow(tx, {
        workflowId: workflow.id,
        userId: user.id,
        name,
        email,
        role: original.role,
        recipientOrder: original.recipientOrder,
        color: original.color,
        useDigitalCert: original.useDigitalCert,
        enforceIdentity: original.enforceIdentity,
        isHidden: original.isHidden,
      });
      await updateRecipient(tx, original.id, {
        status: 'DELEGATED',
        delegatedToRecipientId: delegateRow.id,
        actedAt: now,
      });
      // Whatever the original already typed or drew is theirs, not the delegate's: the fields move empty.
      await moveFieldsEmpty(tx, original.id, delegateRow.id);

      const actorName = isSelf ? original.name : await userDisplayName(tx, workflow.ownerUserId, 'The owner');
      await recordActivity(tx, {
        workflowId: workflow.id,
        kind: 'DELEGATED',
        action: 'Delegated',
        sentence: isSelf
          ? `${original.name} delegated to ${name} (${email})`
          : `${actorName} delegated ${original.name}'s part to ${name} (${email})`,
        userId: caller.userId,
        userName: actorName,
        recipientId: original.id,
        status: 'DELEGATED',
        context,
      });
      await advanceRouting(tx, routing, workflow);
      return (await findRecipient(tx, delegateRow.id))!;
    });
    routing.outbox.notify();
    return created;
  }
}

function delegateName(raw: string): string {
  try {
    return checkRecipientName(raw, 0);
  } catch (error) {
    // The body is one object, not an array: drop the array index the shared rule reports.
    if (error instanceof AppError) throw new AppError(error.code, error.message, { field: 'name' });
    throw error;
  }
}

export type DelegateService = ReturnType<typeof createDelegateService>;
