import type { Db } from '../../platform/db/client.ts';
import { defineJob, NoPayload, type Job } from '../../platform/jobs/queue.ts';
import { discardPendingSignerRevisions } from '../signing/signer-revisions.ts';
import { deletePreparations, findExpiredPreparations } from './remote-signing.repo.ts';

/** Every 15 minutes across all instances; idempotent, so a failed sweep is left to the next one. */
export const PREPARATION_SWEEP_JOB = defineJob({
  name: 'remote-signing.preparation-sweep',
  payload: NoPayload,
  cron: '*/15 * * * *',
  retryLimit: 0,
  expireInSeconds: 300,
});

/**
 * How long past its expiry a preparation is kept. A completion that claimed its preparations before they expired
 * may still be talking to the provider (seconds); an hour leaves it far behind before its revision could go.
 */
export const PREPARATION_GRACE_MS = 60 * 60 * 1000;
/** Rows per transaction: the table holds about an hour of preparations, so one batch is usually all of them. */
const BATCH = 500;

/**
 * Removes remote preparations more than PREPARATION_GRACE_MS past their expiry: an unused one takes its PENDING
 * signer revision with it (the signature can no longer arrive: completing answers CSC_HASH_NOT_PREPARED, as it did
 * once the preparation expired); a used one is only a record that its code was spent, and an unknown hash is
 * refused the same way. Completed revisions stay. Returns how many preparations and revisions went. Without it
 * every abandoned preparation kept its row and a PENDING revision (with the laid-out document's blob key) for ever.
 */
export async function sweepExpiredPreparations(
  db: Db,
  now: Date,
): Promise<{ preparations: number; revisions: number }> {
  const before = new Date(now.getTime() - PREPARATION_GRACE_MS);
  let preparations = 0;
  let revisions = 0;
  for (;;) {
    const done = await db.transaction(async (tx) => {
      const rows = await findExpiredPreparations(tx, before, BATCH);
      // Unused: their revisions first (deleting a revision cascades to the preparations pointing at it).
      revisions += await discardPendingSignerRevisions(
        tx,
        rows.filter((row) => row.usedAt === null).map((row) => row.revisionId),
      );
      await deletePreparations(
        tx,
        rows.map((row) => row.id),
      );
      preparations += rows.length;
      return rows.length < BATCH;
    });
    if (done) return { preparations, revisions };
  }
}

export function preparationSweepJob(db: Db): Job<typeof NoPayload> {
  return {
    ...PREPARATION_SWEEP_JOB,
    async handler() {
      await sweepExpiredPreparations(db, new Date());
    },
  };
}
