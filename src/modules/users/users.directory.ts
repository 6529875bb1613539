import { AppError } from '../../errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { findUserById } from './users.repo.ts';

/**
 * What other modules may use of the users module: lookups and the guest-user rule. They import this file, never
 * users.repo.ts (the dependency lint enforces it), so the users table has one writer.
 */
export {
  consumeTotpStep,
  findOrCreateGuestUser,
  findUserByEmail,
  findUserById,
  findUserByVerificationCode,
  lockUser,
  normalizeEmail,
  setEmailVerificationCode,
  verifyEmailByCode,
  type UserRow,
} from './users.repo.ts';

/** How a user is named in sentences and mails: the name, else the email, else `fallback`. The one such rule. */
export async function userDisplayName(db: DbOrTx, userId: number, fallback = ''): Promise<string> {
  const user = await findUserById(db, userId);
  return user?.name || user?.email || fallback;
}

/** The name and address of a user to mail (an owner, a sender); empty strings for a user that no longer exists. */
export async function userContact(db: DbOrTx, userId: number): Promise<{ name: string; email: string }> {
  const user = await findUserById(db, userId);
  return { name: user?.name || user?.email || '', email: user?.email ?? '' };
}

/**
 * Sending to others (commence, template dispatch and apply with send, Power Survey) needs an account whose address
 * is verified (RUNTIME.md round three): otherwise anyone could send the platform's mail under an address they never
 * proved. Drafts, self-signing and reading work before verification.
 */
export async function assertSenderVerified(db: DbOrTx, userId: number): Promise<void> {
  const user = await findUserById(db, userId);
  if (user?.emailVerifiedAt) return;
  throw new AppError(
    'EMAIL_NOT_VERIFIED',
    'Confirm your email address before sending to others: open the link mailed at sign-up (POST /auth/v1/verify-email/resend mails a new one)',
  );
}
