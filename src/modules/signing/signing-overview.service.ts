import type { Caller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import { findUserById } from '../users/users.directory.ts';
import { findWorkflowForCaller } from '../workflows/workflow-access.ts';
import type { SigningOverviewResponse } from './signing-overview.schemas.ts';

/**
 * The sender's words and the workflow's state for the signing page: the commence message reaches the
 * recipient by mail only, and a signing link should show it beside the document too.
 */
export function createSigningOverviewService({ db }: { db: Db }) {
  return { overview };

  async function overview(caller: Caller, workflowId: number): Promise<SigningOverviewResponse> {
    const { workflow } = await findWorkflowForCaller(db, caller, workflowId);
    const owner = await findUserById(db, workflow.ownerUserId);
    return {
      workflowId: workflow.id,
      name: workflow.name,
      title: workflow.title ?? null,
      message: workflow.message ?? null,
      ownerName: owner?.name ?? '',
      status: workflow.status,
      sequence: workflow.sequence,
      sealStatus: workflow.sealStatus,
    };
  }
}
export type SigningOverviewService = ReturnType<typeof createSigningOverviewService>;
