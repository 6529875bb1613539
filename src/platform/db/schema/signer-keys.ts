import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { documents, fields, recipients, workflows } from './workflows.ts';

/**
 * Per-signer signing keys (`useDigitalCert` recipients, RUNTIME.md "Signing password"): one per email address
 * (lower-cased), across workflows. The private key (PKCS#8) is only ever stored wrapped: AES-256-GCM under a key
 * derived from the signer's signing password with argon2id, so it can be used only while the signer types it.
 */
export const signerKeys = pgTable(
  'signer_keys',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** Lower-cased; the person the key belongs to. */
    email: text().notNull(),
    /** The name the current certificate carries (a different name on a later use re-issues the certificate). */
    name: text().notNull(),
    /** argon2id parameters and salt (base64) of the wrapping key: {algorithm, memoryCost, timeCost, parallelism, salt}. */
    kdf: jsonb().notNull(),
    /** AES-256-GCM over the PKCS#8 DER: iv, ciphertext and tag, each base64. */
    wrapIv: text().notNull(),
    wrappedKey: text().notNull(),
    wrapTag: text().notNull(),
    /** The signer's certificate (DER, base64), issued by the platform CA; its issuers are the platform CA's chain. */
    certificate: text().notNull(),
    /** Hex serial number of `certificate`, for lookups and the audit trail. */
    certificateSerial: text().notNull(),
    /**
     * A new key for a locked or forgotten signing password (signer-keys.service.ts reset): SHA-256 of the 6-digit code
     * mailed through the platform, when it was mailed and until when it works, and the wrong tries at it. Null: none asked.
     */
    resetCodeHash: text(),
    resetCodeSentAt: timestamp({ withTimezone: true }),
    resetCodeExpiresAt: timestamp({ withTimezone: true }),
    resetCodeAttempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('signer_keys_email_key').on(t.email)],
);

/**
 * The signed revisions of a document (modules/signing/signer-revisions.ts): each signer's PAdES signature is an
 * incremental update over the previous revision (or the uploaded PDF), and the seal job starts from the newest
 * COMPLETED one. A PENDING row is a revision laid out for a remote (CSC) signer, waiting for its signature value.
 */
export const signerRevisions = pgTable(
  'signer_revisions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    workflowId: integer()
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    documentId: integer()
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    /** The DIGITAL_SIGNATURE field the signature stands for, and the recipient row that signed. */
    fieldId: integer()
      .notNull()
      .references(() => fields.id, { onDelete: 'cascade' }),
    recipientId: integer()
      .notNull()
      .references(() => recipients.id, { onDelete: 'cascade' }),
    /** PENDING (laid out, waiting for the signature value) or COMPLETED. */
    status: text().notNull(),
    /** LOCAL_KEY or REMOTE_HASH. */
    signerKind: text().notNull(),
    /** The COMPLETED revision this one was laid out over; null: over the uploaded PDF. */
    baseRevisionId: integer().references((): AnyPgColumn => signerRevisions.id, { onDelete: 'cascade' }),
    /** PENDING: the laid-out revision (Contents zero); COMPLETED: the signed file. Content-addressed blob keys. */
    blobKey: text().notNull(),
    size: integer().notNull(),
    /** Field ids whose values this revision drew into the page content (the seal job draws only the others). */
    drawnFieldIds: jsonb().notNull(),
    /** PENDING data a remote signer's completion needs: contentsAt, reserve, signedAttributes, hashToSign, certificates. */
    pending: jsonb(),
    /** Hex serial of the signer's certificate. */
    certificateSerial: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    index('signer_revisions_document_idx').on(t.documentId, t.id),
    index('signer_revisions_workflow_idx').on(t.workflowId),
  ],
);
