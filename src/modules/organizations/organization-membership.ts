import { AppError } from '../../errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { findMembership } from './organizations.repo.ts';

/**
 * A workflow spends its organization's credits and goes out under its mail settings, branding and role rules, so
 * sending it, completing a self-signed one and adding documents to it need an owner who is an ACTIVE member of that
 * organization. Removing a member deletes the membership but leaves the drafts theirs (to read and delete), and they
 * go on acting in another organization: without this, an old draft would still send on the former organization's
 * credits. 403 USER_NOT_HAVE_ACCESS, not 404: the owner sees the workflow, only this use of it is refused.
 */
export async function assertActiveMemberOf(db: DbOrTx, organizationId: number, userId: number): Promise<void> {
  const membership = await findMembership(db, organizationId, userId);
  if (membership?.status === 'ACTIVE') return;
  throw new AppError(
    'USER_NOT_HAVE_ACCESS',
    'You are no longer a member of the organization this workflow belongs to: it cannot be sent, completed or added to',
  );
}
