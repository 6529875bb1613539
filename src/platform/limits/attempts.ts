import { and, count, eq, gt, max, sql } from 'drizzle-orm';
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
export const RECIPIENT_PASSWORD_FAILURES: AttemptRule = {
  scope: 'recipient.password',
  max: 10,
  windowSeconds: 15 * 60,
};
/** Wrong signing passwords (useDigitalCert signers) count like sign-in failures, per signing key (its email), across workflows. */
export const SIGNING_PASSWORD_FAILURES: AttemptRule = { scope: 'signing.password', max: 10, windowSeconds: 15 * 60 };
/** At most 5 wrong one-time codes per recipient per hour, across every code mailed (a resend does not reset it). */
export const OTP_FAILURES_PER_RECIPIENT: AttemptRule = { scope: 'otp.failure', max: 5, windowSeconds: 60 * 60 };
/** At most 10 one-time codes mailed per recipient per day. */
export const OTP_SENDS_PER_RECIPIENT: AttemptRule = { scope: 'otp.send', max: 10, windowSeconds: 24 * 60 * 60 };
/** A new signing key (a locked or forgotten signing password): at most 10 codes mailed per key (its email) a day, as one-time codes. */
export const SIGNING_KEY_RESET_SENDS: AttemptRule = {
  scope: 'signing.reset.send',
  max: 10,
  windowSeconds: 24 * 60 * 60,
};
/** ... and at most 5 wrong reset codes per key an hour, across every code mailed. */
export const SIGNING_KEY_RESET_FAILURES: AttemptRule = {
  scope: 'signing.reset.failure',
  max: 5,
  windowSeconds: 60 * 60,
};
/**
 * Uploads and replacements per account per minute (every attempt that gets past the check counts, accepted or
 * not: each costs a render or a conversion). `max` is the default; UPLOADS_PER_MINUTE overrides it.
 */
export const DOCUMENT_UPLOADS_PER_ACCOUNT: AttemptRule = { scope: 'document.upload', max: 60, windowSeconds: 60 };

/** At most 5 verification mails per account per day beyond the sign-up mail (POST /auth/v1/verify-email/resend). */
export const VERIFICATION_MAILS_PER_ACCOUNT: AttemptRule = {
  scope: 'verify.mail',
  max: 5,
  windowSeconds: 24 * 60 * 60,
};

/**
 * Sign-in challenges (passkeys, smart cards) are asked for without credentials, and each one is a stored row: at
 * most this many per client address within 15 minutes (the sign-in limit per address).
 */
export const CHALLENGES_PER_ADDRESS: AttemptRule = { scope: 'signin.challenge', max: 100, windowSeconds: 15 * 60 };
/** Verification is public and costs a parse and a hash of up to 25 MB: 30 a minute from one address. */
export const VERIFY_PER_ADDRESS: AttemptRule = { scope: 'verify.address', max: 30, windowSeconds: 60 };
/** Each email settings test sends a real mail to an address the owner picks and opens connections to hosts they name: 20 an hour per organization. */
export const MAIL_SETTINGS_TESTS: AttemptRule = { scope: 'mail.settings.test', max: 20, windowSeconds: 60 * 60 };
/**
 * Invitations leave through the platform's own mail to an address the inviter picks: 50 an hour per organization (a team
 * onboarding at once), and 3 a day to one address from one organization (subject `<organizationId>:<email>`: a withdrawn
 * and renewed invitation counts again), so withdraw-and-invite cannot mail-bomb anyone.
 */
export const INVITATIONS_PER_ORGANIZATION: AttemptRule = { scope: 'org.invite', max: 50, windowSeconds: 60 * 60 };
export const INVITATIONS_OF_ADDRESS: AttemptRule = { scope: 'org.invite.address', max: 3, windowSeconds: 24 * 60 * 60 };
/**
 * Public writes per client address. A sign-up costs an argon2id hash, an account, an organization with credits and a
 * mail to any address: 20 an hour (a classroom or an office behind one address signing up together). Starting a sign-in
 * (GET /auth/v1/signin, GET /bff/auth/authorize) stores a login state kept a day: 100 in 15 minutes, the sign-in
 * limit per address, far above what one browser or office starts.
 */
export const SIGNUPS_PER_ADDRESS: AttemptRule = { scope: 'signup.address', max: 20, windowSeconds: 60 * 60 };
export const LOGIN_STATES_PER_ADDRESS: AttemptRule = { scope: 'signin.state', max: 100, windowSeconds: 15 * 60 };

/**
 * Every limit counted in attempt_events, one rule per scope. The prune job (attempts-prune.ts) keeps each scope's
 * events as long as its rule can read them and deletes the rest, so a rule counted anywhere must be listed here:
 * recordAttempts refuses a rule that is not (a programming error, found by the first test of that limit).
 */
export const ATTEMPT_RULES: readonly AttemptRule[] = [
  SIGNIN_FAILURES_PER_ACCOUNT,
  SIGNIN_FAILURES_PER_ADDRESS,
  RECIPIENT_PASSWORD_FAILURES,
  SIGNING_PASSWORD_FAILURES,
  OTP_FAILURES_PER_RECIPIENT,
  OTP_SENDS_PER_RECIPIENT,
  SIGNING_KEY_RESET_SENDS,
  SIGNING_KEY_RESET_FAILURES,
  DOCUMENT_UPLOADS_PER_ACCOUNT,
  VERIFICATION_MAILS_PER_ACCOUNT,
  CHALLENGES_PER_ADDRESS,
  VERIFY_PER_ADDRESS,
  MAIL_SETTINGS_TESTS,
  INVITATIONS_PER_ORGANIZATION,
  INVITATIONS_OF_ADDRESS,
  SIGNUPS_PER_ADDRESS,
  LOGIN_STATES_PER_ADDRESS,
];

