import { AppError } from '../../errors.ts';
import type { Db } from '../../platform/db/client.ts';
import { findWorkflowRow } from './signing.repo.ts';
import type { WorkflowRow } from '../workflows/workflow-access.ts';
import { isFinishedStatus } from '../workflows/workflow-status.ts';

/**
 * SPEC.md applies the seal on the transition to COMPLETED, but the seal is a job that runs just after the
 * completing commit. Readers of a COMPLETED workflow (downloads, the certificate, the evidence report) wait
 * here for it rather than answer "still being sealed", so a client that reads COMPLETED and downloads at
 * once gets the sealed file.
 */
export type SealWaiter = {
  /**
   * The seal job calls this in this process when a seal progressed: a document's sealed file stored and linked, or
   * the seal committed leaving PENDING (SEALED or FAILED).
   */
  progressed(workflowId: number): void;
  /**
   * A COMPLETED workflow whose seal is PENDING: waits until it is SEALED or FAILED and returns the fresh row,
   * or after the configured wait answers 503 SERVICE_UNAVAILABLE with Retry-After. Any other workflow is
   * returned unchanged, without a query. `ready`, asked before each look at the row: returns as soon as it says
   * true (a document whose sealed file is stored: the file is final then, and the SEALED commit that follows only
   * marks the workflow and queues the completion mails, so a download of it need not wait for that commit).
   */
  awaitSeal(workflow: WorkflowRow, ready?: () => Promise<boolean>): Promise<WorkflowRow>;
};

/**
 * A seal run by this instance wakes its waiters at once (progressed()); one run by another instance is seen
 * by re-reading the row at this interval, one small query per waiting request.
 */
const POLL_MS = 500;
export const SEAL_RETRY_AFTER_SECONDS = 5;

export function createSealWaiter(deps: { db: Db; waitSeconds: number }): SealWaiter {
  const listeners = new Map<number, Set<() => void>>();

  async function readRow(workflowId: number): Promise<WorkflowRow | undefined> {
    const row = (await findWorkflowRow(deps.db, workflowId)) ?? undefined;
    return row;
  }

  return {
    progressed(workflowId) {
      for (const wake of listeners.get(workflowId) ?? []) wake();
    },

    async awaitSeal(workflow, ready) {
      if (!isSealPending(workflow)) return workflow;
      const deadline = Date.now() + deps.waitSeconds * 1000;
      let signalled = false;
      let wake: (() => void) | null = null;
      const listener = () => {
        signalled = true;
        wake?.();
      };
      const waiting = listeners.get(workflow.id) ?? new Set();
      listeners.set(workflow.id, waiting);
      waiting.add(listener);
      try {
        for (;;) {
          // Read first: the seal may have landed between the caller's read and the listener above. The caller's own
          // condition before the row: once woken by a document's storing, one query answers.
          if (ready && (await ready())) return workflow;
          const row = await readRow(workflow.id);
          if (!row || !isSealPending(row)) return row ?? workflow;
          const remaining = deadline - Date.now();
          if (remaining <= 0) {
            throw new AppError(
              'SERVICE_UNAVAILABLE',
              'The signed document is still being sealed; try again shortly',
              undefined,
              { retryAfterSeconds: SEAL_RETRY_AFTER_SECONDS },
            );
          }
          if (!signalled) {
            let timer: NodeJS.Timeout | undefined;
            await new Promise<void>((resolve) => {
              wake = resolve;
              timer = setTimeout(resolve, Math.min(POLL_MS, remaining));
            });
            clearTimeout(timer);
            wake = null;
          }
          signalled = false;
        }
      } finally {
        waiting.delete(listener);
        if (waiting.size === 0) listeners.delete(workflow.id);
      }
    },
  };
}

function isSealPending(workflow: WorkflowRow): boolean {
  return isFinishedStatus(workflow.status) && workflow.sealStatus === 'PENDING';
}
