import { and, asc, count, desc, eq, inArray, ne } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { signatureAssets, signatureSettings, users } from '../../platform/db/schema/index.ts';

export type SignatureAssetRow = typeof signatureAssets.$inferSelect;
export type SignatureSettingsRow = typeof signatureSettings.$inferSelect;
export type AssetValues = Pick<SignatureAssetRow, 'kind' | 'name' | 'captureMode' | 'image'>;

/** Serialises one user's library changes: the default-per-kind rule and the per-kind cap are checked under it. */
export async function lockLibrary(db: DbOrTx, userId: number): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

/** Kind, then oldest first. */
export async function findAssets(db: DbOrTx, userId: number): Promise<SignatureAssetRow[]> {
  return db
    .select()
    .from(signatureAssets)
    .where(eq(signatureAssets.userId, userId))
    .orderBy(asc(signatureAssets.kind), asc(signatureAssets.id));
}

export async function findAsset(db: DbOrTx, userId: number, id: number): Promise<SignatureAssetRow | null> {
  const [row] = await db
    .select()
    .from(signatureAssets)
    .where(and(eq(signatureAssets.id, id), eq(signatureAssets.userId, userId)));
  return row ?? null;
}

export async function findDefaultAsset(db: DbOrTx, userId: number, kind: string): Promise<SignatureAssetRow | null> {
  const [row] = await db
    .select()
    .from(signatureAssets)
    .where(
      and(eq(signatureAssets.userId, userId), eq(signatureAssets.kind, kind), eq(signatureAssets.isDefault, true)),
    );
  return row ?? null;
}

export async function countAssetsOfKind(db: DbOrTx, userId: number, kind: string, exceptId?: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(signatureAssets)
    .where(
      and(
        eq(signatureAssets.userId, userId),
        eq(signatureAssets.kind, kind),
        exceptId === undefined ? undefined : ne(signatureAssets.id, exceptId),
      ),
    );
  return row.n;
}

export async function insertAsset(
  db: DbOrTx,
  userId: number,
  values: AssetValues & { isDefault: boolean },
): Promise<SignatureAssetRow> {
  const [row] = await db
    .insert(signatureAssets)
    .values({ userId, ...values })
    .returning();
  return row;
}

export async function updateAsset(
  db: DbOrTx,
  id: number,
  values: Partial<AssetValues> & { isDefault?: boolean },
): Promise<SignatureAssetRow> {
  const [row] = await db.update(signatureAssets).set(values).where(eq(signatureAssets.id, id)).returning();
  return row;
}

export async function clearDefault(db: DbOrTx, userId: number, kind: string): Promise<void> {
  await db
    .update(signatureAssets)
    .set({ isDefault: false })
    .where(
      and(eq(signatureAssets.userId, userId), eq(signatureAssets.kind, kind), eq(signatureAssets.isDefault, true)),
    );
}

export async function deleteAsset(db: DbOrTx, id: number): Promise<void> {
  await db.delete(signatureAssets).where(eq(signatureAssets.id, id));
}

/** The newest entry of the kind becomes its default (after the default was deleted or moved to another kind). */
export async function promoteNewest(db: DbOrTx, userId: number, kind: string): Promise<void> {
  const [newest] = await db
    .select({ id: signatureAssets.id })
    .from(signatureAssets)
    .where(and(eq(signatureAssets.userId, userId), eq(signatureAssets.kind, kind)))
    .orderBy(desc(signatureAssets.id))
    .limit(1);
  if (newest) await db.update(signatureAssets).set({ isDefault: true }).where(eq(signatureAssets.id, newest.id));
}

export async function findSignatureSettings(db: DbOrTx, userId: number): Promise<SignatureSettingsRow | null> {
  const [row] = await db.select().from(signatureSettings).where(eq(signatureSettings.userId, userId));
  return row ?? null;
}

export async function upsertSignatureSettings(
  db: DbOrTx,
  userId: number,
  values: { source: string; cscUserName: string | null },
): Promise<void> {
  await db
    .insert(signatureSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: signatureSettings.userId, set: { ...values, updatedAt: new Date() } });
}

/** Which of `ids` are entries of `userId`'s library. */
export async function findAssetIdsOfUser(db: DbOrTx, userId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: signatureAssets.id })
    .from(signatureAssets)
    .where(and(eq(signatureAssets.userId, userId), inArray(signatureAssets.id, ids)));
  return new Set(rows.map((r) => r.id));
}
