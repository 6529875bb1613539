import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { fields, workflows } from './workflows.ts';
import { organizations, users } from './accounts.ts';

/**
 * Template folders of an organization (SPEC.md "Template folders"): a tree by parentFolderId. With
 * overrideEnabled, only the owner and members whose role is in roleIds see the folder and what it holds
 * (docs/templates-and-surveys.md "Template folders and their access": the restriction accumulates down the tree).
 */
export const templateFolders = pgTable(
  'template_folders',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id),
    name: text().notNull(),
    parentFolderId: integer().references((): AnyPgColumn => templateFolders.id, { onDelete: 'restrict' }),
    /** Role ids (integers) admitted when overrideEnabled. */
    roleIds: jsonb().notNull().default(sql`'[]'::jsonb`),
    overrideEnabled: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('template_folders_org_idx').on(t.organizationId),
    index('template_folders_parent_idx').on(t.parentFolderId),
    // "Folder already exists": one name (ignoring case) per parent; the service's 409 relies on it under races.
    uniqueIndex('template_folders_name_key').on(
      t.organizationId,
      sql`coalesce(${t.parentFolderId}, 0)`,
      sql`lower(${t.name})`,
    ),
  ],
);

export const templates = pgTable(
  'templates',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id),
    ownerUserId: integer()
      .notNull()
      .references(() => users.id),
    name: text().notNull(),
    description: text().notNull().default(''),
    /**
     * The hidden snapshot workflow holding the documents, recipient slots and fields. It is stored retired
     * (deleted_at set) so that no workflow endpoint, list or count ever shows it, and nothing can edit it.
     */
    workflowId: integer()
      .notNull()
      .references((): AnyPgColumn => workflows.id, { onDelete: 'restrict' }),
    /** The workflow the snapshot was taken from (SPEC.md's `workflowId`); later edits of it change nothing here. */
    sourceWorkflowId: integer().references((): AnyPgColumn => workflows.id, { onDelete: 'set null' }),
    folderId: integer().references(() => templateFolders.id, { onDelete: 'restrict' }),
    /** [{order, label}]: a slot (1-based order) with a non-blank label is a placeholder. */
    recipientLabels: jsonb().notNull().default(sql`'[]'::jsonb`),
    reminderEnabled: boolean().notNull().default(false),
    reminderIntervalDays: integer(),
    /** When the current snapshot was taken (creation, or an update with overwrite): field drop-off's collectingSince. */
    snapshotAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Deleted templates stay as rows: the workflows made from them keep their templateId. */
    deletedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('templates_org_idx').on(t.organizationId, t.id).where(sql`${t.deletedAt} is null`),
    index('templates_folder_idx').on(t.folderId),
    // Name collision in the same folder (ignoring case) is 409; another folder may reuse the name.
    uniqueIndex('templates_name_key')
      .on(t.organizationId, sql`coalesce(${t.folderId}, 0)`, sql`lower(${t.name})`)
      .where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * Which template field (placeholderKey) a field of a workflow made from a template came from, written when the
 * workflow is made; field events are attributed through it.
 */
export const templateInstanceFields = pgTable('template_instance_fields', {
  fieldId: integer()
    .primaryKey()
    .references((): AnyPgColumn => fields.id, { onDelete: 'cascade' }),
  templateId: integer()
    .notNull()
    .references(() => templates.id),
  placeholderKey: text().notNull(),
});
