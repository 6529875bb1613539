import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const templateFolders = pgTable('template_folders', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  organizationId: integer().notNull(),
  name: text().notNull(),
  parentFolderId: integer(),
  roleIds: jsonb(),
  overrideEnabled: boolean().notNull().default(false),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('template_folders_org_idx').on(t.organizationId)]);

export const templates = pgTable('templates', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  organizationId: integer().notNull(),
  ownerUserId: integer().notNull(),
  name: text().notNull(),
  description: text().notNull().default(''),
  /** The hidden source workflow holding the documents, recipient slots and fields. */
  workflowId: integer().notNull(),
  folderId: integer(),
  recipientLabels: jsonb(),
  reminderEnabled: boolean().notNull().default(false),
  reminderIntervalDays: integer(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
}, (t) => [index('templates_org_idx').on(t.organizationId)]);
