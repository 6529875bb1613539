import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, numeric } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** Preset and custom billing packages (SPEC.md "Package"). */
export const packages = pgTable('packages', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  name: text().notNull(),
  description: text().notNull().default(''),
  credits: integer().notNull(),
  creditsPrice: numeric({ mode: 'number' }).notNull().default(0),
  discount: numeric({ mode: 'number' }).notNull().default(0),
  preset: boolean().notNull().default(true),
  /** Days one cycle lasts. */
  duration: integer().notNull(),
  servicePlan: text().notNull(),
  status: text().notNull().default('ACTIVE'),
  currencySymbol: text().notNull().default('$'),
  isDefault: boolean().notNull().default(false),
  allowSharing: boolean().notNull().default(true),
  allowCustomSmtp: boolean().notNull().default(false),
  powerSurveyRecipientLimit: integer().notNull().default(100),
  quotaElectronic: integer().notNull().default(1000),
  quotaAdvanced: integer().notNull().default(0),
  quotaQualified: integer().notNull().default(0),
  /** Cloud-import providers the plan grants (DRIVE, BOX); the profile's import keys stay null for the others. */
  cloudProviders: text().array().notNull().default(sql`'{}'::text[]`),
});

/** Registered users and guest users (a recipient whose email matched nobody). Emails are stored lower-cased. */
export const users = pgTable(
  'users',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    email: text().notNull(),
    name: text().notNull(),
    passwordHash: text(),
    isGuest: boolean().notNull().default(false),
    /** The organization the user acts in by default (the one created at sign-up). */
    organizationId: integer(),
    twoFactorEnabled: boolean().notNull().default(false),
    /** Base32 TOTP secret; set on enrollment (generateQR), active once twoFactorEnabled. */
    totpSecret: text(),
    /** Last accepted 30-second TOTP step, so a code is accepted once. */
    totpLastStep: integer(),
    /** The account's language setting (PUT /user/v1/settings/locale); null until it sets one (answered as en). */
    locale: text(),
    /**
     * When the owner of the address proved it by opening the mailed verification link; null until then. Until it
     * is set, workflows others address to this email are reachable only through their signing links (RUNTIME.md).
     */
    emailVerifiedAt: timestamp({ withTimezone: true }),
    /** SHA-256 (hex) of the pending verification code; kept after use so that reopening the link still answers 200. */
    emailVerificationHash: text(),
    emailVerificationExpiresAt: timestamp({ withTimezone: true }),
    /**
     * Set by the operator (POST /admin/v1/users/{userId}/disable): the account signs in nowhere, its tokens and web
     * sessions are refused, the signing links of its envelopes and its own links stop; nothing is deleted. Null: enabled.
     */
    disabledAt: timestamp({ withTimezone: true }),
    /** Who disabled it, as the operator named themself (the operator's API has one token, no accounts). */
    disabledBy: text(),
    disabledReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    uniqueIndex('users_email_verification_hash_key').on(t.emailVerificationHash),
  ],
);

