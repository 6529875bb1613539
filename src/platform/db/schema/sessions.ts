import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * One pending sign-in through an authorization server (the external OpenID provider, or the service's own sign-in
 * page): what the callback must find again. Written by the auth module. Single use (`consumedAt`), short-lived.
 * `state` is stored as its SHA-256 only; the PKCE verifier and the nonce never leave the server.
 */
export const loginStates = pgTable(
  'login_states',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    stateHash: text().notNull(),
    /** WEB_SESSION (the /bff/auth flow, ends in a cookie) or SSO (GET /auth/v1/signin, ends in tokens). */
    purpose: text().notNull(),
    /** OIDC (OIDC_ISSUER) or OWN (the service's own sign-in page). */
    provider: text().notNull(),
    redirectUri: text().notNull(),
    /** WEB_SESSION: SHA-256 of the short-lived cookie that binds the flow to the browser that started it. */
    bindingHash: text(),
    nonce: text().notNull(),
    codeVerifier: text().notNull(),
    rememberMe: boolean().notNull().default(false),
    /** Where the browser goes after the callback (a path of this service). */
    returnTo: text(),
    /** OWN: the authorization code the sign-in page obtained (SHA-256), its account and its end. */
    codeHash: text(),
    codeUserId: integer().references(() => users.id, { onDelete: 'cascade' }),
    codeExpiresAt: timestamp({ withTimezone: true }),
    consumedAt: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('login_states_state_hash_key').on(t.stateHash),
    uniqueIndex('login_states_code_hash_key').on(t.codeHash),
    index('login_states_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Social-provider ID tokens already exchanged (IDP_AUTH, /auth/v1/signin/social/idp), by SHA-256, until they
 * expire: each token signs in once. Written by the auth module.
 */
export const idpTokenUses = pgTable(
  'idp_token_uses',
  {
    tokenHash: text().primaryKey(),
    userId: integer().references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('idp_token_uses_expires_idx').on(t.expiresAt)],
);

/**
 * A browser's session (SPEC.md Authentication §1): the cookie holds a random value, stored here as its SHA-256;
 * the tokens it stands for are stored encrypted (SECRETS_KEY) and never reach the browser. Shared by every
 * instance. Written by the web-session module.
 */
export const webSessions = pgTable(
  'web_sessions',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    cookieHash: text().notNull(),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text().notNull(),
    accessExpiresAt: timestamp({ withTimezone: true }).notNull(),
    refreshToken: text().notNull(),
    /** The external provider's ID token (encrypted), for id_token_hint at logout; null with the own sign-in page. */
    idToken: text(),
    rememberMe: boolean().notNull().default(false),
    /** Maximum lifetime: the end of the refresh family behind it, fixed at sign-in. */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    /** Bumped by each refresh; a refresh claims the row (`refreshingUntil`) so instances never rotate one token twice. */
    generation: integer().notNull().default(0),
    refreshingUntil: timestamp({ withTimezone: true }),
    endedAt: timestamp({ withTimezone: true }),
    /** LOGOUT, EXPIRED, REFRESH_FAILED. */
    endReason: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('web_sessions_cookie_hash_key').on(t.cookieHash), index('web_sessions_user_idx').on(t.userId)],
);
