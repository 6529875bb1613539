import type { Tx } from '../../platform/db/client.ts';
import { updateWorkflowRow } from './signing.repo.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { RequestContext } from '../../http/request-context.ts';
import { recordActivity } from '../activities/activities.service.ts';
import type { WorkflowRow } from '../workflows/workflow-access.ts';
import { advanceRouting, type RoutingDeps } from './routing.ts';
import { debitCredit } from '../billing/entitlements.service.ts';
import { assertActiveMemberOf } from '../organizations/organization-membership.ts';
import { nextStatus, type WorkflowStatus } from '../workflows/workflow-status.ts';
import { afterSurveyChildSettled } from '../surveys/survey-dispatch.ts';

import { SEAL_JOB } from './signing.jobs.ts';

export { SEAL_JOB };

export type CompletionDeps = RoutingDeps & { jobs: JobQueue };

/**
 * Runs inside the transaction of the action that finished a recipient, with the workflow row locked (`workflow` as
 * read under that lock):
 * dispatches whoever comes next, or completes the workflow when nobody action-required is left.
 * The caller notifies the outbox (and the seal worker when completed) after the commit.
 */
export async function advanceAfterFinish(
  tx: Tx,
  deps: CompletionDeps,
  workflow: WorkflowRow,
  context: Partial<RequestContext>,
): Promise<{ completed: boolean; status: WorkflowStatus }> {
  const { allDone, approvalsOnly } = await advanceRouting(tx, deps, workflow);
  if (!allDone) return { completed: false, status: workflow.status as WorkflowStatus };
  const status = await completeWorkflow(
    tx,
    deps.jobs,
    workflow,
    context,
    approvalsOnly ? 'ALL_APPROVED' : 'ALL_SIGNED',
  );
  await afterSurveyChildSettled(tx, deps.jobs, workflow);
  return { completed: true, status };
}

/**
 * SENT (or a SELF DRAFT) becomes COMPLETED with its seal PENDING, the Completed activity is recorded and the
 * seal job is enqueued, all in the caller's transaction: a crash after the commit still leaves the job in
 * the queue, and a rollback leaves neither. Because every action holds the workflow row lock, two racing
 * final actions complete it once.
 */
export async function completeWorkflow(
  tx: Tx,
  jobs: JobQueue,
  workflow: WorkflowRow,
  context: Partial<RequestContext>,
  trigger: 'ALL_SIGNED' | 'ALL_APPROVED' = 'ALL_SIGNED',
): Promise<WorkflowStatus> {
  const status = nextStatus(workflow.status, trigger);
  // A self-signed envelope never commences, so it pays its one credit here, and only while its owner is still a member of the
  // organization (a removed member keeps the draft, not the credits); otherwise the final signature is refused and nothing of it kept.
  if (workflow.sequence === 'SELF') {
    await assertActiveMemberOf(tx, workflow.organizationId, workflow.ownerUserId);
    await debitCredit(
      tx,
      workflow.organizationId,
      'Insufficient credit balance: completing a self-signed envelope uses one credit',
    );
  }
  const now = new Date();
  await updateWorkflowRow(tx, workflow.id, {
    status,
    completedAt: now,
    statusAt: now,
    sealStatus: 'PENDING',
    sealError: null,
  });
  await recordActivity(tx, {
    workflowId: workflow.id,
    kind: 'COMPLETED',
    action: 'Completed',
    sentence:
      status === 'APPROVED'
        ? `Every approver has approved; "${workflow.name}" is approved`
        : `Every recipient has finished; "${workflow.name}" is completed`,
    status,
    context,
  });
  await jobs.send(tx, SEAL_JOB, { workflowId: workflow.id });
  return status;
}
