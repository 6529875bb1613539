import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { executePrepared, type DbOrTx, type Tx } from '../../platform/db/client.ts';
import { intArray, preparedStatement } from '../../platform/db/prepared.ts';
import { activities } from '../../platform/db/schema/index.ts';

export type ActivityRow = typeof activities.$inferSelect;
export type NewActivity = typeof activities.$inferInsert;

// Also written into migration 0027's lock_activity_chain.
const ACTIVITY_LOCK_SPACE = 41;

/**
 * Serializes appends to one workflow's chain until the transaction ends, so two cannot chain onto one predecessor,
 * and then returns the chain's newest hash (null: no activity yet): one round trip (migration 0027's function).
 */
export async function lockChainHead(tx: Tx, workflowId: number): Promise<string | null> {
  const { rows } = await executePrepared(tx, sql`select lock_activity_chain(${workflowId}) as "hash"`);
  return (rows[0]?.hash as string | null | undefined) ?? null;
}

/** lockChainHead's lock for many workflows in one statement, in id order (two batches locking overlapping sets cannot deadlock). */
export async function lockChains(tx: Tx, workflowIds: number[]): Promise<void> {
  const ids = [...new Set(workflowIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  // One array parameter (a text literal of integers), taken in array order.
  await tx.execute(
    sql`select pg_advisory_xact_lock(${ACTIVITY_LOCK_SPACE}, id) from unnest(${intArray(ids)}::int[]) as t(id)`,
  );
}

/** The newest hash of each workflow's chain (absent: no activity yet), one statement. */
export async function findLastHashes(tx: Tx, workflowIds: number[]): Promise<Map<number, string>> {
  if (workflowIds.length === 0) return new Map();
  const rows = await tx
    .selectDistinctOn([activities.workflowId], { workflowId: activities.workflowId, hash: activities.hash })
    .from(activities)
    .where(inArray(activities.workflowId, workflowIds))
    .orderBy(activities.workflowId, desc(activities.id));
  return new Map(rows.map((row) => [row.workflowId, row.hash]));
}

export async function insertActivities(tx: Tx, values: NewActivity[]): Promise<ActivityRow[]> {
  if (values.length === 0) return [];
  return tx.insert(activities).values(values).returning();
}

/** Every column but the identity, each a placeholder of its own name. */
type ActivityValues = Omit<ActivityRow, 'id'>;
const ACTIVITY_COLUMNS = [
  'workflowId',
  'kind',
  'action',
  'sentence',
  'userId',
  'userName',
  'recipientId',
  'ipAddress',
  'accessChannel',
  'userAgent',
  'status',
  'consent',
  'createdAt',
  'prevHash',
  'hash',
] as const;
// Fails to compile when a column is added to the table and not to the list.
const everyColumn: Exclude<keyof ActivityValues, (typeof ACTIVITY_COLUMNS)[number]> extends never ? true : never = true;
void everyColumn;
const activityInsert = preparedStatement('activity_insert', (db) =>
  db
    .insert(activities)
    .values({
      ...Object.fromEntries(ACTIVITY_COLUMNS.map((column) => [column, sql.placeholder(column)])),
      // A placeholder's value goes through the column's encoder even when null (jsonb would store JSON null, not NULL),
      // so consent is passed as its JSON text, or null, by insertActivity.
      consent: sql`${sql.placeholder('consent')}::jsonb`,
    } as unknown as NewActivity)
    .returning(),
);

export async function insertActivity(tx: Tx, values: ActivityValues): Promise<ActivityRow> {
  const [inserted] = await activityInsert(tx).execute({
    ...values,
    consent: values.consent === null ? null : JSON.stringify(values.consent),
  });
  return inserted;
}

export async function findActivities(db: DbOrTx, workflowId: number): Promise<ActivityRow[]> {
  return db.select().from(activities).where(eq(activities.workflowId, workflowId)).orderBy(asc(activities.id));
}
