import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { signerKeys } from '../../platform/db/schema/index.ts';

/** The queries of the signer-keys module (table signer_keys, its own). */

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
  const [row] = await tx.insert(signerKeys).values(values).onConflictDoNothing({ target: signerKeys.email }).returning();
  return row ?? null;
}

export async function updateSignerCertificate(tx: DbOrTx, id: number, values: { name: string; certificate: string; certificateSerial: string }): Promise<SignerKeyRow> {
  const [row] = await tx.update(signerKeys).set({ ...values, updatedAt: new Date() }).where(eq(signerKeys.id, id)).returning();
  return row;
}
