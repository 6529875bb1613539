import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { mailOutbox, recipients, users } from '../../platform/db/schema/index.ts';
import type { RecipientRow } from '../workflows/workflow-access.ts';

export async function findRecipientRow(
  db: DbOrTx,
  workflowId: number,
  recipientId: number,
): Promise<RecipientRow | null> {
  const [row] = await db
    .select()
    .from(recipients)
    .where(and(eq(recipients.workflowId, workflowId), eq(recipients.id, recipientId)));
  return row ?? null;
}

export async function findUserIdentity(db: DbOrTx, userId: number): Promise<{ name: string; email: string } | null> {
  const [row] = await db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, userId));
  return row ?? null;
}

/** The mails that carried a signing link (commence, reminders, a CC's copy), each with the route that delivered it. */
export type LinkDelivery = {
  recipientId: number;
  kind: string;
  status: string;
  route: string | null;
  sentAt: Date | null;
};

/** Every link-carrying mail of the workflow, oldest first (the evidence report's delivery route per recipient). */
export async function findLinkDeliveries(db: DbOrTx, workflowId: number): Promise<LinkDelivery[]> {
  const rows = await db
    .select({
      recipientId: mailOutbox.recipientId,
      kind: mailOutbox.kind,
      status: mailOutbox.status,
      route: mailOutbox.route,
      sentAt: mailOutbox.sentAt,
    })
    .from(mailOutbox)
    .where(
      and(eq(mailOutbox.workflowId, workflowId), inArray(mailOutbox.kind, ['COMMENCE', 'REMINDER', 'CC_NOTIFICATION'])),
    )
    .orderBy(mailOutbox.id);
  return rows.filter((row): row is LinkDelivery => row.recipientId !== null);
}
