import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { recipients } from '../../platform/db/schema/index.ts';
import type { RecipientRow } from '../workflows/workflow-access.ts';

export type RecipientValues = typeof recipients.$inferInsert;

/** Every row of a workflow, hidden ones included, in signing order (rows without an order last). */
export async function findRecipient(db: DbOrTx, workflowId: number, recipientId: number): Promise<RecipientRow | null> {
  const [row] = await db
    .select()
    .from(recipients)
    .where(and(eq(recipients.id, recipientId), eq(recipients.workflowId, workflowId)));
  return row ?? null;
}

export async function insertRecipients(db: DbOrTx, values: RecipientValues[]): Promise<RecipientRow[]> {
  const rows: RecipientRow[] = [];
  // One insert per row keeps the returned rows in request order.
  for (const value of values) {
    const [row] = await db.insert(recipients).values(value).returning();
    rows.push(row);
  }
  return rows;
}

export async function updateRecipient(
  db: DbOrTx,
  workflowId: number,
  recipientId: number,
  values: Partial<RecipientValues>,
): Promise<RecipientRow> {
  const [row] = await db
    .update(recipients)
    .set(values)
    .where(and(eq(recipients.id, recipientId), eq(recipients.workflowId, workflowId)))
    .returning();
  return row;
}

export async function deleteRecipient(db: DbOrTx, workflowId: number, recipientId: number): Promise<void> {
  await db.delete(recipients).where(and(eq(recipients.id, recipientId), eq(recipients.workflowId, workflowId)));
}
