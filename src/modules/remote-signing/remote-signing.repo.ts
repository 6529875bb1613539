import { and, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { fields, recipients, remoteSignaturePreparations } from '../../platform/db/schema/index.ts';

/** The queries of remote signing: its own table (remote_signature_preparations) and reads of fields and recipients. */

export type PreparationRow = typeof remoteSignaturePreparations.$inferSelect;
export type NewPreparation = typeof remoteSignaturePreparations.$inferInsert;

/** A field of the workflow (null: not in it), with what remote signing checks. */
export async function findFieldOfWorkflow(db: DbOrTx, workflowId: number, fieldId: number) {
  const [row] = await db
    .select({
      id: fields.id,
      documentId: fields.documentId,
      recipientId: fields.recipientId,
      fieldType: fields.fieldType,
    })
    .from(fields)
    .where(and(eq(fields.workflowId, workflowId), eq(fields.id, fieldId)));
  return row ?? null;
}

/** The recipient row a guest token names: its user and address (the CSC account defaults to that address). */
export async function findRecipientIdentity(
  db: DbOrTx,
  recipientId: number,
): Promise<{ userId: number; email: string } | null> {
  const [row] = await db
    .select({ userId: recipients.userId, email: recipients.email })
    .from(recipients)
    .where(eq(recipients.id, recipientId));
  return row ?? null;
}

export async function insertPreparations(db: DbOrTx, rows: NewPreparation[]): Promise<PreparationRow[]> {
  return db.insert(remoteSignaturePreparations).values(rows).returning();
}

/** Unused preparations of the workflow for this hash (base64), newest first. */
export async function findOpenPreparationsByHash(
  db: DbOrTx,
  workflowId: number,
  hash: string,
): Promise<PreparationRow[]> {
  return db
    .select()
    .from(remoteSignaturePreparations)
    .where(
      and(
        eq(remoteSignaturePreparations.workflowId, workflowId),
        eq(remoteSignaturePreparations.hash, hash),
        isNull(remoteSignaturePreparations.usedAt),
      ),
    )
    .orderBy(remoteSignaturePreparations.id);
}

/** Every preparation of one authorization (a batch), used or not. */
export async function findPreparationsOfAuthorization(db: DbOrTx, authorizationId: string): Promise<PreparationRow[]> {
  return db
    .select()
    .from(remoteSignaturePreparations)
    .where(eq(remoteSignaturePreparations.authorizationId, authorizationId))
    .orderBy(remoteSignaturePreparations.id);
}

/**
 * Marks the preparations used, but only those still unused and unexpired; returns the ids it marked. Two requests
 * racing with codes of one authorization: the second marks nothing.
 */
export async function claimPreparations(db: DbOrTx, ids: number[], now: Date): Promise<number[]> {
  const rows = await db
    .update(remoteSignaturePreparations)
    .set({ usedAt: now })
    .where(
      and(
        inArray(remoteSignaturePreparations.id, ids),
        isNull(remoteSignaturePreparations.usedAt),
        gt(remoteSignaturePreparations.expiresAt, now),
      ),
    )
    .returning({ id: remoteSignaturePreparations.id });
  return rows.map((row) => row.id);
}

/** Up to `limit` preparations that expired before `before`, oldest first: their ids, revisions and whether used. */
export async function findExpiredPreparations(db: DbOrTx, before: Date, limit: number) {
  return db
    .select({
      id: remoteSignaturePreparations.id,
      revisionId: remoteSignaturePreparations.revisionId,
      usedAt: remoteSignaturePreparations.usedAt,
    })
    .from(remoteSignaturePreparations)
    .where(lt(remoteSignaturePreparations.expiresAt, before))
    .orderBy(remoteSignaturePreparations.expiresAt)
    .limit(limit);
}

export async function deletePreparations(db: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.delete(remoteSignaturePreparations).where(inArray(remoteSignaturePreparations.id, ids));
}
