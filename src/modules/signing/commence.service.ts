import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db } from '../../platform/db/client.ts';
import { assertOwner, findWorkflowForCaller } from '../workflows/workflow-access.ts';
import type { RoutingDeps } from './routing.ts';
import type { CommenceBody } from './commence.schemas.ts';
import { sendWorkflow, type SendResult } from './send-workflow.ts';
import type { SurveyCommenceResult, SurveyService } from '../surveys/surveys.service.ts';

export type CommenceResult = SendResult | SurveyCommenceResult;

/** Sending a workflow (SPEC.md "States and transitions": DRAFT → SENT by POST commence). */
export function createCommenceService(deps: {
  db: Db;
  routing: RoutingDeps;
  surveys: Pick<SurveyService, 'commence' | 'notify'>;
}) {
  const { db, routing, surveys } = deps;
  return { commence };

  /**
   * Checks in this order, all under the workflow's row lock: visible (404), owned (INVALID_WORKFLOW_OWNER),
   * kind (SELF: OPERATION_IS_NOT_ALLOWED; SURVEY: the Power Survey's commence, surveys.service.ts), then everything sendWorkflow checks (status, content, plan).
   */
  async function commence(
    caller: UserCaller,
    workflowId: number,
    body: CommenceBody,
    context: RequestContext,
  ): Promise<CommenceResult> {
    const title = body.title?.trim() || null;
    const message = body.message?.trim() || null;
    const result = await db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      assertOwner(access);
      const { workflow } = access;
      if (workflow.sequence === 'SELF')
        throw new AppError('OPERATION_IS_NOT_ALLOWED', 'A self-sign workflow is signed by its owner without commence');
      if (workflow.sequence === 'SURVEY') return surveys.commence(tx, caller, workflow, { title, message }, context);
      return sendWorkflow(tx, routing, workflow, caller, { title, message }, context);
    });
    routing.outbox.notify();
    // Only a survey's commence queues a dispatch; waking its worker otherwise costs a fetch that finds nothing.
    if ('dispatch' in result) surveys.notify();
    return result;
  }
}

export type CommenceService = ReturnType<typeof createCommenceService>;
