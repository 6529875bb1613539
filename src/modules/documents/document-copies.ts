import type { DbOrTx } from '../../platform/db/client.ts';
import { documentCopy, findDocumentsInPositionOrder, insertDocuments, type NewDocument } from './documents.repo.ts';

/**
 * The documents of one workflow copied into many at once (Power Survey: one copy per child), in multi-row
 * inserts: the batch counterpart of `copyDocuments` (documents.service.ts), with the same rules: position order,
 * the stored file shared (blobs are content-addressed), neither the sealed file nor the viewed flag copied.
 * Returns, per target workflow, old document id → new document id.
 */
export async function copyDocumentsToMany(
  tx: DbOrTx,
  fromWorkflowId: number,
  toWorkflowIds: number[],
): Promise<Map<number, Map<number, number>>> {
  const sources = await findDocumentsInPositionOrder(tx, fromWorkflowId);
  const values: NewDocument[] = toWorkflowIds.flatMap((workflowId) =>
    sources.map((source) => documentCopy(source, workflowId)),
  );
  const inserted = await insertDocuments(tx, values);
  const copies = new Map<number, Map<number, number>>();
  toWorkflowIds.forEach((workflowId, target) => {
    copies.set(
      workflowId,
      new Map(sources.map((source, index) => [source.id, inserted[target * sources.length + index].id])),
    );
  });
  return copies;
}
