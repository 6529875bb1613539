import { and, count, eq, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { documents, fields, recipients, users } from '../../platform/db/schema/index.ts';
import type { RecipientRow } from '../workflows/workflow-access.ts';

export async function countDocuments(db: DbOrTx, workflowId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(documents).where(eq(documents.workflowId, workflowId));
  return row.total;
}

export async function findRecipientRows(db: DbOrTx, workflowId: number): Promise<RecipientRow[]> {
  return db.select().from(recipients).where(eq(recipients.workflowId, workflowId))
    .orderBy(sql`${recipients.recipientOrder} asc nulls last`, recipients.id);
}

/** The recipients among `recipientIds` that own a field a signer signs with: SIGNATURE, INITIALS, or a required DIGITAL_SIGNATURE. */
export async function findRecipientsWithSignatureField(db: DbOrTx, workflowId: number, recipientIds: number[]): Promise<Set<number>> {
  if (recipientIds.length === 0) return new Set();
  const rows = await db.selectDistinct({ recipientId: fields.recipientId }).from(fields).where(and(
    eq(fields.workflowId, workflowId),
    inArray(fields.recipientId, recipientIds),
    or(inArray(fields.fieldType, ['SIGNATURE', 'INITIALS']), and(eq(fields.fieldType, 'DIGITAL_SIGNATURE'), eq(fields.fieldRequired, true))),
  ));
  return new Set(rows.map((r) => r.recipientId!));
}

export async function findUserName(db: DbOrTx, userId: number): Promise<string> {
  const [row] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
  return row?.name || row?.email || '';
}
