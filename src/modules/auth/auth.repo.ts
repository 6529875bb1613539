import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { businessApps, memberships } from '../../platform/db/schema/index.ts';

export type BusinessAppRow = typeof businessApps.$inferSelect;

export async function findBusinessAppByClientId(db: DbOrTx, clientId: string): Promise<BusinessAppRow | null> {
  const [row] = await db.select().from(businessApps).where(eq(businessApps.clientId, clientId));
  return row ?? null;
}

export async function findBusinessAppById(db: DbOrTx, id: number): Promise<BusinessAppRow | null> {
  const [row] = await db.select().from(businessApps).where(eq(businessApps.id, id));
  return row ?? null;
}

/** Whether the user is an active member (owner included) of the organization. */
export async function isActiveMember(db: DbOrTx, organizationId: number, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: memberships.id }).from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId), eq(memberships.status, 'ACTIVE')));
  return Boolean(row);
}
