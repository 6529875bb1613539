import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { documents, workflows } from '../../platform/db/schema/index.ts';

/** The sealed document whose stored file has this SHA-256 (blob keys are the SHA-256 of the bytes). */
export async function findSealedDocumentByHash(db: DbOrTx, sha256: string) {
  const [row] = await db
    .select({ workflowId: workflows.id, completedAt: workflows.completedAt, documentName: documents.name })
    .from(documents)
    .innerJoin(workflows, eq(workflows.id, documents.workflowId))
    .where(and(eq(documents.sealedBlobKey, sha256), isNull(workflows.deletedAt)))
    .limit(1);
  return row ?? null;
}
