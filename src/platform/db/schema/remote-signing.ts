import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { documents, fields, recipients, workflows } from './workflows.ts';
import { users } from './accounts.ts';
import { signerRevisions } from './signer-keys.ts';

/**
 * Remote (CSC) signatures prepared and waiting for the signer's authorization at the provider
 * (modules/remote-signing): one row per DIGITAL_SIGNATURE field, each pointing at the PENDING signer revision laid
 * out for it. Rows with the same `authorizationId` were prepared together (a batch) and are authorized by one code;
 * they are signed together or not at all, once (`usedAt`), before `expiresAt`.
 */
export const remoteSignaturePreparations = pgTable(
  'remote_signature_preparations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    /** Random id of the authorization request; sent to the provider as `state`. */
    authorizationId: text().notNull(),
    /** PKCE code verifier of that authorization (the same on every row of it), encrypted under SECRETS_KEY. */
    codeVerifier: text().notNull(),
    workflowId: integer()
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    documentId: integer()
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    fieldId: integer()
      .notNull()
      .references(() => fields.id, { onDelete: 'cascade' }),
    /** The recipient row the field belongs to, and the user that acted as it (guest user or account). */
    recipientId: integer()
      .notNull()
      .references(() => recipients.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The PENDING signer revision; preparing the field again deletes it, and with it this row. */
    revisionId: integer()
      .notNull()
      .references(() => signerRevisions.id, { onDelete: 'cascade' }),
    /** base64 SHA-256 of the CMS signed attributes (what the provider signs), and the attributes themselves (base64 DER). */
    hash: text().notNull(),
    signedAttributes: text().notNull(),
    /** The credential at the provider, the qualifier asked for (SES, AES, QES) and the credential's certificate (base64 DER). */
    credentialId: text().notNull(),
    qualifier: text().notNull(),
    keyAlgorithm: text().notNull(),
    /** The signAlgo OID signatures/signHash is sent (one the credential's key lists). */
    signAlgo: text().notNull(),
    certificate: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('remote_signature_preparations_authorization_idx').on(t.authorizationId),
    index('remote_signature_preparations_field_idx').on(t.workflowId, t.fieldId),
  ],
);
