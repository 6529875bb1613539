import { Type } from 'typebox';
import type { Db, Tx } from '../../platform/db/client.ts';
import { defineJob, type Job, type JobQueue } from '../../platform/jobs/queue.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { copyDocumentsToMany } from '../documents/document-copies.ts';
import { copyFieldsToMany } from '../fields/field-copies.ts';
import type { RoutingDeps } from '../signing/routing.ts';
import { sendWorkflows } from '../signing/send-workflow.ts';
import { createDraftWorkflows, updateSurveyParent } from '../workflows/workflow-core.ts';
import type { WorkflowRow } from '../workflows/workflow-access.ts';
import { nextStatus } from '../workflows/workflow-status.ts';
import { countSurvey, findRecipientsWithChild, findRecipientsWithoutChild, lockSurvey } from './surveys.repo.ts';

export const SurveyJobPayload = Type.Object({ parentWorkflowId: Type.Integer({ minimum: 1 }) });
export const SURVEY_DISPATCH_JOB = defineJob({
  name: 'survey.dispatch',
  payload: SurveyJobPayload,
  retryLimit: 10,
  retryDelay: 2,
  retryBackoff: true,
  expireInSeconds: 3600,
});
export const SURVEY_OUTCOME_JOB = defineJob({
  name: 'survey.outcome',
  payload: SurveyJobPayload,
  retryLimit: 10,
  retryDelay: 1,
  retryBackoff: true,
  concurrency: 4,
});

/**
 * Children created and sent per transaction. Each batch commits on its own, so a crash loses at most the batch in
 * flight (rolled back, redone on the retry); the batch is large enough that the multi-row inserts dominate the
 * per-child sending. Measured with `npm run bench:survey`.
 */
export const DISPATCH_BATCH = 250;
/**
 * Batches one dispatch job runs at once, each in its own transaction on its own connection: a batch mostly waits
 * on the database, so overlapping a few keeps both the service and the database busy. Well under the PostgreSQL
 * pool (20), which mail delivery and HTTP requests share.
 */
export const DISPATCH_LANES = 3;

export type SurveyDispatchDeps = {
  db: Db;
  jobs: JobQueue;
  routing: RoutingDeps;
  /** SURVEY_TEST_DELAY_MS, tests only: each batch that made children waits this long before committing (a window to kill the process in, a batch in flight). */
  testDelayMs?: number;
};

/**
 * Creates and sends the next batch of children of a SENT survey, under the parent's row lock: one child per
 * survey recipient without one (the unique (parentWorkflowId, parentRecipientId) index makes a duplicate
 * impossible even if two runs raced past the lock), each a DRAFT made by the workflow core with a copy of the
 * recipient row, the document and the fields (the unassigned ones given to its one signer), then sent through
 * sendWorkflows (sendWorkflow's batch form: a few multi-row statements for the Sent activities, the dispatch, the
 * outbox rows and their jobs), prepaid: the parent paid one credit per recipient at commence. Answers how many were
 * made (0: dispatch is over, or the survey is no longer SENT).
 *
 * The resume point is the database itself: the survey's recipients that have no child row. A batch commits its
 * children together with everything that sends them, so after a crash, a retry or a second instance, the next
 * batch starts from exactly the recipients still without a child; a batch that was rolled back left none.
 */
export async function dispatchBatch(
  tx: Tx,
  deps: SurveyDispatchDeps,
  parentId: number,
  batchSize = DISPATCH_BATCH,
): Promise<number> {
  const parent = await lockSurvey(tx, parentId, 'share');
  if (parent?.status !== 'SENT') return 0;
  const picked = await findRecipientsWithoutChild(tx, parent.id, batchSize);
  if (picked.length === 0) return 0;
  const made = await findRecipientsWithChild(
    tx,
    parent.id,
    picked.map((row) => row.id),
  );
  const pending = picked.filter((row) => !made.has(row.id));
  // Every row picked was made by a batch that committed meanwhile: pick again.
  if (pending.length === 0) return dispatchBatch(tx, deps, parentId, batchSize);

  const children = await createDraftWorkflows(
    tx,
    pending.map((row) => ({
      spec: {
        ownerUserId: parent.ownerUserId,
        organizationId: parent.organizationId,
        name: parent.name,
        sequence: 'UNORDERED',
        signType: 'POWERSURVEY',
        timeZone: parent.timeZone,
        reminderEnabled: parent.reminderEnabled,
        reminderIntervalDays: parent.reminderIntervalDays,
        reminderOffsetMinutes: parent.reminderOffsetMinutes,
        parentWorkflowId: parent.id,
        parentRecipientId: row.id,
      },
      recipients: [
        {
          userId: row.userId,
          name: row.name,
          email: row.email,
          role: 'SIGNER',
          color: row.color,
          useDigitalCert: row.useDigitalCert,
          enforceIdentity: row.enforceIdentity,
          passwordHash: row.passwordHash,
        },
      ],
    })),
  );
  const documentIds = await copyDocumentsToMany(
    tx,
    parent.id,
    children.map((child) => child.workflow.id),
  );
  await copyFieldsToMany(
    tx,
    parent.id,
    children.map((child, index) => ({
      workflowId: child.workflow.id,
      documentIds: documentIds.get(child.workflow.id)!,
      recipientIds: new Map([[pending[index].id, child.recipients[0].id]]),
      unassignedTo: child.recipients[0].id,
    })),
  );
  await sendWorkflows(
    tx,
    deps.routing,
    children.map((child) => child.workflow),
    { userId: parent.ownerUserId },
    { title: parent.title, message: parent.message },
    {},
    { prepaid: { credits: 0 } },
  );
  return children.length;
}

