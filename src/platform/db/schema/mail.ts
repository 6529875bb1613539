import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Transactional outbox: a mail row is inserted in the same transaction as the state change that causes
 * it; the mail worker delivers it with retries and backoff.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** Routes the mail through the organization's own email settings when configured. */
    organizationId: integer(),
    toAddress: text().notNull(),
    subject: text().notNull(),
    textBody: text().notNull(),
    htmlBody: text(),
    /** [{filename, contentType, blobKey}] */
    attachments: jsonb(),
    /** What caused it, for tests and support: COMMENCE, OTP, COMPLETED, REMINDER, ... */
    kind: text().notNull(),
    workflowId: integer(),
    recipientId: integer(),
    /**
     * Mail that proves control of an address (verification, invitations, one-time codes, the links of useDigitalCert
     * signers) leaves through the platform's own mail, never the organization's provider (RUNTIME.md round three).
     */
    viaPlatform: boolean().notNull().default(false),
    /** PENDING, SENT, FAILED */
    status: text().notNull().default('PENDING'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
    /** Who carried the last attempt: PLATFORM, or the organization's own provider (SMTP, EMAIL_API, CLOUD_MAIL, OAUTH2_MAIL). */
    route: text(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    // The owner's delivery log pages an organization's mails newest first.
    index('mail_outbox_organization_idx').on(t.organizationId, t.id),
    // The evidence report names the route that carried each recipient's link (history.repo.ts findLinkDeliveries).
    index('mail_outbox_workflow_idx').on(t.workflowId, t.recipientId).where(sql`${t.workflowId} is not null`),
  ],
);
