import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { mailOutbox, signerKeys } from '../../platform/db/schema/index.ts';

/** The queries of the signer-keys module (table signer_keys, its own; it reads mail_outbox). */

export type SignerKeyRow = typeof signerKeys.$inferSelect;
export type NewSignerKey = typeof signerKeys.$inferInsert;

/** The key of `email` (lower-cased) under FOR UPDATE: tries with one key serialize, so failures count exactly. */
export async function lockSignerKey(tx: DbOrTx, email: string): Promise<SignerKeyRow | null> {
  const [row] = await tx.select().from(signerKeys).where(eq(signerKeys.email, email)).for('update');
  return row ?? null;
}

export async function findSignerKey(db: DbOrTx, email: string): Promise<SignerKeyRow | null> {
  const [row] = await db.select().from(signerKeys).where(eq(signerKeys.email, email));
  return row ?? null;
}

/** Inserts the first key of an address; null when a concurrent first use inserted one meanwhile (that one wins). */
export async function insertSignerKey(tx: DbOrTx, values: NewSignerKey): Promise<SignerKeyRow | null> {
  const [row] = await tx
    .insert(signerKeys)
    .values(values)
    .onConflictDoNothing({ target: signerKeys.email })
    .returning();
  return row ?? null;
}

export async function updateSignerCertificate(
  tx: DbOrTx,
  id: number,
  values: { name: string; certificate: string; certificateSerial: string },
): Promise<SignerKeyRow> {
  const [row] = await tx
    .update(signerKeys)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(signerKeys.id, id))
    .returning();
  return row;
}

/** A new key pair and certificate in place of the old (a reset): the pending reset code is used up with it. */
export async function replaceSignerKey(
  tx: DbOrTx,
  id: number,
  values: Pick<
    NewSignerKey,
    'name' | 'kdf' | 'wrapIv' | 'wrappedKey' | 'wrapTag' | 'certificate' | 'certificateSerial'
  >,
): Promise<SignerKeyRow> {
  const [row] = await tx
    .update(signerKeys)
    .set({
      ...values,
      resetCodeHash: null,
      resetCodeSentAt: null,
      resetCodeExpiresAt: null,
      resetCodeAttempts: 0,
      updatedAt: new Date(),
    })
    .where(eq(signerKeys.id, id))
    .returning();
  return row;
}

export async function setResetCode(
  tx: DbOrTx,
  id: number,
  values: { hash: string; sentAt: Date; expiresAt: Date },
): Promise<void> {
  await tx
    .update(signerKeys)
    .set({
      resetCodeHash: values.hash,
      resetCodeSentAt: values.sentAt,
      resetCodeExpiresAt: values.expiresAt,
      resetCodeAttempts: 0,
    })
    .where(eq(signerKeys.id, id));
}

export async function countWrongResetCode(tx: DbOrTx, id: number): Promise<void> {
  await tx
    .update(signerKeys)
    .set({ resetCodeAttempts: sql`${signerKeys.resetCodeAttempts} + 1` })
    .where(eq(signerKeys.id, id));
}

/**
 * Whether the platform's own mail carried a signing link of this recipient row (a commence mail or a reminder queued
 * with viaPlatform): then whoever holds the link proved the mailbox, as a verified account does.
 */
export async function hasPlatformLinkMail(db: DbOrTx, workflowId: number, recipientId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.workflowId, workflowId),
        eq(mailOutbox.recipientId, recipientId),
        eq(mailOutbox.viaPlatform, true),
        inArray(mailOutbox.kind, ['COMMENCE', 'REMINDER']),
      ),
    )
    .limit(1);
  return row !== undefined;
}
