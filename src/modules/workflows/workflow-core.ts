import type { Tx } from '../../platform/db/client.ts';
import {
  insertRecipients,
  insertWorkflows,
  setSentChildrenStatus,
  setWorkflowsFolder,
  unfileFolder as unfileFolderRows,
  updateWorkflow,
  type NewRecipient,
  type NewWorkflow,
  type RecipientRow,
  type WorkflowRow,
} from './workflows.repo.ts';
import { SELF_RECIPIENT_COLOR } from './workflows.service.ts';

/**
 * The one way a workflow comes into being (upload, template `use`/`apply`/`dispatch`, Power Survey children): a
 * DRAFT row with its settings and, optionally, its first recipient rows. Documents and fields are added by their
 * own modules in the same transaction; sending is signing/send-workflow.ts.
 */
export type DraftSpec = Omit<
  NewWorkflow,
  'id' | 'status' | 'createdAt' | 'statusAt' | 'sentAt' | 'completedAt' | 'sealStatus' | 'sealError'
> & {
  /** SELF workflows get their owner as the one SIGNER row automatically. */
  owner?: { userId: number; name: string; email: string };
};

/** A recipient row to create with the draft (everything of the row but its workflow). */
export type DraftRecipient = Omit<NewRecipient, 'id' | 'workflowId'>;

export async function createDraftWorkflow(
  tx: Tx,
  spec: DraftSpec,
  recipients: DraftRecipient[] = [],
): Promise<{ workflow: WorkflowRow; recipients: RecipientRow[] }> {
  const [created] = await createDraftWorkflows(tx, [{ spec, recipients }]);
  return created;
}

/**
 * Many drafts at once (a Power Survey's children, thousands per survey; one for an upload): the rows written in
 * multi-row inserts, two statements per thousand drafts. A SELF draft gets its owner as its first recipient row.
 * Results are in the order of `drafts`, each draft's recipients in the order given.
 */
export async function createDraftWorkflows(
  tx: Tx,
  drafts: { spec: DraftSpec; recipients: DraftRecipient[] }[],
): Promise<{ workflow: WorkflowRow; recipients: RecipientRow[] }[]> {
  const workflows = await insertWorkflows(
    tx,
    drafts.map(({ spec: { owner: _owner, ...values } }) => values),
  );
  const recipientsOf = drafts.map(({ spec, recipients }) => {
    const { owner } = spec;
    if (spec.sequence !== 'SELF' || !owner) return recipients;
    return [
      {
        userId: owner.userId,
        name: owner.name,
        email: owner.email,
        role: 'SIGNER',
        color: SELF_RECIPIENT_COLOR,
      } satisfies DraftRecipient,
      ...recipients,
    ];
  });
  const rows = await insertRecipients(
    tx,
    recipientsOf.flatMap((list, index) => list.map((recipient) => ({ ...recipient, workflowId: workflows[index].id }))),
  );
  let next = 0;
  return drafts.map((_, index) => {
    const own = rows.slice(next, next + recipientsOf[index].length);
    next += recipientsOf[index].length;
    return { workflow: workflows[index], recipients: own };
  });
}

/*
 * The workflows table is this module's (ARCHITECTURE.md, "Tables and their owners"): other modules change a
 * workflow row through these, in their own transaction.
 */

/** Files the workflows into a personal folder: the folders module has checked the folder and locked the workflows. */
export function fileWorkflows(tx: Tx, workflowIds: number[], folderId: number): Promise<void> {
  return setWorkflowsFolder(tx, workflowIds, folderId);
}

/** Before a folder goes, the workflows it held are unfiled (they stay). */
export function unfileFolder(tx: Tx, folderId: number): Promise<void> {
  return unfileFolderRows(tx, folderId);
}

/** The state of a Power Survey parent (the surveys module holds its row lock and took `status` from workflow-status.ts). */
export function updateSurveyParent(
  tx: Tx,
  workflowId: number,
  values: Pick<NewWorkflow, 'status' | 'statusAt'> &
    Partial<Pick<NewWorkflow, 'sentAt' | 'completedAt' | 'title' | 'message'>>,
): Promise<WorkflowRow> {
  return updateWorkflow(tx, workflowId, values);
}

/** A declined or voided Power Survey's SENT children take the parent's status; answers their ids. */
export function setSurveyChildrenStatus(tx: Tx, parentId: number, status: string, at: Date): Promise<number[]> {
  return setSentChildrenStatus(tx, parentId, status, at);
}
