import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { documents, recipients, users, workflows } from '../../platform/db/schema/index.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';

export type DocumentRow = typeof documents.$inferSelect;

export async function findLiveWorkflow(db: DbOrTx, workflowId: number): Promise<WorkflowRow | null> {
  const [row] = await db.select().from(workflows).where(and(eq(workflows.id, workflowId), isNull(workflows.deletedAt)));
  return row ?? null;
}

/** Documents in their workflow order (change-sequence), then upload order. */
export async function listWorkflowDocuments(db: DbOrTx, workflowId: number): Promise<DocumentRow[]> {
  return db.select().from(documents).where(eq(documents.workflowId, workflowId)).orderBy(asc(documents.position), asc(documents.id));
}

/** Every recipient row (hidden ones included; callers filter), in signing order then creation order. */
export async function listWorkflowRecipients(db: DbOrTx, workflowId: number): Promise<RecipientRow[]> {
  return db.select().from(recipients).where(eq(recipients.workflowId, workflowId))
    .orderBy(sql`${recipients.recipientOrder} asc nulls last`, asc(recipients.id));
}

export async function findRecipientRow(db: DbOrTx, workflowId: number, recipientId: number): Promise<RecipientRow | null> {
  const [row] = await db.select().from(recipients).where(and(eq(recipients.workflowId, workflowId), eq(recipients.id, recipientId)));
  return row ?? null;
}

export async function findUserIdentity(db: DbOrTx, userId: number): Promise<{ name: string; email: string } | null> {
  const [row] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
  return row ?? null;
}
