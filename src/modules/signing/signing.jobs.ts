import { Type } from 'typebox';
import { defineJob, NoPayload } from '../../platform/jobs/queue.ts';

/**
 * Retry policy of the seal job: 9 attempts; pg-boss waits retryDelay + 2^n..2^(n+1) seconds before retry n (about
 * 11 s, 12 s, 14 s, ... up to 3-5 minutes), some 6-10 minutes in all, so a TSA or storage outage of a few minutes
 * heals by itself. After the last attempt the workflow's seal is FAILED and the owner is told; it is never left
 * PENDING.
 */
export const SEAL_RETRY = { retryLimit: 8, retryDelay: 10, retryBackoff: true, retryDelayMax: 600 } as const;

export const SealJobPayload = Type.Object({ workflowId: Type.Integer({ minimum: 1 }) });

/** The durable job that stamps and seals a completed workflow's documents (seal-job.ts `sealJob`). */
export const SEAL_JOB = defineJob({
  name: 'workflow.seal',
  payload: SealJobPayload,
  ...SEAL_RETRY,
  // The attempt is abandoned by the handler itself after 4 minutes, before the queue would abandon it unannounced.
  expireInSeconds: 5 * 60,
  // Sealing is mostly CPU (drawing, hashing, signing) between short queries, so a few in flight keep both the CPU
  // and the database busy; more would only queue on a 2-core machine.
  concurrency: 4,
});

/** Every five minutes: re-queues seals whose job vanished (seal-job.ts `resumeOrphanedSeals`). */
export const SEAL_WATCHDOG_JOB = defineJob({
  name: 'workflow.seal-watchdog',
  payload: NoPayload,
  cron: '*/5 * * * *',
  retryLimit: 0,
});
