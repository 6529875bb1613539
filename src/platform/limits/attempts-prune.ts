import type { Db } from '../db/client.ts';
import { defineJob, NoPayload, type Job } from '../jobs/queue.ts';
import { ATTEMPT_RULES, LONGEST_RETENTION_SECONDS, deleteExpiredAttemptEvents, retentionSeconds } from './attempts.ts';

/**
 * Hourly across all instances (pg-boss's cron makes one job per tick), off the five-minute marks of the other schedules.
 * Idempotent, so a failed run is not retried: the next hour's deletes what it left.
 */
export const ATTEMPT_PRUNE_JOB = defineJob({
  name: 'limits.attempt-events-prune',
  payload: NoPayload,
  cron: '41 * * * *',
  retryLimit: 0,
  expireInSeconds: 600,
});

/**
 * Rows per statement. Each batch is its own short statement (no transaction around the loop), so the prune never
 * holds many row locks for long: a sign-in that clears its failures meanwhile waits for one batch at most, and
 * counting or recording events never waits for it (readers and inserts take no row locks).
 */
const BATCH = 5_000;

/**
 * Deletes the attempt events no limit reads any more: for each rule of ATTEMPT_RULES, its scope's events older than
 * its retention (two windows: a sign-in failure after 30 minutes, a one-time code mailed after 48 hours); events of
 * a scope no rule names after the longest retention. Answers how many rows went.
 */
export async function pruneAttemptEvents(db: Db, now: Date): Promise<number> {
  const retention = ATTEMPT_RULES.map((rule) => ({ scope: rule.scope, seconds: retentionSeconds(rule) }));
  let deleted = 0;
  for (;;) {
    const batch = await deleteExpiredAttemptEvents(db, retention, LONGEST_RETENTION_SECONDS, now, BATCH);
    deleted += batch;
    if (batch < BATCH) return deleted;
  }
}

export function attemptPruneJob(db: Db): Job<typeof NoPayload> {
  return {
    ...ATTEMPT_PRUNE_JOB,
    async handler() {
      await pruneAttemptEvents(db, new Date());
    },
  };
}
