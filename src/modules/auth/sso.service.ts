import crypto from 'node:crypto';
import { AppError } from '../../errors.ts';
import type { Db } from '../../platform/db/client.ts';
import type { TokenSigner } from '../../platform/auth/jwt.ts';
import { IdTokenRejected, type IdTokenVerifier } from '../../platform/auth/id-token.ts';
import { OidcRejected, type OidcRelyingParty } from '../../platform/auth/oidc.ts';
import {
  LOGIN_STATES_PER_ADDRESS,
  lockedForSeconds,
  recordAttempts,
  SIGNIN_FAILURES_PER_ADDRESS,
} from '../../platform/limits/attempts.ts';
import type { BillingService } from '../billing/billing.service.ts';
import { createAccount } from '../users/accounts.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import { findUserByEmail, findUserById, normalizeEmail, type UserRow } from '../users/users.directory.ts';
import type { AuthService } from './auth.service.ts';
import type { SigninBody } from './auth.schemas.ts';
import { SSO_CALLBACK_PATH } from './sso.schemas.ts';
import type { SessionTokens } from './sessions.ts';
import {
  attachAuthorizationCode,
  consumeLoginState,
  deleteStaleLoginStates,
  findLoginState,
  insertLoginState,
  recordIdTokenUse,
  type LoginStateRow,
} from './sso.repo.ts';

/** A sign-in started at an authorization server must come back within 10 minutes. */
export const LOGIN_STATE_SECONDS = 10 * 60;
/** The own sign-in page's authorization code is good for one minute (the browser follows it at once). */
export const OWN_CODE_SECONDS = 60;

export type LoginPurpose = 'WEB_SESSION' | 'SSO';

/** Who a finished sign-in is, and what the browser asked for when it started. */
export type FinishedLogin = { user: UserRow; rememberMe: boolean; returnTo: string | null; idToken: string | null };

type Deps = {
  db: Db;
  tokens: TokenSigner;
  auth: AuthService;
  billing: BillingService;
  signupEnabled: boolean;
  publicUrl: string;
  /** OIDC_ISSUER's relying party; undefined: the service's own sign-in page is the authorization server. */
  oidc: OidcRelyingParty | undefined;
  /** IDP_ISSUER's ID-token verifier; undefined: IDP sign-in is off. */
  idTokens: IdTokenVerifier | undefined;
};

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex');
}

/** 256 random bits, base64url: states, codes, cookies. */
export function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/**
 * Sign-in through an authorization server: the external OpenID provider (OIDC_ISSUER) or, without one, the
 * service's own sign-in page, which plays the provider's part (RUNTIME.md "The web app"). Used by the web
 * session (/bff/auth/*) and the SSO redirect (GET /auth/v1/signin); also the social ID-token exchange (IDP_AUTH).
 *
 * Every refused state, code and ID token counts against the client address's sign-in limit
 * (SIGNIN_FAILURES_PER_ADDRESS, shared with password failures); while the address is locked nothing is checked.
 */
