import { and, count, eq, gte, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { documents, fields, organizations, packages, recipients, users } from '../../platform/db/schema/index.ts';
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

/** The organization's billing state, locked so concurrent sends of one organization see each other's debit. */
export async function findOrganizationPlan(db: DbOrTx, organizationId: number) {
  const [row] = await db.select({
    credits: organizations.credits,
    packageExpiresAt: organizations.packageExpiresAt,
    servicePlanActive: organizations.servicePlanActive,
    allowSharing: packages.allowSharing,
  }).from(organizations).innerJoin(packages, eq(packages.id, organizations.packageId))
    .where(eq(organizations.id, organizationId)).for('update', { of: organizations });
  return row ?? null;
}

/** Takes one credit only if one is left, so two racing sends cannot both spend the last credit. Returns the new balance, or null. */
export async function debitOneCredit(db: DbOrTx, organizationId: number): Promise<number | null> {
  const [row] = await db.update(organizations).set({ credits: sql`${organizations.credits} - 1` })
    .where(and(eq(organizations.id, organizationId), gte(organizations.credits, 1))).returning({ credits: organizations.credits });
  return row?.credits ?? null;
}

export async function findUserName(db: DbOrTx, userId: number): Promise<string> {
  const [row] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
  return row?.name || row?.email || '';
}