export const organizations = pgTable('organizations', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  name: text().notNull(),
  ownerUserId: integer().notNull(),
  packageId: integer().notNull(),
  credits: integer().notNull().default(0),
  packageStartedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  packageExpiresAt: timestamp({ withTimezone: true }).notNull(),
  servicePlanActive: boolean().notNull().default(true),
  /** Custom outbound mail routing (SPEC.md "Email settings"); null means the platform's SMTP_URL. */
  emailSettings: jsonb(),
  /**
   * Set by the operator (POST /admin/v1/organizations/{orgId}/disable): no member acts in it, its business apps'
   * tokens and the signing links of its envelopes stop; nothing is deleted. Null: enabled.
   */
  disabledAt: timestamp({ withTimezone: true }),
  disabledBy: text(),
  disabledReason: text(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

export const roles = pgTable(
  'roles',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organizationId: integer().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    status: text().notNull().default('ACTIVE'),
    signatureSettings: jsonb().notNull(),
    permissions: jsonb().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roles_org_name_key').on(t.organizationId, t.name)],
);

export const memberships = pgTable(
  'memberships',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organizationId: integer().notNull(),
    userId: integer().notNull(),
    /** A role in use cannot be deleted (the service answers 409 first; the key is the last guard). */
    roleId: integer().references(() => roles.id, { onDelete: 'restrict' }),
    /** INVITED, ACTIVE, DECLINED */
    status: text().notNull().default('ACTIVE'),
    isOwner: boolean().notNull().default(false),
    usedElectronic: integer().notNull().default(0),
    usedAdvanced: integer().notNull().default(0),
    usedQualified: integer().notNull().default(0),
    /** The name the organization knows the member by (given at invitation, changed by the owner); null: the account's name. */
    name: text(),
    invitedByUserId: integer().references(() => users.id, { onDelete: 'set null' }),
    invitedAt: timestamp({ withTimezone: true }),
    joinedAt: timestamp({ withTimezone: true }),
    /** SHA-256 (hex) of the sign-up code mailed to an invitee without an account; null once used or for registered invitees. */
    inviteCodeHash: text(),
    inviteExpiresAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('memberships_org_user_key').on(t.organizationId, t.userId),
    index('memberships_user_idx').on(t.userId),
    index('memberships_role_idx').on(t.roleId),
    uniqueIndex('memberships_invite_code_key').on(t.inviteCodeHash),
  ],
);

/** Rotating refresh tokens, stored as SHA-256 hashes. A family is one sign-in; reuse of a rotated token revokes the family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer().notNull(),
    familyId: text().notNull(),
    tokenHash: text().notNull(),
    /** USER, GUEST or CLIENT: the kind of access token it renews. */
    tokenType: text().notNull().default('USER'),
    /** Extra claims carried into renewed access tokens (guest recipientId/workflowId, client appId). */
    claims: jsonb(),
    rememberMe: boolean().notNull().default(false),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** The end of the whole family (sign-in): rotation carries it over unchanged, so refreshing never extends a session. */
    sessionExpiresAt: timestamp({ withTimezone: true }).notNull(),
    rotatedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash), index('refresh_tokens_family_idx').on(t.familyId)],
);

/** Partner integrations (SPEC.md "Business app"); the secret is stored hashed and shown once. */
export const businessApps = pgTable(
  'business_apps',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    organizationId: integer()
      .notNull()
      .references(() => organizations.id),
    clientId: text().notNull(),
    appName: text().notNull(),
    callbackUrl: text().notNull(),
    secretHash: text().notNull(),
    /** The webhook signing secret, encrypted under SECRETS_KEY (it must be read back to sign); null: no webhooks. */
    webhookSecret: text(),
    status: boolean().notNull().default(true),
    /** The first failed webhook delivery of the current run of failures (a delivered one clears it); null: the callback answers. */
    callbackFailingSince: timestamp({ withTimezone: true }),
    /** When deliveries to the callback were paused after failing for 24 hours in a row; a replay or an edit of the app resumes them. */
    callbackPausedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('business_apps_client_id_key').on(t.clientId),
    // App names are unique per organization ignoring case; the registration's 409 relies on it under races.
    uniqueIndex('business_apps_org_name_key').on(t.organizationId, sql`lower(${t.appName})`),
  ],
);

/** The user's saved signatures, initials and stamps. */
export const signatureAssets = pgTable(
  'signature_assets',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SIGNATURE, INITIALS, STAMP */
    kind: text().notNull(),
    name: text().notNull().default(''),
    /** DRAW, TYPE, UPLOAD (UPLOAD only for STAMP) */
    captureMode: text().notNull().default('DRAW'),
    /** Normalised PNG data URL. */
    image: text().notNull(),
    isDefault: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('signature_assets_user_idx').on(t.userId),
    // At most one default per kind: two racing "make default" calls cannot both win.
    uniqueIndex('signature_assets_default_key').on(t.userId, t.kind).where(sql`${t.isDefault}`),
  ],
);
