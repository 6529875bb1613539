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
import { templates } from './templates.ts';

/** Personal folders (SPEC.md "Personal folder"). */
export const folders = pgTable(
  'folders',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer().notNull(),
    name: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('folders_user_idx').on(t.userId),
    // Folder names are unique per user ignoring case (docs/lists-and-search.md "Personal folders"); the service's 409 relies on it under races.
    uniqueIndex('folders_user_name_key').on(t.userId, sql`lower(${t.name})`),
  ],
);

/** The envelope. */
export const workflows = pgTable(
  'workflows',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    ownerUserId: integer().notNull(),
    organizationId: integer().notNull(),
    name: text().notNull(),
    /** SELF, ORDERED, UNORDERED, SURVEY */
    sequence: text().notNull(),
    /** SELFSIGN, COUNTERSIGN, POWERSURVEY */
    signType: text().notNull(),
    /** DRAFT, SENT, COMPLETED, VOID, APPROVED */
    status: text().notNull().default('DRAFT'),
    folderId: integer(),
    /** IANA zone used for history times. */
    timeZone: text().notNull().default('UTC'),
    title: text(),
    message: text(),
    reminderEnabled: boolean().notNull().default(false),
    reminderIntervalDays: integer(),
    reminderOffsetMinutes: integer(),
    /** A Power Survey child: its parent survey, and the parent's recipient row it was made for (one child per pair). */
    parentWorkflowId: integer().references((): AnyPgColumn => workflows.id),
    parentRecipientId: integer().references((): AnyPgColumn => recipients.id),
    /** The template this workflow was made from (use, apply, dispatch); template analytics count these. */
    templateId: integer().references((): AnyPgColumn => templates.id),
    sentAt: timestamp({ withTimezone: true }),
    statusAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
    /** NONE, PENDING, SEALED, FAILED: the sealing job's state after completion. */
    sealStatus: text().notNull().default('NONE'),
    sealError: text(),
    deletedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('workflows_owner_idx').on(t.ownerUserId, t.id),
    index('workflows_parent_idx').on(t.parentWorkflowId),
    // Repeated commence, a crash mid-dispatch and a restart never make a second child for one survey recipient.
    uniqueIndex('workflows_survey_child_key').on(t.parentWorkflowId, t.parentRecipientId),
    index('workflows_folder_idx').on(t.folderId),
    // Template analytics: counts by status and sent→completed intervals of one template's workflows.
    index('workflows_template_idx')
      .on(t.templateId, t.status, t.sentAt, t.completedAt)
      .where(sql`${t.templateId} is not null and ${t.deletedAt} is null`),
    // The document list reads workflow_list_entries (schema/document-list.ts), not these rows by owner and status.
    // The document list's search (a substring of the name, any case): trigrams find the few matches of a rare term
    // without reading every listed workflow (pg_trgm, migration 0018).
    index('workflows_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
  ],
);

/** A PDF inside a workflow. Files live in the blob store, addressed by SHA-256. */
export const documents = pgTable(
  'documents',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    workflowId: integer().notNull(),
    name: text().notNull(),
    /** Position inside the workflow (change-sequence). */
    position: integer().notNull().default(0),
    blobKey: text().notNull(),
    size: integer().notNull(),
    pages: integer().notNull(),
    /** Per page: width, height (points, of the visible box) and rotation. */
    pageSizes: jsonb().notNull(),
    thumbnailBase64: text(),
    /** Page 1 drawn PICTURE_WIDTH pixels wide on the first ask (JPEG in the blob store): the signing page's first paint. Null until then. */
    pictureBlobKey: text(),
    sealedBlobKey: text(),
    sealedSize: integer(),
    isViewed: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('documents_workflow_idx').on(t.workflowId)],
);

export const recipients = pgTable(
  'recipients',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    workflowId: integer().notNull(),
    userId: integer().notNull(),
    name: text().notNull(),
    email: text().notNull(),
    /** SIGNER, APPROVER, CC */
    role: text().notNull().default('SIGNER'),
    recipientOrder: integer(),
    color: text().notNull(),
    useDigitalCert: boolean().notNull().default(false),
    enforceIdentity: boolean().notNull().default(false),
    passwordHash: text(),
    /** PENDING, SENT, VIEWED, SIGNED, APPROVED, DECLINED, SKIPPED, DELEGATED */
    status: text().notNull().default('PENDING'),
    /** Hidden assistant rows never show in other participants' lists. */
    isHidden: boolean().notNull().default(false),
    delegatedToRecipientId: integer(),
    dispatchedAt: timestamp({ withTimezone: true }),
    viewedAt: timestamp({ withTimezone: true }),
    actedAt: timestamp({ withTimezone: true }),
    identityVerifiedAt: timestamp({ withTimezone: true }),
    declineReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('recipients_workflow_idx').on(t.workflowId), index('recipients_user_idx').on(t.userId, t.workflowId)],
);

