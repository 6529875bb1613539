import { asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { activities } from '../../platform/db/schema/index.ts';

export type ActivityRow = typeof activities.$inferSelect;
export type NewActivity = typeof activities.$inferInsert;

const ACTIVITY_LOCK_SPACE = 41;

/** Serializes appends to one workflow's chain until the transaction ends, so two cannot chain onto one predecessor. */
export async function lockChain(tx: Tx, workflowId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ACTIVITY_LOCK_SPACE}, ${workflowId})`);
}

export async function findLastHash(tx: Tx, workflowId: number): Promise<string | null> {
  const [previous] = await tx.select({ hash: activities.hash }).from(activities)
    .where(eq(activities.workflowId, workflowId)).orderBy(desc(activities.id)).limit(1);
  return previous?.hash ?? null;
}

export async function insertActivity(tx: Tx, values: NewActivity): Promise<ActivityRow> {
  const [inserted] = await tx.insert(activities).values(values).returning();
  return inserted;
}

export async function findActivities(db: DbOrTx, workflowId: number): Promise<ActivityRow[]> {
  return db.select().from(activities).where(eq(activities.workflowId, workflowId)).orderBy(asc(activities.id));
}
