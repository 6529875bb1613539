import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organizations, packages, users } from './accounts.ts';

/**
 * Every package change and renewal of an organization (modules/billing): who gave the organization which
 * credits and expiry, since no payment record exists to tell.
 */
export const packageChanges = pgTable(
  'package_changes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** UPDATE (another package) or RENEW (the same one, a new cycle). */
    action: text().notNull(),
    fromPackageId: integer()
      .notNull()
      .references(() => packages.id),
    toPackageId: integer()
      .notNull()
      .references(() => packages.id),
    creditsBefore: integer().notNull(),
    creditsAfter: integer().notNull(),
    expiresBefore: timestamp({ withTimezone: true }).notNull(),
    expiresAfter: timestamp({ withTimezone: true }).notNull(),
    byUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('package_changes_org_idx').on(t.organizationId, t.createdAt)],
);
