import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signUp } from '../helpers/auth.ts';
import { attemptEvents } from '../../src/platform/db/schema/index.ts';
import { ATTEMPT_PRUNE_JOB as PRUNE_JOB } from '../../src/platform/limits/attempts-prune.ts';
import {
  ATTEMPT_RULES,
  OTP_SENDS_PER_RECIPIENT,
  SIGNIN_FAILURES_PER_ACCOUNT,
  countAttempts,
  lockedForSeconds,
} from '../../src/platform/limits/attempts.ts';

/**
 * Trust issue item 12: attempt_events (sign-in failures, one-time codes, rate counts) used to grow for ever. A job
 * the queue's cron runs every hour deletes, scope by scope, the events no limit reads any more, in batches; what a
 * limit still reads stays, and the limits count as before. A lock counts back one window from its latest event, so
 * a scope keeps two windows of events.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function seed(scope: string, subject: string, secondsAgo: number[]) {
  await t.platform.db
    .insert(attemptEvents)
    .values(secondsAgo.map((ago) => ({ scope, subject, occurredAt: new Date(Date.now() - ago * 1000) })));
}

async function eventsOf(scope: string, subject: string) {
  const [row] = await t.platform.db
    .select({ n: count() })
    .from(attemptEvents)
    .where(and(eq(attemptEvents.scope, scope), eq(attemptEvents.subject, subject)));
  return row.n;
}

/** Runs the prune the way the schedule does: a job of its queue, through the workers. */
async function runPrune() {
  await t.platform.jobs.send(null, PRUNE_JOB, {});
  t.platform.jobs.notify(PRUNE_JOB);
  await t.drainJobs();
}

describe('attempt_events pruning', () => {
  it("is scheduled on the queue's cron", async () => {
    const { rows } = await t.platform.database.sql.executeSql(
      'select name, cron from pgboss.schedule where name = $1',
      [PRUNE_JOB.name],
    );
    expect(rows).toHaveLength(1);
    expect((rows[0] as { cron: string }).cron).toMatch(/^\S+ \S+ \* \* \*$/);
  });

  it("deletes every scope's events that no limit reads any more and keeps the rest, in batches", async () => {
    expect(ATTEMPT_RULES.length).toBeGreaterThanOrEqual(11);
    expect(new Set(ATTEMPT_RULES.map((rule) => rule.scope)).size).toBe(ATTEMPT_RULES.length);
    for (const rule of ATTEMPT_RULES) {
      const horizon = 2 * rule.windowSeconds;
      await seed(rule.scope, 'old', [horizon + 120, horizon + 3600, 3 * horizon]);
      await seed(rule.scope, 'kept', [horizon - 120, rule.windowSeconds, 1]);
    }
    // A scope no limit names any more (a retired rule): kept as long as the longest horizon, then deleted.
    const longest = Math.max(...ATTEMPT_RULES.map((rule) => 2 * rule.windowSeconds));
    await seed('retired.scope', 'old', [longest + 120]);
    await seed('retired.scope', 'kept', [longest - 120]);
    // More old rows than one batch deletes.
    await seed(
      'signin.address',
      'flood',
      Array.from({ length: 12_000 }, (_, i) => 2 * SIGNIN_FAILURES_PER_ACCOUNT.windowSeconds + 60 + i),
    );

    await runPrune();
    for (const rule of [...ATTEMPT_RULES, { scope: 'retired.scope' }]) {
      expect(await eventsOf(rule.scope, 'old'), rule.scope).toBe(0);
      expect(await eventsOf(rule.scope, 'kept'), rule.scope).toBe(rule.scope === 'retired.scope' ? 1 : 3);
    }
    expect(await eventsOf('signin.address', 'flood')).toBe(0);
    // A second run finds nothing more to delete.
    await runPrune();
    const [{ n }] = await t.platform.db
      .select({ n: count() })
      .from(attemptEvents)
      .where(sql`${attemptEvents.subject} in ('kept', 'old')`);
    expect(n).toBe(ATTEMPT_RULES.length * 3 + 1);
  });

  it('a sign-in lock whose burst began more than one window ago survives the prune', async () => {
    const user = await signUp(t, { name: 'Lorna Locked' });
    const window = SIGNIN_FAILURES_PER_ACCOUNT.windowSeconds;
    // Ten failures: nine 24 minutes ago, the last 10 minutes ago; locked until 15 minutes after the last one.
    await seed(SIGNIN_FAILURES_PER_ACCOUNT.scope, user.email, [...Array.from({ length: 9 }, () => window + 540), 600]);
    const signin = () =>
      t.app.inject({
        method: 'POST',
        url: '/auth/v1/signin',
        remoteAddress: '198.51.100.77',
        payload: { grant_type: 'PASSWORD', username: user.email, password: user.password },
      });
    const locked = await signin();
    expect(locked.statusCode).toBe(401);
    expect(locked.json().message).toBe('ACCOUNT_TEMPORARILY_LOCKED');

    await runPrune();
    const still = await signin();
    expect(still.statusCode, still.body).toBe(401);
    expect(still.json().message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    expect(Number(still.headers['retry-after'])).toBeGreaterThan(240);
    expect(Number(still.headers['retry-after'])).toBeLessThanOrEqual(300);
    expect(await eventsOf(SIGNIN_FAILURES_PER_ACCOUNT.scope, user.email)).toBe(10);
  });

  it('the one-time-code limits of a day still count after the prune', async () => {
    const day = OTP_SENDS_PER_RECIPIENT.windowSeconds;
    // Ten codes mailed: nine 46 hours ago, the last 23 hours ago: no new code for another hour.
    await seed(OTP_SENDS_PER_RECIPIENT.scope, 'recipient-9001', [
      ...Array.from({ length: 9 }, () => 2 * day - 3600 * 2),
      day - 3600,
    ]);
    await seed(OTP_SENDS_PER_RECIPIENT.scope, 'recipient-9002', [day - 60, 3600, 60]);
    const before = await lockedForSeconds(t.platform.db, OTP_SENDS_PER_RECIPIENT, 'recipient-9001');
    expect(before).toBeGreaterThan(3500);
    await runPrune();
    const after = await lockedForSeconds(t.platform.db, OTP_SENDS_PER_RECIPIENT, 'recipient-9001');
    expect(after).toBeGreaterThan(3500);
    expect(after).toBeLessThanOrEqual(before!);
    expect((await countAttempts(t.platform.db, OTP_SENDS_PER_RECIPIENT, 'recipient-9002')).count).toBe(3);
  });
});
