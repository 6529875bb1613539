import { AppError } from '../../errors.ts';
import type { Db } from '../../platform/db/client.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import {
  clearAttempts,
  countAttempts,
  longestLock,
  recordAttempts,
  SIGNIN_FAILURES_PER_ACCOUNT,
  SIGNIN_FAILURES_PER_ADDRESS,
} from '../../platform/limits/attempts.ts';
import { lockUser, normalizeEmail } from '../users/users.directory.ts';
import { accountLockedMail } from './account-mails.ts';

/** Who a credential check is about: the sign-in name (counted even when no account holds it) and where it came from. */
export type CheckSubject = { email: string; address: string };

/**
 * RUNTIME.md "Accounts" sign-in limits, shared by every check of a sign-in credential (password, TOTP at
 * sign-in, the TOTP and password checks of the two-factor settings): 10 failures per account, 100 per
 * address, within 15 minutes; then 401 ACCOUNT_TEMPORARILY_LOCKED with Retry-After, even for the right
 * credentials, until 15 minutes after the last failure. Counts live in the database (attempt_events).
 *
 * The account is counted by its normalized email, also when no account holds it, so that the lock does not
 * tell registered addresses from unregistered ones. While locked nothing is checked, so nothing is counted.
 */
export function createSigninLimits({ db, outbox }: { db: Db; outbox: Outbox }) {
  return { assertNotLocked, recordFailure, recordSuccess };

  function rules(subject: CheckSubject): [typeof SIGNIN_FAILURES_PER_ACCOUNT, string][] {
    return [
      [SIGNIN_FAILURES_PER_ACCOUNT, normalizeEmail(subject.email)],
      [SIGNIN_FAILURES_PER_ADDRESS, subject.address],
    ];
  }

  async function assertNotLocked(subject: CheckSubject): Promise<void> {
    const seconds = await longestLock(db, rules(subject));
    if (seconds === null) return;
    throw new AppError(
      'ACCOUNT_TEMPORARILY_LOCKED',
      `Too many failed sign-in attempts; try again in ${seconds} seconds`,
      { retryAfterSeconds: seconds },
      { retryAfterSeconds: seconds },
    );
  }

  /**
   * Counts one failure against the account and the address. The failure that locks a registered account
   * mails its owner, once per lock: failures of one account are counted under its user row lock, so exactly
   * one of them sees the count reach the limit.
   */
  async function recordFailure(subject: CheckSubject, accountUserId: number | null): Promise<void> {
    if (accountUserId === null) {
      await recordAttempts(db, rules(subject));
      return;
    }
    const mailed = await db.transaction(async (tx) => {
      const user = await lockUser(tx, accountUserId);
      await recordAttempts(tx, rules(subject));
      if (!user || user.isGuest) return false;
      const { count } = await countAttempts(tx, SIGNIN_FAILURES_PER_ACCOUNT, normalizeEmail(subject.email));
      if (count !== SIGNIN_FAILURES_PER_ACCOUNT.max) return false;
      const windowMinutes = SIGNIN_FAILURES_PER_ACCOUNT.windowSeconds / 60;
      await outbox.enqueue(
        tx,
        accountLockedMail({
          to: user.email,
          name: user.name,
          failures: count,
          minutes: windowMinutes,
          until: new Date(Date.now() + SIGNIN_FAILURES_PER_ACCOUNT.windowSeconds * 1000),
        }),
      );
      return true;
    });
    if (mailed) outbox.notify();
  }

  /**
   * A completed sign-in forgets the account's failures, so earlier typos do not shorten the way to the next
   * lock. The address's count stays: an attacker could otherwise reset it by signing in to an account of their own.
   */
  async function recordSuccess(subject: CheckSubject): Promise<void> {
    await clearAttempts(db, SIGNIN_FAILURES_PER_ACCOUNT, normalizeEmail(subject.email));
  }
}

export type SigninLimits = ReturnType<typeof createSigninLimits>;
