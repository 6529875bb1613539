import crypto from 'node:crypto';
import { AppError } from '../../errors.ts';

/**
 * Mailed one-time codes (identity step-up, signing-key reset): SPEC.md's 6 digits, 10 minutes, 5 attempts and 30-second
 * resend throttle, shared by both so they cannot drift apart.
 */
export const ONE_TIME_CODE_RULES = { digits: 6, lifetimeMinutes: 10, maxAttempts: 5, resendSeconds: 30 } as const;

/** A new code: uniformly drawn, zero-padded to the rule's digits. */
export function newOneTimeCode(): string {
  return String(crypto.randomInt(0, 10 ** ONE_TIME_CODE_RULES.digits)).padStart(ONE_TIME_CODE_RULES.digits, '0');
}

/** The resend throttle: within resendSeconds of the last code mailed, 429 OTP_RESEND_TOO_SOON with the wait. */
export function assertResendAllowed(lastSentAt: Date | null | undefined, now: Date): void {
  if (!lastSentAt) return;
  const waitMs = lastSentAt.getTime() + ONE_TIME_CODE_RULES.resendSeconds * 1000 - now.getTime();
  if (waitMs <= 0) return;
  const resendAfterSeconds = Math.ceil(waitMs / 1000);
  throw new AppError(
    'OTP_RESEND_TOO_SOON',
    `OTP resend too soon, wait ${resendAfterSeconds} seconds`,
    { resendAfterSeconds },
    { retryAfterSeconds: resendAfterSeconds },
  );
}