/**
 * The dispatch job: batches until every recipient has its child. Safe to run twice, alongside itself, and after a
 * crash (each batch picks only recipients still without a child). The outcome job runs at the end, for children
 * that were already declined (or the parent declined) while the dispatch went on.
 */
export function surveyDispatchJob(deps: SurveyDispatchDeps): Job<typeof SurveyJobPayload> {
  return {
    ...SURVEY_DISPATCH_JOB,
    async handler({ parentWorkflowId }, meta) {
      const lane = async () => {
        for (;;) {
          const made = await deps.db.transaction(async (tx) => {
            const count = await dispatchBatch(tx, deps, parentWorkflowId);
            if (count > 0 && deps.testDelayMs) {
              // A warning: the delay is for crash tests and must never go unnoticed in production.
              meta.log.warn(
                { parentWorkflowId },
                `a batch of ${count} children waits SURVEY_TEST_DELAY_MS=${deps.testDelayMs} before committing`,
              );
              await new Promise((resolve) => setTimeout(resolve, deps.testDelayMs));
            }
            return count;
          });
          deps.routing.outbox.notify();
          if (made === 0) return;
        }
      };
      await Promise.all(Array.from({ length: DISPATCH_LANES }, lane));
      await deps.db.transaction((tx) => queueSurveyOutcome(tx, deps.jobs, parentWorkflowId));
      deps.jobs.notify(SURVEY_OUTCOME_JOB);
    },
  };
}

/** Queues a re-evaluation of a survey's outcome in `tx` (a child finished or was declined; dispatch ended). */
export async function queueSurveyOutcome(tx: Tx, jobs: JobQueue, parentWorkflowId: number): Promise<void> {
  await jobs.send(tx, SURVEY_OUTCOME_JOB, { parentWorkflowId });
}

/** completion.ts and decline.service.ts: a finished or declined child re-evaluates its parent (no-op for other workflows). */
export async function afterSurveyChildSettled(tx: Tx, jobs: JobQueue, workflow: WorkflowRow): Promise<void> {
  if (workflow.parentWorkflowId !== null) await queueSurveyOutcome(tx, jobs, workflow.parentWorkflowId);
}

/**
 * SPEC.md's survey rows, evaluated once every recipient has a child and none is still pending: every child
 * COMPLETED → the parent COMPLETED; every child VOID (declined, or voided with the parent) → VOID; a mix → the
 * parent stays SENT. A job rather than a call inside the child's transaction: the child's action holds the
 * child's row lock, and the parent's decline takes the parent's lock before the children's, so taking the
 * parent's lock from the child's transaction could deadlock.
 */
export async function settleSurvey(tx: Tx, parentId: number): Promise<WorkflowRow | null> {
  const parent = await lockSurvey(tx, parentId);
  if (parent?.status !== 'SENT') return null;
  const counts = await countSurvey(tx, parent.id);
  if (counts.dispatched < counts.totalRecipients || counts.totalRecipients === 0) return null;
  const now = new Date();
  if (counts.completed === counts.totalRecipients) {
    const status = nextStatus(parent.status, 'SURVEY_COMPLETED');
    const updated = await updateSurveyParent(tx, parent.id, { status, statusAt: now, completedAt: now });
    await recordActivity(tx, {
      workflowId: parent.id,
      kind: 'COMPLETED',
      action: 'Completed',
      sentence: `Every one of the ${counts.totalRecipients} recipients has signed; "${parent.name}" is completed`,
      status,
    });
    return updated;
  }
  if (counts.voided === counts.totalRecipients) {
    const status = nextStatus(parent.status, 'VOID');
    const updated = await updateSurveyParent(tx, parent.id, { status, statusAt: now });
    await recordActivity(tx, {
      workflowId: parent.id,
      kind: 'VOIDED',
      action: 'Voided',
      sentence: `Every one of the ${counts.totalRecipients} recipients declined or was voided; "${parent.name}" is void`,
      status,
    });
    return updated;
  }
  return null;
}

export function surveyOutcomeJob(deps: { db: Db }): Job<typeof SurveyJobPayload> {
  return {
    ...SURVEY_OUTCOME_JOB,
    async handler({ parentWorkflowId }) {
      await deps.db.transaction((tx) => settleSurvey(tx, parentWorkflowId));
    },
  };
}
