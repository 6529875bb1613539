import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { businessApps, organizations } from './accounts.ts';
import { activities, workflows } from './workflows.ts';

/**
 * One webhook event for one business app (RUNTIME.md "Webhooks"): written in the transaction of the activity that
 * caused it, then attempted by the `webhook.deliver` job until the receiver answers 2xx, or dead-lettered once the
 * 24-hour retry window has passed. `body` is the exact JSON sent (and signed) on every attempt.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id),
    appId: integer()
      .notNull()
      .references(() => businessApps.id),
    workflowId: integer()
      .notNull()
      .references(() => workflows.id),
    /** The audit row that caused the event; null for nothing but replays' originals' absence (never today). */
    activityId: integer().references(() => activities.id),
    /** Set on a replay: the delivery whose event it sends again. */
    replayOfId: integer().references((): AnyPgColumn => webhookDeliveries.id),
    /** The event's id (X-Event-Id, body `id`): the same on every attempt and on replays, so receivers can deduplicate. */
    eventId: text().notNull(),
    /** workflow.sent, workflow.opened, workflow.signed, workflow.approved, workflow.declined, workflow.delegated, workflow.completed, workflow.voided */
    eventType: text().notNull(),
    body: text().notNull(),
    /** PENDING (waiting for an attempt, first or retry), DELIVERED, DEAD (dead-lettered) */
    status: text().notNull().default('PENDING'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** When a job was sent for the next attempt; null: the dispatcher still has to send one. */
    queuedAt: timestamp({ withTimezone: true }),
    lastAttemptAt: timestamp({ withTimezone: true }),
    lastStatusCode: integer(),
    lastError: text(),
    deliveredAt: timestamp({ withTimezone: true }),
    deadAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // What the dispatcher looks for on every poll: small, because a row leaves it as soon as its job is sent.
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING' and ${t.queuedAt} is null`),
    // Rows whose job was sent but never reported back (reclaimed after a while).
    index('webhook_deliveries_queued_idx')
      .on(t.queuedAt)
      .where(sql`${t.status} = 'PENDING' and ${t.queuedAt} is not null`),
    index('webhook_deliveries_org_idx').on(t.organizationId, t.id),
    index('webhook_deliveries_app_idx').on(t.appId, t.id),
  ],
);
