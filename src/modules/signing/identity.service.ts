import crypto from 'node:crypto';
import { AppError } from '../../errors.ts';
import { ONE_TIME_CODE_RULES, assertResendAllowed, newOneTimeCode } from '../../platform/auth/one-time-codes.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { verifyPassword as passwordMatches } from '../../platform/auth/passwords.ts';
import {
  OTP_FAILURES_PER_RECIPIENT,
  OTP_SENDS_PER_RECIPIENT,
  RECIPIENT_PASSWORD_FAILURES,
  countAttempts,
  lockedForSeconds,
  recordAttempts,
} from '../../platform/limits/attempts.ts';
import { senderMailLanguage } from '../users/mail-language.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import {
  findWorkflowForCaller,
  ownRecipientRow,
  type RecipientRow,
  type WorkflowAccess,
} from '../workflows/workflow-access.ts';
import { recipientAllowedToAct } from './acting-recipient.ts';
import {
  countChallengeAttempt,
  findChallenge,
  markChallengeVerified,
  putChallenge,
  recordPasswordPass,
  updateRecipient,
  type IdentityChallengeRow,
} from './signing.repo.ts';
import { otpMail } from './signing-mails.ts';

/**
 * SPEC.md Limits: 6 digits, 10-minute lifetime, 5 attempts, 30-second resend throttle. Across codes (issue 7):
 * 5 wrong codes per recipient per hour and 10 codes mailed per recipient per day, so a resend never buys
 * a fresh guessing budget.
 */
export const OTP_RULES = {
  ...ONE_TIME_CODE_RULES,
  failuresPerHour: OTP_FAILURES_PER_RECIPIENT.max,
  sendsPerDay: OTP_SENDS_PER_RECIPIENT.max,
} as const;

type OtpLimit = 'WRONG_CODES_PER_HOUR' | 'CODES_PER_DAY';

/**
 * Only a salted HMAC of a code is stored: a database reader cannot recover a live code, and the recipient id
 * in the MAC ties the hash to its row.
 */
export function hashOtp(recipientId: number, code: string, salt: Buffer = crypto.randomBytes(16)): string {
  const mac = crypto.createHmac('sha256', salt).update(`${recipientId}:${code}`).digest('base64url');
  return `v1$${salt.toString('base64url')}$${mac}`;
}

