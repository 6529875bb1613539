import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../errors.ts';
import type { Db } from '../../platform/db/client.ts';
import type { SecretBox } from '../../platform/crypto/secrets.ts';
import { csrfTokenFor } from '../../http/session-cookie.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { SESSION_SECONDS } from '../auth/sessions.ts';
import { assertAccountStanding } from '../auth/account-standing.ts';
import { randomToken, sha256, type SsoService } from '../auth/sso.service.ts';
import {
  claimRefresh,
  deleteStaleWebSessions,
  endWebSession,
  findWebSession,
  findWebSessionWithUser,
  insertWebSession,
  releaseRefreshClaim,
  storeRefreshedTokens,
  type WebSessionRow,
} from './web-session.repo.ts';

/** The access token is renewed when less than this is left of it (it lives 900 seconds). */
export const REFRESH_BEFORE_SECONDS = 60;
/** How long one request may hold a session's refresh before another may take over. */
export const REFRESH_CLAIM_SECONDS = 30;
/** How long a request whose access token has run out waits for another request's refresh. */
export const REFRESH_WAIT_MS = 5000;

export type WebIdentity = {
  userId: number;
  email: string;
  name: string;
  organizationId: number | null;
  rememberMe: boolean;
  expiresAt: string;
  csrfToken: string;
};

type Deps = { db: Db; secrets: SecretBox; auth: AuthService; sso: SsoService; publicUrl: string };

/**
 * The web session (SPEC.md Authentication §1, a backend-for-frontend): the browser holds only a random cookie;
 * the account's access and refresh tokens stay in the database (encrypted), shared by every instance. The
 * session ends with its refresh family (12 hours, or 30 days with remember-me), at logout, or when a refresh
 * is refused (the account is gone, or a sign-out elsewhere revoked its tokens).
 */
