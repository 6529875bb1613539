import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/** WebAuthn credentials a signed-in user registered (RUNTIME.md "Passkey registration"). */
export const passkeys = pgTable(
  'passkeys',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator reports it. */
    credentialId: text().notNull(),
    /** COSE public key, base64url. */
    publicKey: text().notNull(),
    /** Signature counter last seen; an assertion must move it forward (unless the authenticator keeps none: 0). */
    counter: bigint({ mode: 'number' }).notNull().default(0),
    transports: text().array().notNull().default([]),
    /** singleDevice or multiDevice (synced passkey). */
    deviceType: text().notNull(),
    backedUp: boolean().notNull().default(false),
    name: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_id_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/**
 * Sign-in challenges (WebAuthn registration and login, smart-card hashes), stored so that any instance can
 * verify the answer, and single use: consuming one sets usedAt where it is still null and unexpired.
 */
export const authChallenges = pgTable(
  'auth_challenges',
  {
    /** Random UUID; the smart card's challengeId. */
    id: text().primaryKey(),
    /** PASSKEY_REGISTRATION, PASSKEY_LOGIN, SMART_CARD */
    purpose: text().notNull(),
    /** WebAuthn: the base64url challenge; smart card: base64 of the SHA-256 digest to sign. */
    challenge: text().notNull(),
    /** Whose challenge it is; null for a login named with an unknown username (it can never succeed). */
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    /** Purpose-specific data (the smart card's certificate and the signed bytes). */
    data: jsonb(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('auth_challenges_purpose_challenge_key').on(t.purpose, t.challenge),
    index('auth_challenges_expires_idx').on(t.expiresAt),
  ],
);
