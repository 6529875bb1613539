import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per counted event (a failed password, a wrong one-time code, a code mailed), keyed by what it
 * counts against (`scope` + `subject`: an account, an address, a recipient row). Kept in the database so
 * every instance sees the same counts; rows no limit reads any more (older than two windows of their scope's
 * rule) are deleted by an hourly job (platform/limits/attempts-prune.ts).
 */
export const attemptEvents = pgTable(
  'attempt_events',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    scope: text().notNull(),
    subject: text().notNull(),
    occurredAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('attempt_events_scope_subject_idx').on(t.scope, t.subject, t.occurredAt)],
);
