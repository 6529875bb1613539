import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { recipients, workflows } from '../../platform/db/schema/index.ts';
import type { RecipientRow, WorkflowRow } from './workflow-access.ts';

export async function insertWorkflow(db: DbOrTx, values: typeof workflows.$inferInsert): Promise<WorkflowRow> {
  const [row] = await db.insert(workflows).values(values).returning();
  return row;
}

export async function updateWorkflow(db: DbOrTx, workflowId: number, values: Partial<typeof workflows.$inferInsert>): Promise<WorkflowRow> {
  const [row] = await db.update(workflows).set(values).where(eq(workflows.id, workflowId)).returning();
  return row;
}

/** Every recipient row of a workflow, hidden ones included, in signing order. */
export async function findRecipientsOfWorkflow(db: DbOrTx, workflowId: number): Promise<RecipientRow[]> {
  return db.select().from(recipients).where(eq(recipients.workflowId, workflowId)).orderBy(asc(recipients.recipientOrder), asc(recipients.id));
}

export async function insertRecipient(db: DbOrTx, values: typeof recipients.$inferInsert): Promise<RecipientRow> {
  const [row] = await db.insert(recipients).values(values).returning();
  return row;
}

export async function setRecipientOrder(db: DbOrTx, workflowId: number, recipientId: number, recipientOrder: number): Promise<void> {
  await db.update(recipients).set({ recipientOrder }).where(and(eq(recipients.id, recipientId), eq(recipients.workflowId, workflowId)));
}
