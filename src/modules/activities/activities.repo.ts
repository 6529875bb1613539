import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { intArray } from '../../platform/db/prepared.ts';
import { activities } from '../../platform/db/schema/index.ts';

export type ActivityRow = typeof activities.$inferSelect;
export type NewActivity = typeof activities.$inferInsert;

const ACTIVITY_LOCK_SPACE = 41;

/** Serializes appends to one workflow's chain until the transaction ends, so two cannot chain onto one predecessor. */
export async function lockChain(tx: Tx, workflowId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${ACTIVITY_LOCK_SPACE}, ${workflowId})`);
}

/** lockChain for many workflows in one statement, in id order (two batches locking overlapping sets cannot deadlock). */
export async function lockChains(tx: Tx, workflowIds: number[]): Promise<void> {
  const ids = [...new Set(workflowIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  // One array parameter (a text literal of integers), taken in array order.
  await tx.execute(sql`select pg_advisory_xact_lock(${ACTIVITY_LOCK_SPACE}, id) from unnest(${intArray(ids)}::int[]) as t(id)`);
}

/** The newest hash of each workflow's chain (absent: no activity yet), one statement. */
export async function findLastHashes(tx: Tx, workflowIds: number[]): Promise<Map<number, string>> {
  if (workflowIds.length === 0) return new Map();
  const rows = await tx.selectDistinctOn([activities.workflowId], { workflowId: activities.workflowId, hash: activities.hash }).from(activities)
    .where(inArray(activities.workflowId, workflowIds)).orderBy(activities.workflowId, desc(activities.id));
  return new Map(rows.map((row) => [row.workflowId, row.hash]));
}

export async function insertActivities(tx: Tx, values: NewActivity[]): Promise<ActivityRow[]> {
  if (values.length === 0) return [];
  return tx.insert(activities).values(values).returning();
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
