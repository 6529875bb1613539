import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { recipients, reminderDeliveries, users, workflows } from '../../platform/db/schema/index.ts';

/** Recipient statuses that still owe an action once dispatched. */
export const AWAITING_STATUSES = ['SENT', 'VIEWED'];

/**
 * Dispatched, unfinished, action-required recipients of SENT workflows with reminders on whose first
 * reminder is due at `now` (the exact slot is decided by the caller).
 */
export async function findReminderCandidates(db: DbOrTx, now: Date) {
  const firstDue = sql`${recipients.dispatchedAt} + case when ${workflows.reminderOffsetMinutes} is not null
    then ${workflows.reminderOffsetMinutes} * interval '1 minute' else ${workflows.reminderIntervalDays} * interval '1 day' end`;
  return db
    .select({
      recipientId: recipients.id,
      workflowId: workflows.id,
      dispatchedAt: recipients.dispatchedAt,
      offsetMinutes: workflows.reminderOffsetMinutes,
      intervalDays: workflows.reminderIntervalDays,
    })
    .from(recipients)
    .innerJoin(workflows, eq(workflows.id, recipients.workflowId))
    .where(
      and(
        eq(workflows.status, 'SENT'),
        eq(workflows.reminderEnabled, true),
        isNull(workflows.deletedAt),
        ne(workflows.sequence, 'SELF'),
        isNotNull(recipients.dispatchedAt),
        inArray(recipients.status, AWAITING_STATUSES),
        ne(recipients.role, 'CC'),
        sql`(${workflows.reminderOffsetMinutes} is not null or ${workflows.reminderIntervalDays} is not null)`,
        sql`${firstDue} <= ${now.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(recipients.id);
}

/** The slots already delivered for these recipients, as `recipientId:slot`. */
export async function findDeliveredSlots(db: DbOrTx, recipientIds: number[]): Promise<Set<string>> {
  if (recipientIds.length === 0) return new Set();
  const rows = await db
    .select({ recipientId: reminderDeliveries.recipientId, slot: reminderDeliveries.slot })
    .from(reminderDeliveries)
    .where(inArray(reminderDeliveries.recipientId, recipientIds));
  return new Set(rows.map((r) => `${r.recipientId}:${r.slot}`));
}

/** Locks the workflow row (serializing with signing, which locks it too) and reads it with its owner's name. */
export async function lockWorkflowWithOwner(db: DbOrTx, workflowId: number) {
  const [workflow] = await db.select().from(workflows).where(eq(workflows.id, workflowId)).for('no key update');
  if (!workflow) return null;
  const [owner] = await db.select({ name: users.name }).from(users).where(eq(users.id, workflow.ownerUserId));
  return { workflow, ownerName: owner?.name ?? '' };
}

export async function findRecipientById(db: DbOrTx, recipientId: number) {
  const [row] = await db.select().from(recipients).where(eq(recipients.id, recipientId));
  return row ?? null;
}

/** Claims a slot; false when another sweep already did (the unique index decides, even under races). */
export async function claimReminderSlot(db: DbOrTx, recipientId: number, slot: number, now: Date): Promise<boolean> {
  const rows = await db
    .insert(reminderDeliveries)
    .values({ recipientId, slot, sentAt: now })
    .onConflictDoNothing()
    .returning({ id: reminderDeliveries.id });
  return rows.length === 1;
}
