import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { organizationBranding } from '../../platform/db/schema/index.ts';

export type BrandingRow = typeof organizationBranding.$inferSelect;

export async function findBranding(db: DbOrTx, organizationId: number): Promise<BrandingRow | null> {
  const [row] = await db
    .select()
    .from(organizationBranding)
    .where(eq(organizationBranding.organizationId, organizationId));
  return row ?? null;
}

export async function saveBranding(
  db: DbOrTx,
  row: Omit<typeof organizationBranding.$inferInsert, 'updatedAt'>,
): Promise<void> {
  const { organizationId, ...values } = row;
  await db
    .insert(organizationBranding)
    .values({ ...row, updatedAt: new Date() })
    .onConflictDoUpdate({ target: organizationBranding.organizationId, set: { ...values, updatedAt: new Date() } });
}

export async function deleteBranding(db: DbOrTx, organizationId: number): Promise<void> {
  await db.delete(organizationBranding).where(eq(organizationBranding.organizationId, organizationId));
}

/** Whether some organization shows this logo: only such blobs are served without a token. */
export async function isLogoInUse(db: DbOrTx, logoBlobKey: string): Promise<boolean> {
  const [row] = await db
    .select({ organizationId: organizationBranding.organizationId })
    .from(organizationBranding)
    .where(eq(organizationBranding.logoBlobKey, logoBlobKey))
    .limit(1);
  return Boolean(row);
}
