import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per counted event (a failed password, a wrong one-time code, a code mailed), keyed by what it
 * counts against (`scope` + `subject`: an account, an address, a recipient row). Kept in the database so
 * every instance sees the same counts; rows older than the longest window are deleted by a daily job.
 */
export const attemptEvents = pgTable('attempt_events', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  scope: text().notNull(),
  subject: text().notNull(),
  occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('attempt_events_scope_subject_idx').on(t.scope, t.subject, t.occurredAt)]);
