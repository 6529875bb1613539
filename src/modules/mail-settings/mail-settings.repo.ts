import { and, count, desc, eq, isNotNull, ne, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { mailOutbox, organizations } from '../../platform/db/schema/index.ts';
import type { StoredEmailSettings } from '../../platform/mail/transport-resolver.ts';

export async function findEmailSettings(
  db: DbOrTx,
  organizationId: number,
  options: { lock?: boolean } = {},
): Promise<StoredEmailSettings | null> {
  const query = db
    .select({ emailSettings: organizations.emailSettings })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  const [row] = options.lock ? await query.for('update') : await query;
  return (row?.emailSettings as StoredEmailSettings | null | undefined) ?? null;
}

export async function saveEmailSettings(
  db: DbOrTx,
  organizationId: number,
  settings: StoredEmailSettings,
): Promise<void> {
  await db.update(organizations).set({ emailSettings: settings }).where(eq(organizations.id, organizationId));
}

const deliveryColumns = {
  id: mailOutbox.id,
  kind: mailOutbox.kind,
  toAddress: mailOutbox.toAddress,
  subject: mailOutbox.subject,
  workflowId: mailOutbox.workflowId,
  route: mailOutbox.route,
  status: mailOutbox.status,
  attempts: mailOutbox.attempts,
  lastError: mailOutbox.lastError,
  createdAt: mailOutbox.createdAt,
  sentAt: mailOutbox.sentAt,
};
export type DeliveryRow = Pick<typeof mailOutbox.$inferSelect, keyof typeof deliveryColumns>;

/** The organization's mails that its own provider carried (or tried to): never those the platform sent, never a body. */
function ownDeliveries(organizationId: number, status: string | undefined): SQL | undefined {
  return and(
    eq(mailOutbox.organizationId, organizationId),
    isNotNull(mailOutbox.route),
    ne(mailOutbox.route, 'PLATFORM'),
    status ? eq(mailOutbox.status, status) : undefined,
  );
}

export async function findDeliveries(
  db: DbOrTx,
  organizationId: number,
  options: { status?: string; limit: number; offset: number },
): Promise<DeliveryRow[]> {
  return db
    .select(deliveryColumns)
    .from(mailOutbox)
    .where(ownDeliveries(organizationId, options.status))
    .orderBy(desc(mailOutbox.id))
    .limit(options.limit)
    .offset(options.offset);
}

export async function countDeliveries(db: DbOrTx, organizationId: number, status: string | undefined): Promise<number> {
  const [row] = await db.select({ n: count() }).from(mailOutbox).where(ownDeliveries(organizationId, status));
  return row.n;
}

export async function findDelivery(
  db: DbOrTx,
  organizationId: number,
  deliveryId: number,
): Promise<DeliveryRow | null> {
  const [row] = await db
    .select(deliveryColumns)
    .from(mailOutbox)
    .where(and(eq(mailOutbox.id, deliveryId), ownDeliveries(organizationId, undefined)));
  return row ?? null;
}
