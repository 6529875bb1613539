import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { recipients, users, workflows } from '../../platform/db/schema/index.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';

export async function findRecipientRow(db: DbOrTx, workflowId: number, recipientId: number): Promise<RecipientRow | null> {
  const [row] = await db.select().from(recipients).where(and(eq(recipients.workflowId, workflowId), eq(recipients.id, recipientId)));
  return row ?? null;
}

export async function findUserIdentity(db: DbOrTx, userId: number): Promise<{ name: string; email: string } | null> {
  const [row] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
  return row ?? null;
}
