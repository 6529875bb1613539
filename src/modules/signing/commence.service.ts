import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db } from '../../platform/db/client.ts';
import { assertOwner, findWorkflowForCaller } from '../workflows/workflow-access.ts';
import type { RoutingDeps } from './routing.ts';
import type { CommenceBody } from './commence.schemas.ts';
import { sendWorkflow, type SendResult } from './send-workflow.ts';

export type CommenceResult = SendResult;

/** Sending a workflow (SPEC.md "States and transitions": DRAFT → SENT by POST commence). */
export function createCommenceService(deps: { db: Db; routing: RoutingDeps }) {
  const { db, routing } = deps;
  return { commence };

  /**
   * Checks in this order, all under the workflow's row lock: visible (404), owned (INVALID_WORKFLOW_OWNER),
   * kind (SELF and SURVEY: OPERATION_IS_NOT_ALLOWED), then everything sendWorkflow checks (status, content, plan).
   */
  async function commence(caller: UserCaller, workflowId: number, body: CommenceBody, context: RequestContext): Promise<CommenceResult> {
    const title = body.title?.trim() || null;
    const message = body.message?.trim() || null;
    const result = await db.transaction(async (tx) => {
      const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
      assertOwner(access);
      const { workflow } = access;
      if (workflow.sequence === 'SELF') throw new AppError('OPERATION_IS_NOT_ALLOWED', 'A self-sign workflow is signed by its owner without commence');
      if (workflow.sequence === 'SURVEY') throw new AppError('OPERATION_IS_NOT_ALLOWED', 'Power Survey dispatch is not available');
      return sendWorkflow(tx, routing, workflow, caller, { title, message }, context);
    });
    routing.outbox.notify();
    return result;
  }
}

export type CommenceService = ReturnType<typeof createCommenceService>;
