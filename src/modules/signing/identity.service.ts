import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import { identityChallenges, recipients } from '../../platform/db/schema/index.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import { findWorkflowForCaller, type RecipientRow, type WorkflowAccess } from '../workflows/workflow-access.ts';
import { recipientAllowedToAct } from './acting-recipient.ts';
import { otpMail } from './signing-mails.ts';

/** SPEC.md Limits: 6 digits, 10-minute lifetime, 5 attempts, 30-second resend throttle. */
export const OTP_RULES = { digits: 6, lifetimeMinutes: 10, maxAttempts: 5, resendSeconds: 30 } as const;

type ChallengeRow = typeof identityChallenges.$inferSelect;

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
  if (typeof code === 'number') return Number.isInteger(code) && code >= 0 && code < 10 ** OTP_RULES.digits ? String(code).padStart(OTP_RULES.digits, '0') : null;
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
  return { sendOtp, verifyOtp };

  /** The row asking: one that may act now, apart from the identity rule itself, and that is flagged. */
  function stepUpRecipient(access: WorkflowAccess): RecipientRow {
    const recipient = recipientAllowedToAct(access);
    if (!recipient.enforceIdentity) throw new AppError('OPERATION_IS_NOT_ALLOWED', 'This recipient does not need identity verification');
    return recipient;
  }

  /**
   * Mails a new code, replacing any earlier one (its attempts start again at 0). A new code may be asked for
   * also after verification; verification stays recorded. Within 30 seconds of the last code: 429.
   */
  async function sendOtp(caller: Caller, workflowId: number): Promise<{ expiresAt: Date; resendAfterSeconds: number }> {
    const result = await db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      const recipient = stepUpRecipient(access);
      const now = clock();
      const [previous] = await tx.select().from(identityChallenges).where(eq(identityChallenges.recipientId, recipient.id));
      if (previous) {
        const waitMs = previous.sentAt.getTime() + OTP_RULES.resendSeconds * 1000 - now.getTime();
        if (waitMs > 0) {
          const resendAfterSeconds = Math.ceil(waitMs / 1000);
          throw new AppError('OTP_RESEND_TOO_SOON', `OTP resend too soon, wait ${resendAfterSeconds} seconds`, { resendAfterSeconds });
        }
      }
      const code = String(crypto.randomInt(0, 10 ** OTP_RULES.digits)).padStart(OTP_RULES.digits, '0');
      const expiresAt = new Date(now.getTime() + OTP_RULES.lifetimeMinutes * 60_000);
      const values = { codeHash: hashOtp(recipient.id, code), attempts: 0, sentAt: now, expiresAt, verifiedAt: null };
      await tx.insert(identityChallenges).values({ recipientId: recipient.id, ...values })
        .onConflictDoUpdate({ target: identityChallenges.recipientId, set: values });
      await outbox.enqueue(tx, otpMail({ workflow: access.workflow, recipient, code, lifetimeMinutes: OTP_RULES.lifetimeMinutes }));
      return { expiresAt, resendAfterSeconds: OTP_RULES.resendSeconds };
    });
    outbox.notify();
    return result;
  }

  /**
   * Checks a code against the live challenge. A wrong code uses up one of 5 attempts, and that count commits
   * even though the call fails; after the fifth, or after 10 minutes, or once used, the challenge is dead
   * and a new code must be requested. Success records identityVerifiedAt on the recipient.
   */
  async function verifyOtp(caller: Caller, workflowId: number, submitted: string | number): Promise<{ verified: true }> {
    const outcome = await db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      const recipient = stepUpRecipient(access);
      const now = clock();
      const [challenge] = await tx.select().from(identityChallenges).where(eq(identityChallenges.recipientId, recipient.id));
      const dead = deadReason(challenge, now);
      if (dead !== null || !challenge) return { failure: dead ?? 'no code was requested', attemptsLeft: 0 };
      const code = normalizeCode(submitted);
      if (code === null || !otpMatches(challenge.codeHash, recipient.id, code)) {
        const [counted] = await tx.update(identityChallenges).set({ attempts: sql`${identityChallenges.attempts} + 1` })
          .where(eq(identityChallenges.id, challenge.id)).returning();
        const attemptsLeft = Math.max(0, OTP_RULES.maxAttempts - counted.attempts);
        return { failure: attemptsLeft > 0 ? `Wrong code; ${attemptsLeft} attempt(s) left` : 'Wrong code; no attempts left, request a new code', attemptsLeft };
      }
      await tx.update(identityChallenges).set({ verifiedAt: now }).where(eq(identityChallenges.id, challenge.id));
      await tx.update(recipients).set({ identityVerifiedAt: now }).where(eq(recipients.id, recipient.id));
      return null;
    });
    if (outcome) throw new AppError('OTP_INVALID', `OTP invalid or expired: ${outcome.failure}`, { attemptsLeft: outcome.attemptsLeft });
    return { verified: true };
  }
}

function deadReason(challenge: ChallengeRow | undefined, now: Date): string | null {
  if (!challenge) return 'no code was requested; request one first';
  if (challenge.verifiedAt) return 'this code was already used; request a new one';
  if (challenge.attempts >= OTP_RULES.maxAttempts) return 'too many wrong attempts; request a new code';
  if (challenge.expiresAt.getTime() <= now.getTime()) return 'the code has expired; request a new one';
  return null;
}

export type IdentityService = ReturnType<typeof createIdentityService>;
