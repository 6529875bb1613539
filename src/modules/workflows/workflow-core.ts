import type { Tx } from '../../platform/db/client.ts';
import { insertRecipient, insertRecipients, insertWorkflow, insertWorkflows, type NewRecipient, type NewWorkflow, type RecipientRow, type WorkflowRow } from './workflows.repo.ts';
import { SELF_RECIPIENT_COLOR } from './workflows.service.ts';

/**
 * The one way a workflow comes into being (upload, template `use`/`apply`/`dispatch`, Power Survey children): a
 * DRAFT row with its settings and, optionally, its first recipient rows. Documents and fields are added by their
 * own modules in the same transaction; sending is signing/send-workflow.ts.
 */
export type DraftSpec = Omit<NewWorkflow, 'id' | 'status' | 'createdAt' | 'statusAt' | 'sentAt' | 'completedAt' | 'sealStatus' | 'sealError'> & {
  /** SELF workflows get their owner as the one SIGNER row automatically. */
  owner?: { userId: number; name: string; email: string };
};

/** A recipient row to create with the draft (everything of the row but its workflow). */
export type DraftRecipient = Omit<NewRecipient, 'id' | 'workflowId'>;

export async function createDraftWorkflow(tx: Tx, spec: DraftSpec, recipients: DraftRecipient[] = []): Promise<{ workflow: WorkflowRow; recipients: RecipientRow[] }> {
  const { owner, ...values } = spec;
  const workflow = await insertWorkflow(tx, values);
  const rows: RecipientRow[] = [];
  if (workflow.sequence === 'SELF' && owner) {
    rows.push(await insertRecipient(tx, { workflowId: workflow.id, userId: owner.userId, name: owner.name, email: owner.email, role: 'SIGNER', color: SELF_RECIPIENT_COLOR }));
  }
  for (const recipient of recipients) {
    rows.push(await insertRecipient(tx, { ...recipient, workflowId: workflow.id }));
  }
  return { workflow, recipients: rows };
}

/**
 * The batch variant of `createDraftWorkflow` for many drafts at once (a Power Survey's children, thousands per
 * survey): the same rows, written in multi-row inserts, two statements per thousand drafts instead of two per
 * draft. No SELF owner row is added (a batch never makes SELF workflows). Results are in the order of `drafts`.
 */
export async function createDraftWorkflows(tx: Tx, drafts: { spec: Omit<DraftSpec, 'owner'>; recipients: DraftRecipient[] }[]): Promise<{ workflow: WorkflowRow; recipients: RecipientRow[] }[]> {
  if (drafts.some((draft) => draft.spec.sequence === 'SELF')) throw new Error('createDraftWorkflows: SELF workflows are made one at a time');
  const workflows = await insertWorkflows(tx, drafts.map((draft) => draft.spec));
  const rows = await insertRecipients(tx, drafts.flatMap((draft, index) => draft.recipients.map((recipient) => ({ ...recipient, workflowId: workflows[index].id }))));
  let next = 0;
  return drafts.map((draft, index) => {
    const own = rows.slice(next, next + draft.recipients.length);
    next += draft.recipients.length;
    return { workflow: workflows[index], recipients: own };
  });
}