export const fields = pgTable(
  'fields',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    workflowId: integer().notNull(),
    documentId: integer().notNull(),
    recipientId: integer(),
    pageNo: integer().notNull(),
    /** {x, y, width, height} in points from the page's top-left corner as displayed. */
    box: jsonb().notNull(),
    fieldType: text().notNull(),
    fieldRequired: boolean().notNull().default(false),
    label: text(),
    value: text(),
    signatureAssetId: integer(),
    styling: jsonb(),
    /** DROPDOWN choices. */
    options: jsonb(),
    filledAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('fields_workflow_idx').on(t.workflowId), index('fields_document_idx').on(t.documentId)],
);

export const comments = pgTable(
  'comments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    workflowId: integer().notNull(),
    fieldId: integer(),
    authorUserId: integer().notNull(),
    body: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('comments_workflow_idx').on(t.workflowId, t.id)],
);

/**
 * The audit trail. Rows form a hash chain per workflow: `hash` = SHA-256 over the previous row's hash and
 * this row's content, so an edited or deleted row is detectable.
 */
export const activities = pgTable(
  'activities',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    workflowId: integer().notNull(),
    /** Machine kind: DOCUMENT_UPLOADED, WORKFLOW_SENT, DOCUMENT_OPENED, SIGNED, APPROVED, DECLINED, DELEGATED, COMMENT_ADDED, COMPLETED, SEAL_FAILED, CONSENT_ACCEPTED, ... */
    kind: text().notNull(),
    /** Short label shown in history (Created, Sent, Opened, ...). */
    action: text().notNull(),
    sentence: text().notNull(),
    userId: integer(),
    userName: text().notNull().default(''),
    recipientId: integer(),
    ipAddress: text().notNull().default(''),
    accessChannel: text().notNull().default('web'),
    userAgent: text(),
    status: text().notNull().default(''),
    consent: jsonb(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    prevHash: text().notNull().default(''),
    hash: text().notNull().default(''),
  },
  (t) => [index('activities_workflow_idx').on(t.workflowId, t.id)],
);

/** Step-up identity one-time codes (hashed). One live challenge per recipient. */
export const identityChallenges = pgTable(
  'identity_challenges',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    recipientId: integer().notNull(),
    codeHash: text().notNull(),
    attempts: integer().notNull().default(0),
    sentAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    verifiedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('identity_challenges_recipient_key').on(t.recipientId)],
);

/**
 * A recipient password entered correctly, per session (the refresh-token family of the token that entered
 * it): a forwarded signing link opens a new session, which must enter the password again.
 */
export const recipientPasswordPasses = pgTable(
  'recipient_password_passes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    recipientId: integer().notNull(),
    sessionId: text().notNull(),
    verifiedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recipient_password_passes_key').on(t.recipientId, t.sessionId)],
);

/** One row per reminder slot sent, so a slot never fires twice. */
export const reminderDeliveries = pgTable(
  'reminder_deliveries',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    recipientId: integer().notNull(),
    slot: integer().notNull(),
    sentAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('reminder_deliveries_slot_key').on(t.recipientId, t.slot)],
);

/**
 * Signing telemetry for template drop-off analytics (POST /workflow/v1/field-events). One row per session,
 * recipient row, field and event type: a repeated event of a session is kept once (the first).
 */
export const fieldEvents = pgTable(
  'field_events',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sessionId: text().notNull(),
    workflowId: integer()
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    documentId: integer().references(() => documents.id, { onDelete: 'cascade' }),
    fieldId: integer().references(() => fields.id, { onDelete: 'cascade' }),
    /** The recipient row of the token that sent the event. */
    recipientId: integer()
      .notNull()
      .references(() => recipients.id, { onDelete: 'cascade' }),
    /** The workflow's template and the template field the event's field came from (null: not from a template). */
    templateId: integer().references((): AnyPgColumn => templates.id),
    placeholderKey: text(),
    type: text().notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('field_events_workflow_idx').on(t.workflowId),
    index('field_events_recipient_idx').on(t.recipientId),
    uniqueIndex('field_events_once_key').on(t.sessionId, t.recipientId, sql`coalesce(${t.fieldId}, 0)`, t.type),
    index('field_events_template_idx')
      .on(t.templateId, t.placeholderKey, t.sessionId, t.recipientId, t.type, t.at, t.receivedAt)
      .where(sql`${t.templateId} is not null`),
  ],
);