export function createWebSessionService({ db, secrets, auth, sso, publicUrl }: Deps) {
  const callbackUrl = `${publicUrl}/bff/auth/callback`;

  return { authorize, callback, bearerFor, me, logout, refreshNow };

  /** Starts a sign-in; `binding` goes into the short-lived cookie that ties the callback to this browser. */
  async function authorize(
    request: { idpHint?: string; rememberMe: boolean; returnTo?: string },
    address: string,
  ): Promise<{ redirectUrl: string; binding: string; expiresAt: Date }> {
    const binding = randomToken();
    const started = await sso.startLogin({
      purpose: 'WEB_SESSION',
      redirectUri: callbackUrl,
      bindingHash: sha256(binding),
      rememberMe: request.rememberMe,
      returnTo: safeReturnTo(request.returnTo),
      idpHint: request.idpHint,
      address,
    });
    return { redirectUrl: started.authorizationUrl, binding, expiresAt: started.expiresAt };
  }

  /** Completes the sign-in and stores the new session; answers the cookie value and where the browser goes. */
  async function callback(
    request: { params: Record<string, string | undefined>; binding: string | undefined },
    address: string,
  ) {
    const finished = await sso.finishLogin(
      {
        purpose: 'WEB_SESSION',
        state: request.params.state ?? '',
        params: request.params,
        bindingValue: request.binding,
      },
      address,
    );
    const tokens = await auth.issueUserSession(finished.user, finished.rememberMe);
    const now = Date.now();
    const cookie = randomToken();
    const expiresAt = new Date(now + (finished.rememberMe ? SESSION_SECONDS.rememberMe : SESSION_SECONDS.short) * 1000);
    await deleteStaleWebSessions(db, new Date(now - 24 * 3600 * 1000));
    await insertWebSession(db, {
      cookieHash: sha256(cookie),
      userId: finished.user.id,
      accessToken: secrets.encrypt(tokens.accessToken),
      accessExpiresAt: new Date(now + tokens.expiry * 1000),
      refreshToken: secrets.encrypt(tokens.refreshToken),
      idToken: finished.idToken ? secrets.encrypt(finished.idToken) : null,
      rememberMe: finished.rememberMe,
      expiresAt,
    });
    return {
      cookie,
      // Remember-me: the cookie outlives the browser until the session's end; otherwise it dies with the browser.
      maxAgeSeconds: finished.rememberMe ? Math.floor((expiresAt.getTime() - now) / 1000) : undefined,
      returnTo: finished.returnTo ?? '/',
    };
  }

  /**
   * The access token to inject for this cookie, renewed first when less than REFRESH_BEFORE_SECONDS are left;
   * null when the session has ended (unknown cookie, logged out, past its maximum lifetime, refresh refused).
   */
  async function bearerFor(cookie: string): Promise<string | null> {
    const row = await liveSession(cookie);
    if (!row) return null;
    const tokens = await freshTokens(row);
    return tokens?.accessToken ?? null;
  }

  async function liveSession(cookie: string): Promise<WebSessionRow | null> {
    const row = await findWebSession(db, sha256(cookie));
    if (!row || row.endedAt) return null;
    if (row.expiresAt.getTime() <= Date.now()) {
      await endWebSession(db, row.id, 'EXPIRED');
      return null;
    }
    return row;
  }

  async function freshTokens(
    row: WebSessionRow,
    force = false,
  ): Promise<{ accessToken: string; accessExpiresAt: Date } | null> {
    const deadline = Date.now() + REFRESH_WAIT_MS;
    let current = row;
    for (;;) {
      const left = current.accessExpiresAt.getTime() - Date.now();
      if (!force && left > REFRESH_BEFORE_SECONDS * 1000)
        return { accessToken: secrets.decrypt(current.accessToken), accessExpiresAt: current.accessExpiresAt };
      if (await claimRefresh(db, current.id, current.generation, REFRESH_CLAIM_SECONDS)) return refreshClaimed(current);
      // Another request (of any instance) is refreshing: the current token still serves while it lasts.
      if (!force && left > 1000)
        return { accessToken: secrets.decrypt(current.accessToken), accessExpiresAt: current.accessExpiresAt };
      if (Date.now() > deadline) throw new AppError('SERVICE_UNAVAILABLE', 'The session is being renewed; try again');
      await sleep(100);
      const reread = await findWebSession(db, current.cookieHash);
      if (!reread || reread.endedAt) return null;
      if (reread.generation !== current.generation) force = false;
      current = reread;
    }
  }

  async function refreshClaimed(row: WebSessionRow): Promise<{ accessToken: string; accessExpiresAt: Date } | null> {
    let tokens;
    try {
      tokens = await auth.refresh(secrets.decrypt(row.refreshToken));
    } catch (error) {
      if (error instanceof AppError && error.code === 'INVALID_REFRESH_TOKEN') {
        await endWebSession(db, row.id, 'REFRESH_FAILED');
        return null;
      }
      await releaseRefreshClaim(db, row.id);
      throw error;
    }
    const accessExpiresAt = new Date(Date.now() + tokens.expiry * 1000);
    await storeRefreshedTokens(db, row.id, row.generation, {
      accessToken: secrets.encrypt(tokens.accessToken),
      accessExpiresAt,
      refreshToken: secrets.encrypt(tokens.refreshToken),
    });
    return { accessToken: tokens.accessToken, accessExpiresAt };
  }

  /** GET /bff/auth/me: the account of a live session; null when there is none. */
  async function me(cookie: string): Promise<WebIdentity | null> {
    const row = await liveSession(cookie);
    if (!row) return null;
    const found = await findWebSessionWithUser(db, row.cookieHash);
    if (!found) return null;
    // Disabled by the operator: the session is kept (enabling restores it) but answers 403, never an identity.
    assertAccountStanding(found);
    return {
      userId: found.user.id,
      email: found.user.email,
      name: found.user.name,
      organizationId: found.user.organizationId,
      rememberMe: row.rememberMe,
      expiresAt: row.expiresAt.toISOString(),
      csrfToken: csrfTokenFor(cookie),
    };
  }

  /**
   * Ends the session: its refresh family is revoked (so its tokens stop refreshing on every instance), its ID
   * token forgotten, and the answer is the URL that completes logout (the provider's end-session URL with that
   * ID token as hint, else the web app). Ending a session that has already ended answers the web app's URL.
   */
  async function logout(cookie: string): Promise<{ logoutUrl: string }> {
    const row = await findWebSession(db, sha256(cookie));
    const ended = row ? await endWebSession(db, row.id, 'LOGOUT') : null;
    if (!ended) return { logoutUrl: `${publicUrl}/` };
    await auth.endSession(ended.userId, secrets.decrypt(ended.refreshToken));
    return { logoutUrl: await sso.logoutUrl(ended.idToken ? secrets.decrypt(ended.idToken) : null) };
  }

  /**
   * GET /auth/v1/refresh-session with the cookie: renews the session's tokens now, where they are kept, and answers
   * how long the new access token lives. The token itself stays here: a script of the page must never hold one.
   */
  async function refreshNow(cookie: string): Promise<{ expiry: number; rememberMe: boolean } | null> {
    const row = await liveSession(cookie);
    if (!row) return null;
    const tokens = await freshTokens(row, true);
    if (!tokens) return null;
    return {
      expiry: Math.max(0, Math.floor((tokens.accessExpiresAt.getTime() - Date.now()) / 1000)),
      rememberMe: row.rememberMe,
    };
  }
}

/** Only a path of this service (no scheme, no host, no `//`): the callback must not become an open redirect. */
function safeReturnTo(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || /[\u0000-\u001f]/.test(value)) {
    throw new AppError('BAD_REQUEST_BODY', 'returnTo must be a path of this service, starting with a single /');
  }
  return value;
}

export type WebSessionService = ReturnType<typeof createWebSessionService>;
