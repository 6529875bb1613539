import { AppError } from '../../errors.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { TokenSigner } from '../../platform/auth/jwt.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { updateRecipient } from './signing.repo.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { issueSession, type SessionTokens } from '../auth/sessions.ts';
import { findLiveWorkflowWithRecipient, type RecipientRow, type WorkflowRow } from '../workflows/workflow-access.ts';
import { isFinished } from './acting-recipient.ts';
import type { SigningCodes } from './signing-codes.ts';

/** LINK_EXPIRED for the link of a recipient who had not finished when the envelope was voided. */
export const VOIDED_LINK = { workflowStatus: 'VOID' } as const;
export const VOIDED_TEXT =
  'The sender voided this envelope, so its signing link no longer works. There is nothing more to do.';

export type GuestSession = SessionTokens & { userId: number; workflowId: number; recipientId: number };

/**
 * Signing links (SPEC.md "Guest token"): a code from a mail becomes a GUEST session scoped to one workflow
 * and one recipient row. A code can be redeemed again until it expires (RUNTIME.md).
 */
export function createGuestAccessService(deps: { db: Db; tokens: TokenSigner; codes: SigningCodes }) {
  const { db, tokens, codes } = deps;
  return { redeem, inspect };

  /**
   * LINK_EXPIRED for a code that is garbage, tampered, expired, whose workflow was deleted, or whose row was
   * delegated away (its task and its link now belong to the delegate). The first redemption records an
   * Opened activity and moves the row from SENT to VIEWED; later ones record nothing and never change a
   * status (a finished recipient's link still reads and downloads).
   */
  async function redeem(code: string, context: RequestContext): Promise<GuestSession> {
    const opened = codes.open(code);
    if (!opened) throw linkExpired();
    return db.transaction(async (tx) => {
      const found = await findLinkTarget(tx, opened.workflowId, opened.recipientId, true);
      if (!found) throw linkExpired();
      if (found === 'VOIDED') throw linkOfVoidedEnvelope();
      const { workflow, recipient } = found;
      if (!recipient.viewedAt) {
        const status = recipient.status === 'SENT' ? 'VIEWED' : recipient.status;
        await updateRecipient(tx, recipient.id, { viewedAt: new Date(), status });
        await recordActivity(tx, {
          workflowId: workflow.id,
          kind: 'DOCUMENT_OPENED',
          action: 'Opened',
          sentence: `${recipient.name} opened the envelope`,
          userId: recipient.userId,
          userName: recipient.name,
          recipientId: recipient.id,
          status,
          context,
        });
      }
      // The session ends with the link at the latest (docs/accounts.md "Tokens and sessions").
      const session = await issueSession(tx, tokens, {
        userId: recipient.userId,
        type: 'GUEST',
        claims: { recipientId: recipient.id, workflowId: workflow.id },
        notAfter: opened.expiresAt,
      });
      return { ...session, userId: recipient.userId, workflowId: workflow.id, recipientId: recipient.id };
    });
  }

  /** Whether a code would redeem, without redeeming it (the /sign page must not count a mail scanner's visit as an open). */
  async function inspect(code: string): Promise<{ expiresAt: Date } | 'VOIDED' | null> {
    const opened = codes.open(code);
    if (!opened) return null;
    const found = await findLinkTarget(db, opened.workflowId, opened.recipientId, false);
    if (found === 'VOIDED') return found;
    return found ? { expiresAt: opened.expiresAt } : null;
  }
}

async function findLinkTarget(
  db: DbOrTx,
  workflowId: number,
  recipientId: number,
  lock: boolean,
): Promise<{ workflow: WorkflowRow; recipient: RecipientRow } | 'VOIDED' | null> {
  // The workflow lock serializes a redemption with a concurrent delegation, decline or void of the same workflow.
  const found = await findLiveWorkflowWithRecipient(db, workflowId, recipientId, lock);
  if (!found || found.recipient.status === 'DELEGATED') return null;
  // RUNTIME.md "Voiding a sent envelope": the links of those who had not finished stop; a finished one still reads.
  if (found.workflow.status === 'VOID' && !isFinished(found.recipient)) return 'VOIDED';
  return found;
}

function linkOfVoidedEnvelope(): AppError {
  return new AppError('LINK_EXPIRED', VOIDED_TEXT, VOIDED_LINK);
}

function linkExpired(): AppError {
  return new AppError('LINK_EXPIRED', 'Link or code expired');
}

export type GuestAccessService = ReturnType<typeof createGuestAccessService>;
