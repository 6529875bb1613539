import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/** A user's notification preferences (modules/users); no row: the defaults. */
export const userSettings = pgTable('user_settings', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** NotificationPreferences (users.schemas.ts): which optional mails the user wants. */
  notifications: jsonb().notNull(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The digital-signature part of the legacy PUT /user/v1/settings/signatures (modules/signature-library):
 * where the user's certificate-based signatures come from, and the CSC account name (RUNTIME.md "CSC identity").
 */
export const signatureSettings = pgTable('signature_settings', {
  userId: integer()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** CSC_2 or LOCAL */
  source: text().notNull(),
  cscUserName: text(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
