import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { signerRevisions } from '../../platform/db/schema/index.ts';

/** The queries of signer-revisions.ts: the signed revisions of documents (table signer_revisions, signing's own). */

export type SignerRevisionRow = typeof signerRevisions.$inferSelect;

/** The newest COMPLETED revision of a document: what the next signature or the seal starts from. */
export async function findWorkingRevision(db: DbOrTx, documentId: number): Promise<SignerRevisionRow | null> {
  const [row] = await db
    .select()
    .from(signerRevisions)
    .where(and(eq(signerRevisions.documentId, documentId), eq(signerRevisions.status, 'COMPLETED')))
    .orderBy(desc(signerRevisions.id))
    .limit(1);
  return row ?? null;
}

const completedRevisions = preparedStatement('document_completed_revisions', (db) =>
  db
    .select()
    .from(signerRevisions)
    .where(and(eq(signerRevisions.documentId, sql.placeholder('documentId')), eq(signerRevisions.status, 'COMPLETED')))
    .orderBy(signerRevisions.id),
);

/** Every COMPLETED revision of a document, oldest first. */
export async function findCompletedRevisions(db: DbOrTx, documentId: number): Promise<SignerRevisionRow[]> {
  return completedRevisions(db).execute({ documentId });
}

export async function findRevision(db: DbOrTx, revisionId: number): Promise<SignerRevisionRow | null> {
  const [row] = await db.select().from(signerRevisions).where(eq(signerRevisions.id, revisionId));
  return row ?? null;
}

export async function insertRevision(
  db: DbOrTx,
  values: typeof signerRevisions.$inferInsert,
): Promise<SignerRevisionRow> {
  const [row] = await db.insert(signerRevisions).values(values).returning();
  return row;
}

export async function markRevisionCompleted(
  db: DbOrTx,
  revisionId: number,
  stored: { key: string; size: number },
  at: Date,
): Promise<SignerRevisionRow> {
  const [row] = await db
    .update(signerRevisions)
    .set({ status: 'COMPLETED', blobKey: stored.key, size: stored.size, pending: null, completedAt: at })
    .where(eq(signerRevisions.id, revisionId))
    .returning();
  return row;
}

/** A field laid out again supersedes its earlier pending revisions: only the newest can be completed. */
export async function deletePendingRevisionsOfField(db: DbOrTx, fieldId: number): Promise<void> {
  await db
    .delete(signerRevisions)
    .where(and(eq(signerRevisions.fieldId, fieldId), eq(signerRevisions.status, 'PENDING')));
}

export async function hasCompletedRevisionOf(db: DbOrTx, recipientId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: signerRevisions.id })
    .from(signerRevisions)
    .where(and(eq(signerRevisions.recipientId, recipientId), eq(signerRevisions.status, 'COMPLETED')))
    .limit(1);
  return Boolean(row);
}

/** Deletes the PENDING revisions among `ids` (a completed one is never touched); returns how many went. */
export async function deletePendingRevisions(db: DbOrTx, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db
    .delete(signerRevisions)
    .where(and(inArray(signerRevisions.id, ids), eq(signerRevisions.status, 'PENDING')))
    .returning({ id: signerRevisions.id });
  return rows.length;
}
