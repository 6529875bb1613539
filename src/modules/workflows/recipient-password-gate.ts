import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { hasPasswordPass, type RecipientRow } from './workflows.repo.ts';

/** Where a client that meets the gate sends the password. */
export const VERIFY_PASSWORD_STEP = 'RECIPIENT_PASSWORD';

/**
 * RUNTIME.md "The signing ceremony": while the caller's row has a recipientPassword that this session has not
 * entered, the caller reaches nothing of the workflow but verify-password (403 "Identity not verified",
 * responseBody.requiredStep RECIPIENT_PASSWORD). The pass is per session, not per row: whoever opens a
 * forwarded link starts a new session and must know the password too. The owner is never held back (the
 * owner set the password), and a workflow's other participants are not concerned by a row's password.
 */
export async function assertRecipientPasswordPassed(
  db: DbOrTx,
  caller: Caller,
  access: { isOwner: boolean; recipient: RecipientRow | null },
): Promise<void> {
  const { recipient } = access;
  if (access.isOwner || !recipient?.passwordHash) return;
  if (caller.sessionId && (await hasPasswordPass(db, recipient.id, caller.sessionId))) return;
  throw new AppError(
    'IDENTITY_NOT_VERIFIED',
    `Identity not verified: enter the recipient password first (POST /workflow/v1/${recipient.workflowId}/identity/verify-password)`,
    { requiredStep: VERIFY_PASSWORD_STEP },
  );
}
