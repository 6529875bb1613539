import { and, count, eq, gt, lt, max, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { attemptEvents } from '../db/schema/index.ts';

/**
 * A limit on counted events: at most `max` events for one subject within `windowSeconds`. Once reached,
 * the subject stays locked until `windowSeconds` after its latest event (RUNTIME.md "Accounts": locked
 * until 15 minutes after the last failure).
 */
export type AttemptRule = { scope: string; max: number; windowSeconds: number };

/** RUNTIME.md "Accounts": 10 failed password or TOTP checks per account in 15 minutes, 100 per address. */
export const SIGNIN_FAILURES_PER_ACCOUNT: AttemptRule = { scope: 'signin.account', max: 10, windowSeconds: 15 * 60 };
export const SIGNIN_FAILURES_PER_ADDRESS: AttemptRule = { scope: 'signin.address', max: 100, windowSeconds: 15 * 60 };
/** Wrong recipient passwords count like sign-in failures, per recipient row. */
export const RECIPIENT_PASSWORD_FAILURES: AttemptRule = { scope: 'recipient.password', max: 10, windowSeconds: 15 * 60 };
/** Wrong signing passwords (useDigitalCert signers) count like sign-in failures, per signing key (its email), across workflows. */
export const SIGNING_PASSWORD_FAILURES: AttemptRule = { scope: 'signing.password', max: 10, windowSeconds: 15 * 60 };
/** At most 5 wrong one-time codes per recipient per hour, across every code mailed (a resend does not reset it). */
export const OTP_FAILURES_PER_RECIPIENT: AttemptRule = { scope: 'otp.failure', max: 5, windowSeconds: 60 * 60 };
/** At most 10 one-time codes mailed per recipient per day. */
export const OTP_SENDS_PER_RECIPIENT: AttemptRule = { scope: 'otp.send', max: 10, windowSeconds: 24 * 60 * 60 };
/** A new signing key (a locked or forgotten signing password): at most 10 codes mailed per key (its email) a day, as one-time codes. */
export const SIGNING_KEY_RESET_SENDS: AttemptRule = { scope: 'signing.reset.send', max: 10, windowSeconds: 24 * 60 * 60 };
/** ... and at most 5 wrong reset codes per key an hour, across every code mailed. */
export const SIGNING_KEY_RESET_FAILURES: AttemptRule = { scope: 'signing.reset.failure', max: 5, windowSeconds: 60 * 60 };
/**
 * Uploads and replacements per account per minute (every attempt that gets past the check counts, accepted or
 * not: each costs a render or a conversion). `max` is the default; UPLOADS_PER_MINUTE overrides it.
 */
export const DOCUMENT_UPLOADS_PER_ACCOUNT: AttemptRule = { scope: 'document.upload', max: 60, windowSeconds: 60 };

/** At most 5 verification mails per account per day beyond the sign-up mail (POST /auth/v1/verify-email/resend). */
export const VERIFICATION_MAILS_PER_ACCOUNT: AttemptRule = { scope: 'verify.mail', max: 5, windowSeconds: 24 * 60 * 60 };

/** The longest window above: events older than this count for nothing and may be deleted. */
export const LONGEST_WINDOW_SECONDS = 24 * 60 * 60;

export type AttemptCount = { count: number; latest: Date | null };

export async function countAttempts(db: DbOrTx, rule: AttemptRule, subject: string, now = new Date()): Promise<AttemptCount> {
  const since = new Date(now.getTime() - rule.windowSeconds * 1000);
  const [row] = await db.select({ count: count(), latest: max(attemptEvents.occurredAt) }).from(attemptEvents)
    .where(and(eq(attemptEvents.scope, rule.scope), eq(attemptEvents.subject, subject), gt(attemptEvents.occurredAt, since)));
  return { count: Number(row?.count ?? 0), latest: row?.latest ? new Date(row.latest) : null };
}

/**
 * Seconds until the subject may try again, or null when it is under the limit. Locked means: `max` events
 * within one window that ends at the latest event, and that event less than a window ago. Counting back from
 * the latest event rather than from now keeps the lock for a full window after the last failure even when
 * the earliest failures of the burst are by then older than the window.
 */
export async function lockedForSeconds(db: DbOrTx, rule: AttemptRule, subject: string, now = new Date()): Promise<number | null> {
  const since = new Date(now.getTime() - rule.windowSeconds * 1000);
  // One statement: the latest event within the window, and how many events lie within a window ending at it.
  const ofSubject = and(eq(attemptEvents.scope, rule.scope), eq(attemptEvents.subject, subject));
  const latestEvent = db.select({ latest: max(attemptEvents.occurredAt).as('latest') }).from(attemptEvents)
    .where(and(ofSubject, gt(attemptEvents.occurredAt, since)))
    .as('latest_event');
  const [row] = await db.select({
    latest: latestEvent.latest,
    burst: sql<number>`(select count(*)::int from ${attemptEvents} where ${ofSubject}
      and ${attemptEvents.occurredAt} > ${latestEvent.latest} - make_interval(secs => ${rule.windowSeconds}))`,
  }).from(latestEvent);
  if (!row?.latest) return null;
  if (Number(row.burst) < rule.max) return null;
  const latest = new Date(row.latest);
  return Math.max(1, Math.ceil((latest.getTime() + rule.windowSeconds * 1000 - now.getTime()) / 1000));
}

/** The longest lock among several (rule, subject) pairs, or null when none is locked. */
export async function longestLock(db: DbOrTx, checks: [AttemptRule, string][], now = new Date()): Promise<number | null> {
  let longest: number | null = null;
  for (const [rule, subject] of checks) {
    const seconds = await lockedForSeconds(db, rule, subject, now);
    if (seconds !== null && (longest === null || seconds > longest)) longest = seconds;
  }
  return longest;
}

/** Counts one event against each (rule, subject) pair. Written outside the caller's failing transaction on purpose. */
export async function recordAttempts(db: DbOrTx, checks: [AttemptRule, string][]): Promise<void> {
  if (checks.length === 0) return;
  await db.insert(attemptEvents).values(checks.map(([rule, subject]) => ({ scope: rule.scope, subject })));
}

/** Forgets a subject's events under one rule (a successful sign-in clears the account's failures). */
export async function clearAttempts(db: DbOrTx, rule: AttemptRule, subject: string): Promise<void> {
  await db.delete(attemptEvents).where(and(eq(attemptEvents.scope, rule.scope), eq(attemptEvents.subject, subject)));
}

export async function deleteExpiredAttempts(db: DbOrTx, now = new Date()): Promise<void> {
  await db.delete(attemptEvents).where(lt(attemptEvents.occurredAt, new Date(now.getTime() - LONGEST_WINDOW_SECONDS * 1000)));
}