export function createSsoService({ db, tokens, auth, billing, signupEnabled, publicUrl, oidc, idTokens }: Deps) {
  const publicOrigin = new URL(publicUrl).origin;
  const defaultRedirectUri = `${publicUrl.replace(/\/+$/, '')}${SSO_CALLBACK_PATH}`;

  return {
    provider: oidc ? ('OIDC' as const) : ('OWN' as const),
    idpEnabled: idTokens !== undefined,
    startLogin,
    authorizeOwn,
    finishLogin,
    ssoStart,
    ssoCallback,
    socialSignin,
    logoutUrl,
  };

  /**
   * Stores a new sign-in state and answers where the browser goes: the provider's authorization URL (PKCE S256,
   * nonce, state; `idpHint` passed on as idp_hint) or the own sign-in page. Each state is a row kept a day, asked for
   * without credentials: `address` (the client's) starts at most LOGIN_STATES_PER_ADDRESS, else 429
   * LOGIN_STATE_LIMIT_REACHED with Retry-After (the web session's authorize and the SSO redirect count together).
   */
  async function startLogin(request: {
    purpose: LoginPurpose;
    redirectUri: string;
    bindingHash?: string;
    rememberMe: boolean;
    returnTo?: string;
    idpHint?: string;
    address: string;
  }): Promise<{ authorizationUrl: string; state: string; expiresAt: Date }> {
    const waitSeconds = await lockedForSeconds(db, LOGIN_STATES_PER_ADDRESS, request.address);
    if (waitSeconds !== null) {
      throw new AppError(
        'LOGIN_STATE_LIMIT_REACHED',
        `${LOGIN_STATES_PER_ADDRESS.max} sign-ins started from this address within 15 minutes, the most allowed; try again in ${waitSeconds} seconds`,
        { retryAfterSeconds: waitSeconds },
        { retryAfterSeconds: waitSeconds },
      );
    }
    await recordAttempts(db, [[LOGIN_STATES_PER_ADDRESS, request.address]]);
    const state = randomToken();
    const nonce = randomToken();
    const codeVerifier = randomToken();
    const now = Date.now();
    const expiresAt = new Date(now + LOGIN_STATE_SECONDS * 1000);
    await deleteStaleLoginStates(db, new Date(now - 24 * 3600 * 1000));
    const authorizationUrl = oidc
      ? await oidc
          .authorizationUrl({ redirectUri: request.redirectUri, state, nonce, codeVerifier, idpHint: request.idpHint })
          .catch(rethrowProvider)
      : `${publicUrl}/signin?state=${encodeURIComponent(state)}`;
    await insertLoginState(db, {
      stateHash: sha256(state),
      purpose: request.purpose,
      provider: oidc ? 'OIDC' : 'OWN',
      redirectUri: request.redirectUri,
      bindingHash: request.bindingHash ?? null,
      nonce,
      codeVerifier,
      rememberMe: request.rememberMe,
      returnTo: request.returnTo ?? null,
      expiresAt,
    });
    return { authorizationUrl, state, expiresAt };
  }

  /**
   * The own sign-in page's authorize step: checks the credentials (password, then a TOTP code when the account
   * has two-factor sign-in; or a fresh refresh token from another sign-in API, e.g. a passkey or a smart card)
   * and answers where the browser continues: the state's redirect URI with a one-minute code.
   */
  async function authorizeOwn(
    request: { state: string; bindingValue: string | undefined; body: SigninBody; rememberMe: boolean },
    address: string,
  ): Promise<{ kind: 'redirect'; redirectUrl: string } | { kind: 'totp-required' }> {
    if (oidc) throw new AppError('OPERATION_IS_NOT_ALLOWED', 'Sign-in happens at the identity provider (OIDC_ISSUER)');
    await assertAddressNotLocked(address);
    const row = await findLoginState(db, sha256(request.state));
    if (
      row?.provider !== 'OWN' ||
      row.consumedAt ||
      row.codeHash ||
      row.expiresAt.getTime() <= Date.now() ||
      !bindingMatches(row, request.bindingValue)
    ) {
      await countFailure(address);
      throw new AppError('LOGIN_STATE_INVALID');
    }
    let user: UserRow;
    if (request.body.grant_type === 'REFRESH_TOKEN') {
      user = await userOfFreshSession(request.body.refreshToken, address);
    } else {
      const checked = await auth.checkCredentials(request.body, address);
      if (checked.kind === 'totp-required') return checked;
      user = checked.user;
    }
    const code = randomToken();
    const attached = await attachAuthorizationCode(db, row.id, {
      codeHash: sha256(code),
      userId: user.id,
      expiresAt: new Date(Date.now() + OWN_CODE_SECONDS * 1000),
      rememberMe: request.rememberMe,
    });
    if (!attached) throw new AppError('LOGIN_STATE_INVALID');
    const target = new URL(row.redirectUri);
    target.searchParams.set('code', code);
    target.searchParams.set('state', request.state);
    return { kind: 'redirect', redirectUrl: target.href };
  }

  /**
   * A sign-in finished elsewhere (a passkey, a smart card) hands over its refresh token: rotating it proves the
   * caller holds it; the rotated family is then revoked, since the web session or SSO answer starts its own.
   */
  async function userOfFreshSession(refreshToken: string | undefined, address: string): Promise<UserRow> {
    if (!refreshToken) throw new AppError('BAD_REQUEST_BODY', 'refreshToken is required with grant_type REFRESH_TOKEN');
    const rotated = await auth.refresh(refreshToken).catch(async (error: unknown) => {
      if (error instanceof AppError && error.code === 'INVALID_REFRESH_TOKEN') await countFailure(address);
      throw error;
    });
    const claims = await tokens.verify(rotated.accessToken);
    const user = claims ? await findUserById(db, Number(claims.sub)) : null;
    if (claims?.type !== 'USER' || !user || user.isGuest) {
      throw new AppError('INVALID_REFRESH_TOKEN', 'Only a user session can sign in here');
    }
    await auth.endSession(user.id, rotated.refreshToken);
    return user;
  }

  /**
   * The callback of either provider. The state is used up first (single use even when what follows fails), must
   * be of this purpose, unexpired, from the same browser (WEB_SESSION: the binding cookie) and for the same
   * redirect URI (SSO). Then the code: the own page's (hash, account, one minute) or the provider's (exchanged
   * with the PKCE verifier; the ID token's signature, issuer, audience, expiry and nonce checked).
   */
  async function finishLogin(
    request: {
      purpose: LoginPurpose;
      state: string;
      params: Record<string, string | undefined>;
      redirectUri?: string;
      bindingValue?: string;
    },
    address: string,
  ): Promise<FinishedLogin> {
    await assertAddressNotLocked(address);
    const row = await findLoginState(db, sha256(request.state));
    const valid =
      row &&
      row.purpose === request.purpose &&
      !row.consumedAt &&
      row.expiresAt.getTime() > Date.now() &&
      (request.purpose === 'SSO' ? row.redirectUri === request.redirectUri : bindingMatches(row, request.bindingValue));
    const consumed = valid ? await consumeLoginState(db, row.id) : null;
    if (!consumed) {
      await countFailure(address);
      throw new AppError('LOGIN_STATE_INVALID');
    }
    if (request.params.error) {
      throw new AppError('SSO_CODE_INVALID', `The identity provider answered ${request.params.error.slice(0, 100)}`);
    }
    const code = request.params.code;
    if (!code) {
      await countFailure(address);
      throw new AppError('SSO_CODE_INVALID', 'The authorization response has no code');
    }
    if (consumed.provider === 'OWN') {
      const user = consumed.codeUserId === null ? null : await findUserById(db, consumed.codeUserId);
      const codeValid =
        consumed.codeHash !== null &&
        consumed.codeExpiresAt !== null &&
        consumed.codeExpiresAt.getTime() > Date.now() &&
        crypto.timingSafeEqual(Buffer.from(sha256(code)), Buffer.from(consumed.codeHash));
      if (!codeValid || !user) {
        await countFailure(address);
        throw new AppError('SSO_CODE_INVALID');
      }
      return { user, rememberMe: consumed.rememberMe, returnTo: consumed.returnTo, idToken: null };
    }
    if (!oidc)
      throw new AppError(
        'LOGIN_STATE_INVALID',
        'This sign-in was started with an identity provider that is no longer configured',
      );
    const identity = await oidc
      .exchangeCode(
        { redirectUri: consumed.redirectUri, params: { ...request.params, state: request.state } },
        { state: request.state, nonce: consumed.nonce, codeVerifier: consumed.codeVerifier },
      )
      .catch(async (error: unknown) => {
        if (error instanceof OidcRejected && !error.unreachable) {
          await countFailure(address);
          throw new AppError('SSO_CODE_INVALID', error.message);
        }
        return rethrowProvider(error);
      });
    if (!identity.email || !identity.emailVerified)
      throw new AppError('SSO_EMAIL_NOT_VERIFIED', 'The identity provider has not verified an email for this identity');
    const user = await accountFor(identity.email, identity.name);
    return { user, rememberMe: consumed.rememberMe, returnTo: consumed.returnTo, idToken: identity.idToken };
  }

  /** GET /auth/v1/signin: the authorization URL for `redirectUri` (with the own page, only a URL of this service). */
  async function ssoStart(
    request: { redirectUri?: string; rememberMe: boolean },
    address: string,
  ): Promise<{ authorizationUrl: string; state: string; expiresAt: string }> {
    const uri = parseRedirectUri(request.redirectUri ?? defaultRedirectUri);
    // The own page would hand its code to any address it is given: an attacker's would receive a victim's sign-in.
    if (!oidc && uri.origin !== publicOrigin)
      throw new AppError(
        'REDIRECT_URI_NOT_ALLOWED',
        `With the service's own sign-in page the redirect URI must be on ${publicOrigin}`,
      );
    const started = await startLogin({
      purpose: 'SSO',
      redirectUri: uri.href,
      rememberMe: request.rememberMe,
      address,
    });
    return {
      authorizationUrl: started.authorizationUrl,
      state: started.state,
      expiresAt: started.expiresAt.toISOString(),
    };
  }

  /** POST /auth/v1/signin/callback: the password-login shape for the account of the finished sign-in. */
  async function ssoCallback(
    request: { code: string; state: string; redirectUri?: string; iss?: string },
    address: string,
  ): Promise<SessionTokens> {
    const finished = await finishLogin(
      {
        purpose: 'SSO',
        state: request.state,
        redirectUri: parseRedirectUri(request.redirectUri ?? defaultRedirectUri).href,
        params: { code: request.code, state: request.state, iss: request.iss },
      },
      address,
    );
    return auth.issueUserSession(finished.user, finished.rememberMe);
  }

  /**
   * IDP_AUTH and GET /auth/v1/signin/social/idp: a social provider's ID token, verified against IDP_ISSUER's keys
   * (issuer, audience IDP_CLIENT_ID, expiry, nonce when given, email_verified), used once, for the account of its
   * email. Anything else 401 IDP_TOKEN_INVALID.
   */
  async function socialSignin(
    idToken: string | undefined,
    nonce: string | undefined,
    rememberMe: boolean,
    address: string,
  ): Promise<SessionTokens> {
    if (!idTokens)
      throw new AppError(
        'OPERATION_IS_NOT_ALLOWED',
        'IDP sign-in is not offered by this service (app settings sso.enableIdpAuth is false)',
      );
    if (!idToken) throw new AppError('BAD_REQUEST_BODY', 'idToken is required with grant_type IDP_AUTH');
    await assertAddressNotLocked(address);
    const verified = await idTokens.verify(idToken, nonce).catch(async (error: unknown) => {
      if (error instanceof IdTokenRejected && error.unreachable)
        throw new AppError('IDENTITY_PROVIDER_UNAVAILABLE', error.message);
      if (error instanceof IdTokenRejected) {
        await countFailure(address);
        throw new AppError('IDP_TOKEN_INVALID', error.message);
      }
      throw error;
    });
    if (!(await recordIdTokenUse(db, { tokenHash: sha256(idToken), userId: null, expiresAt: verified.expiresAt }))) {
      await countFailure(address);
      throw new AppError('IDP_TOKEN_INVALID', 'This ID token was already used; get a new one from the provider');
    }
    const user = await accountFor(verified.email, verified.name);
    return auth.issueUserSession(user, rememberMe);
  }

  /** Where a browser completes logout: the provider's end-session URL (with the ID token as hint), else the web app. */
  async function logoutUrl(idToken: string | null): Promise<string> {
    const home = `${publicUrl}/`;
    if (!oidc) return home;
    return (await oidc.endSessionUrl(idToken, home)) ?? home;
  }

  /**
   * The account an identity verified by a provider signs in to, matched by email: a registered account whose
   * address is verified here; else (nobody, or only a guest recipient) a new account when sign-up is open, its
   * address verified by the provider. A registered account whose address is not verified here is refused: its
   * password may belong to someone who squatted the address, who would otherwise share the real owner's account.
   */
  async function accountFor(email: string, name: string | null): Promise<UserRow> {
    const existing = await findUserByEmail(db, email);
    if (existing && !existing.isGuest) {
      if (!existing.emailVerifiedAt) {
        throw new AppError(
          'SSO_EMAIL_NOT_VERIFIED',
          'An account holds this email but has not verified it; open the link of its verification mail first',
        );
      }
      if (existing.organizationId === null)
        throw new AppError('SSO_CODE_INVALID', 'This account has no organization to sign in to');
      return existing;
    }
    if (!signupEnabled) throw new AppError('SSO_SIGNUP_DISABLED');
    const plan = await billing.defaultPackage();
    try {
      return await db.transaction(
        async (tx) =>
          (
            await createAccount(
              tx,
              {
                name: accountName(name, email),
                email,
                passwordHash: null,
                emailVerifiedAt: new Date(),
              },
              plan,
            )
          ).user,
      );
    } catch (error) {
      // Two first sign-ins at once: the other one created the account.
      if (!isUniqueViolation(error) && !(error instanceof AppError && error.code === 'EMAIL_ALREADY_REGISTERED'))
        throw error;
      const created = await findUserByEmail(db, email);
      if (!created || created.isGuest || !created.emailVerifiedAt) throw error;
      return created;
    }
  }

  async function assertAddressNotLocked(address: string): Promise<void> {
    const seconds = await lockedForSeconds(db, SIGNIN_FAILURES_PER_ADDRESS, address);
    if (seconds === null) return;
    throw new AppError(
      'ACCOUNT_TEMPORARILY_LOCKED',
      `Too many failed sign-in attempts from this address; try again in ${seconds} seconds`,
      { retryAfterSeconds: seconds },
      { retryAfterSeconds: seconds },
    );
  }

  async function countFailure(address: string): Promise<void> {
    await recordAttempts(db, [[SIGNIN_FAILURES_PER_ADDRESS, address]]);
  }

  function parseRedirectUri(value: string): URL {
    let uri: URL;
    try {
      uri = new URL(value);
    } catch {
      throw new AppError('REDIRECT_URI_NOT_ALLOWED', 'redirectUri must be an absolute URL');
    }
    if (uri.hash || uri.username || uri.password)
      throw new AppError('REDIRECT_URI_NOT_ALLOWED', 'redirectUri must not carry a fragment or credentials');
    return uri;
  }
}

/** The state was started in this browser: its binding cookie's hash matches (constant time). */
function bindingMatches(row: LoginStateRow, bindingValue: string | undefined): boolean {
  if (row.bindingHash === null) return row.purpose === 'SSO';
  if (!bindingValue) return false;
  return crypto.timingSafeEqual(Buffer.from(sha256(bindingValue)), Buffer.from(row.bindingHash));
}

function rethrowProvider(error: unknown): never {
  if (error instanceof OidcRejected) throw new AppError('IDENTITY_PROVIDER_UNAVAILABLE', error.message);
  throw error;
}

/** A display name for an account a provider creates: its `name` claim, else the address's local part. */
function accountName(name: string | null, email: string): string {
  const chosen = name?.trim() || normalizeEmail(email).split('@')[0];
  return chosen.slice(0, 100);
}

export type SsoService = ReturnType<typeof createSsoService>;