/**
 * How far back a rule reads: lockedForSeconds counts the window that ends at the subject's latest event, and that
 * event may itself be almost a window old, so an event up to two windows old still holds a lock (ten sign-in
 * failures over 14 minutes keep the account locked until 15 minutes after the last). Older events count for nothing.
 */
export function retentionSeconds(rule: AttemptRule): number {
  return 2 * rule.windowSeconds;
}

/** The longest retention of any rule: what events of a scope no rule names any more (a retired limit) are kept for. */
export const LONGEST_RETENTION_SECONDS = Math.max(...ATTEMPT_RULES.map(retentionSeconds));

const KNOWN_WINDOWS = new Map(ATTEMPT_RULES.map((rule) => [rule.scope, rule.windowSeconds]));

export type AttemptCount = { count: number; latest: Date | null };

export async function countAttempts(
  db: DbOrTx,
  rule: AttemptRule,
  subject: string,
  now = new Date(),
): Promise<AttemptCount> {
  const since = new Date(now.getTime() - rule.windowSeconds * 1000);
  const [row] = await db
    .select({ count: count(), latest: max(attemptEvents.occurredAt) })
    .from(attemptEvents)
    .where(
      and(eq(attemptEvents.scope, rule.scope), eq(attemptEvents.subject, subject), gt(attemptEvents.occurredAt, since)),
    );
  return { count: Number(row?.count ?? 0), latest: row?.latest ? new Date(row.latest) : null };
}

/**
 * Seconds until the subject may try again, or null when it is under the limit. Locked means: `max` events
 * within one window that ends at the latest event, and that event less than a window ago. Counting back from
 * the latest event rather than from now keeps the lock for a full window after the last failure even when
 * the earliest failures of the burst are by then older than the window.
 */
export async function lockedForSeconds(
  db: DbOrTx,
  rule: AttemptRule,
  subject: string,
  now = new Date(),
): Promise<number | null> {
  const since = new Date(now.getTime() - rule.windowSeconds * 1000);
  // One statement: the latest event within the window, and how many events lie within a window ending at it.
  const ofSubject = and(eq(attemptEvents.scope, rule.scope), eq(attemptEvents.subject, subject));
  const latestEvent = db
    .select({ latest: max(attemptEvents.occurredAt).as('latest') })
    .from(attemptEvents)
    .where(and(ofSubject, gt(attemptEvents.occurredAt, since)))
    .as('latest_event');
  const [row] = await db
    .select({
      latest: latestEvent.latest,
      burst: sql<number>`(select count(*)::int from ${attemptEvents} where ${ofSubject}
      and ${attemptEvents.occurredAt} > ${latestEvent.latest} - make_interval(secs => ${rule.windowSeconds}))`,
    })
    .from(latestEvent);
  if (!row?.latest) return null;
  if (Number(row.burst) < rule.max) return null;
  const latest = new Date(row.latest);
  return Math.max(1, Math.ceil((latest.getTime() + rule.windowSeconds * 1000 - now.getTime()) / 1000));
}

/** The longest lock among several (rule, subject) pairs, or null when none is locked. */
export async function longestLock(
  db: DbOrTx,
  checks: [AttemptRule, string][],
  now = new Date(),
): Promise<number | null> {
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
  for (const [rule] of checks) {
    // A rule outside ATTEMPT_RULES (or reading further back than its entry) would have its events pruned while it still counts them.
    if ((KNOWN_WINDOWS.get(rule.scope) ?? -1) < rule.windowSeconds)
      throw new Error(`attempt rule ${rule.scope} is not listed in ATTEMPT_RULES`);
  }
  await db.insert(attemptEvents).values(checks.map(([rule, subject]) => ({ scope: rule.scope, subject })));
}

/** Forgets a subject's events under one rule (a successful sign-in clears the account's failures). */
export async function clearAttempts(db: DbOrTx, rule: AttemptRule, subject: string): Promise<void> {
  await db.delete(attemptEvents).where(and(eq(attemptEvents.scope, rule.scope), eq(attemptEvents.subject, subject)));
}

/**
 * Deletes up to `limit` events that are past their retention at `now`: `seconds` for the events of each listed scope,
 * `otherSeconds` for any other scope. One statement and one pass over the table for every scope (the cutoff joined in
 * per row), the rows then deleted by their primary key; answers how many went.
 */
export async function deleteExpiredAttemptEvents(
  db: DbOrTx,
  retention: { scope: string; seconds: number }[],
  otherSeconds: number,
  now: Date,
  limit: number,
): Promise<number> {
  const rules = sql.join(
    retention.map((rule) => sql`(${rule.scope}::text, ${rule.seconds}::int)`),
    sql`, `,
  );
  const result = await db.execute<{
    id: number;
  }>(sql`delete from ${attemptEvents} where ${attemptEvents.id} = any(array(
      select e.id from ${attemptEvents} e left join (values ${rules}) as r(scope, seconds) on r.scope = e.scope
      where e.occurred_at < ${now.toISOString()}::timestamptz - make_interval(secs => coalesce(r.seconds, ${otherSeconds}::int))
      limit ${limit}))
    returning ${attemptEvents.id}`);
  return result.rows.length;
}
