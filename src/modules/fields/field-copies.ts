import type { DbOrTx } from '../../platform/db/client.ts';
import { fieldCopy, findFields, insertFieldRows, type FieldValues } from './fields.repo.ts';

/** One target of a copy: its workflow, and the old → new ids of documents and recipients. */
export type FieldCopyTarget = {
  workflowId: number;
  documentIds: Map<number, number>;
  recipientIds: Map<number, number>;
  /** The recipient that takes the source's unassigned fields (a Power Survey child's one signer); absent: they stay unassigned. */
  unassignedTo?: number;
};

/**
 * The placement of a workflow's fields copied into many workflows at once, in multi-row inserts: the batch
 * counterpart of `copyFields` (fields.service.ts), with the same rules (page, box, type, required, label, styling
 * and options; no values, signature links or fill times; a field whose document or assigned recipient has no
 * counterpart in a target is left out of it). Returns how many fields were written.
 */
export async function copyFieldsToMany(
  tx: DbOrTx,
  fromWorkflowId: number,
  targets: FieldCopyTarget[],
): Promise<number> {
  const sources = await findFields(tx, fromWorkflowId);
  const values: FieldValues[] = [];
  for (const target of targets) {
    for (const source of sources) {
      const documentId = target.documentIds.get(source.documentId);
      const recipientId =
        source.recipientId === null ? (target.unassignedTo ?? null) : target.recipientIds.get(source.recipientId);
      if (documentId === undefined || recipientId === undefined) continue;
      values.push(fieldCopy(source, { workflowId: target.workflowId, documentId, recipientId }));
    }
  }
  await insertFieldRows(tx, values);
  return values.length;
}