function otpMatches(stored: string, recipientId: number, code: string): boolean {
  const [version, salt, mac] = stored.split('$');
  if (version !== 'v1' || !salt || !mac) return false;
  const expected = Buffer.from(hashOtp(recipientId, code, Buffer.from(salt, 'base64url')));
  const actual = Buffer.from(stored);
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

/** A submitted code as 6 digits, or null when it cannot be one (it still counts as an attempt). */
function normalizeCode(code: string | number): string | null {
  if (typeof code === 'number')
    return Number.isInteger(code) && code >= 0 && code < 10 ** OTP_RULES.digits
      ? String(code).padStart(OTP_RULES.digits, '0')
      : null;
  const trimmed = code.trim();
  return new RegExp(`^\\d{${OTP_RULES.digits}}$`).test(trimmed) ? trimmed : null;
}

/**
 * Step-up identity verification (SPEC.md "Guest token"): a recipient with enforceIdentity proves control of
 * its mailbox with a one-time code before it may act. `now` is injectable for callers that need a clock.
 */
export function createIdentityService(deps: { db: Db; outbox: Outbox; now?: () => Date }) {
  const { db, outbox } = deps;
  const clock = deps.now ?? (() => new Date());
  return { verifyRecipientPassword, sendOtp, verifyOtp };

  /**
   * RUNTIME.md "The signing ceremony": the recipient password, the step before anything else of the workflow.
   * Checked for the caller's own row, in any workflow status (a finished recipient still reads behind it).
   * A right password opens the workflow to the caller's session (workflows/recipient-password-gate.ts).
   * Wrong passwords count per row like sign-in failures (10 in 15 minutes); past that every try, the right
   * password included, is refused with 401 ACCOUNT_TEMPORARILY_LOCKED until 15 minutes after the last failure.
   */
  async function verifyRecipientPassword(
    caller: Caller,
    workflowId: number,
    password: string,
  ): Promise<{ verified: true }> {
    const failure = await db.transaction(async (tx) => {
      // The row lock serializes tries on one workflow, so concurrent guesses cannot overrun the count.
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true, beforeRecipientPassword: true });
      const recipient = ownRecipientRow(access);
      if (!recipient.passwordHash)
        throw new AppError('OPERATION_IS_NOT_ALLOWED', 'This recipient has no password to verify');
      if (!caller.sessionId)
        throw new AppError(
          'IDENTITY_NOT_VERIFIED',
          'This token belongs to no session that could hold the verification',
        );
      const subject = String(recipient.id);
      const lockedSeconds = await lockedForSeconds(tx, RECIPIENT_PASSWORD_FAILURES, subject, clock());
      if (lockedSeconds !== null) {
        throw new AppError(
          'ACCOUNT_TEMPORARILY_LOCKED',
          `Too many wrong recipient passwords; try again in ${lockedSeconds} seconds`,
          { retryAfterSeconds: lockedSeconds },
          { retryAfterSeconds: lockedSeconds },
        );
      }
      if (await passwordMatches(recipient.passwordHash, password)) {
        await recordPasswordPass(tx, recipient.id, caller.sessionId);
        return null;
      }
      // Counted in a transaction that commits: the call fails after it.
      await recordAttempts(tx, [[RECIPIENT_PASSWORD_FAILURES, subject]]);
      const { count } = await countAttempts(tx, RECIPIENT_PASSWORD_FAILURES, subject, clock());
      return { attemptsLeft: Math.max(0, RECIPIENT_PASSWORD_FAILURES.max - count) };
    });
    if (failure) throw new AppError('INVALID_REQUEST_BODY', 'Wrong recipient password', failure);
    return { verified: true };
  }

  /** The row asking: one that may act now, apart from the identity rule itself, and that is flagged. */
  function stepUpRecipient(access: WorkflowAccess): RecipientRow {
    const recipient = recipientAllowedToAct(access);
    if (!recipient.enforceIdentity)
      throw new AppError('OPERATION_IS_NOT_ALLOWED', 'This recipient does not need identity verification');
    return recipient;
  }

  /**
   * The cross-code caps, longest first: while the recipient has used up its wrong codes for the hour, or its
   * codes for the day, neither a new code nor a verification is possible (OTP_LIMIT_REACHED, Retry-After).
   */
  async function assertUnderOtpLimits(
    tx: DbOrTx,
    recipient: RecipientRow,
    now: Date,
    checkSends: boolean,
  ): Promise<void> {
    const subject = String(recipient.id);
    const wrongCodesLock = await lockedForSeconds(tx, OTP_FAILURES_PER_RECIPIENT, subject, now);
    const codesMailedLock = checkSends ? await lockedForSeconds(tx, OTP_SENDS_PER_RECIPIENT, subject, now) : null;
    const [limit, retryAfterSeconds]: [OtpLimit, number | null] =
      (codesMailedLock ?? 0) > (wrongCodesLock ?? 0)
        ? ['CODES_PER_DAY', codesMailedLock]
        : ['WRONG_CODES_PER_HOUR', wrongCodesLock];
    if (retryAfterSeconds === null) return;
    const reason =
      limit === 'CODES_PER_DAY'
        ? `${OTP_RULES.sendsPerDay} codes were mailed within 24 hours`
        : `${OTP_RULES.failuresPerHour} wrong codes were entered within an hour`;
    throw new AppError(
      'OTP_LIMIT_REACHED',
      `Too many one-time codes: ${reason}; try again in ${retryAfterSeconds} seconds`,
      { limit, retryAfterSeconds, attemptsLeft: 0 },
      { retryAfterSeconds },
    );
  }

  /**
   * Mails a new code, replacing any earlier one. The code's own 5 attempts start again, but the hourly budget
   * of wrong codes does not, and every code mailed counts against the daily cap. A new code may be asked
   * for also after verification; verification stays recorded. Within 30 seconds of the last code: 429.
   */
  async function sendOtp(caller: Caller, workflowId: number): Promise<{ expiresAt: Date; resendAfterSeconds: number }> {
    const result = await db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      const recipient = stepUpRecipient(access);
      const now = clock();
      await assertUnderOtpLimits(tx, recipient, now, true);
      assertResendAllowed((await findChallenge(tx, recipient.id))?.sentAt, now);
      const code = newOneTimeCode();
      const expiresAt = new Date(now.getTime() + OTP_RULES.lifetimeMinutes * 60_000);
      const values = { codeHash: hashOtp(recipient.id, code), attempts: 0, sentAt: now, expiresAt, verifiedAt: null };
      await putChallenge(tx, recipient.id, values);
      const language = await senderMailLanguage(tx, access.workflow);
      await outbox.enqueue(
        tx,
        otpMail({ workflow: access.workflow, recipient, code, lifetimeMinutes: OTP_RULES.lifetimeMinutes, language }),
      );
      // Counted in the transaction that mails the code, under the workflow row lock: racing sends count exactly.
      await recordAttempts(tx, [[OTP_SENDS_PER_RECIPIENT, String(recipient.id)]]);
      return { expiresAt, resendAfterSeconds: OTP_RULES.resendSeconds };
    });
    outbox.notify();
    return result;
  }

  /**
   * Checks a code against the live challenge. A wrong code uses up one of the code's 5 attempts and one of
   * the recipient's 5 wrong codes per hour, and both counts commit even though the call fails; after the
   * code's fifth, or after 10 minutes, or once used, the challenge is dead and a new code must be requested;
   * after the hour's fifth, no code verifies until the hour has passed. Success records identityVerifiedAt.
   */
  async function verifyOtp(
    caller: Caller,
    workflowId: number,
    submitted: string | number,
  ): Promise<{ verified: true }> {
    const outcome = await db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      const recipient = stepUpRecipient(access);
      const now = clock();
      await assertUnderOtpLimits(tx, recipient, now, false);
      const challenge = (await findChallenge(tx, recipient.id)) ?? undefined;
      const dead = deadReason(challenge, now);
      if (dead !== null || !challenge) return { failure: dead ?? 'no code was requested', attemptsLeft: 0 };
      const code = normalizeCode(submitted);
      if (code === null || !otpMatches(challenge.codeHash, recipient.id, code)) {
        const attempts = await countChallengeAttempt(tx, challenge.id);
        await recordAttempts(tx, [[OTP_FAILURES_PER_RECIPIENT, String(recipient.id)]]);
        const hourly = await countAttempts(tx, OTP_FAILURES_PER_RECIPIENT, String(recipient.id), now);
        const attemptsLeft = Math.max(
          0,
          Math.min(OTP_RULES.maxAttempts - attempts, OTP_RULES.failuresPerHour - hourly.count),
        );
        const exhausted =
          hourly.count >= OTP_RULES.failuresPerHour
            ? `no attempts left; try again in an hour`
            : 'no attempts left, request a new code';
        return {
          failure: attemptsLeft > 0 ? `Wrong code; ${attemptsLeft} attempt(s) left` : `Wrong code; ${exhausted}`,
          attemptsLeft,
        };
      }
      await markChallengeVerified(tx, challenge.id, now);
      await updateRecipient(tx, recipient.id, { identityVerifiedAt: now });
      return null;
    });
    if (outcome)
      throw new AppError('OTP_INVALID', `OTP invalid or expired: ${outcome.failure}`, {
        attemptsLeft: outcome.attemptsLeft,
      });
    return { verified: true };
  }
}

function deadReason(challenge: IdentityChallengeRow | undefined, now: Date): string | null {
  if (!challenge) return 'no code was requested; request one first';
  if (challenge.verifiedAt) return 'this code was already used; request a new one';
  if (challenge.attempts >= OTP_RULES.maxAttempts) return 'too many wrong attempts; request a new code';
  if (challenge.expiresAt.getTime() <= now.getTime()) return 'the code has expired; request a new one';
  return null;
}

export type IdentityService = ReturnType<typeof createIdentityService>;
