import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/**
 * The web session's cookies (SPEC.md Authentication §1). Over https they take the `__Host-` prefix, which the
 * browser only accepts with Secure, Path=/ and no Domain, so no subdomain can set or shadow them.
 */
export type CookieNames = { session: string; login: string };
export function cookieNames(secure: boolean): CookieNames {
  return secure
    ? { session: '__Host-sig_session', login: '__Host-sig_login' }
    : { session: 'sig_session', login: 'sig_login' };
}

/** The header a cookie-authenticated state change (and a GET that writes) must carry (see csrfTokenFor). */
export const CSRF_HEADER = 'x-csrf-token';

/** SPEC.md's session-layer 401 body, which differs from the standard error body on purpose. */
export const SESSION_EXPIRED_BODY = { error: 'The session has ended; sign in again', code: 'SESSION_EXPIRED' } as const;
/** Sent as text: a route's 401 schema describes the standard body, and must not reshape this one. */
export const SESSION_EXPIRED_JSON = JSON.stringify(SESSION_EXPIRED_BODY);

/**
 * The CSRF token of a session: SHA-256 of the (HttpOnly, unreadable to scripts) cookie value. The web app reads it
 * from GET /bff/auth/me and sends it as X-CSRF-Token; another site can neither read the cookie nor the answer,
 * so it cannot produce the header, and the one-way hash gives nothing of the cookie away.
 */
export function csrfTokenFor(cookieValue: string): string {
  return crypto.createHash('sha256').update(`csrf:${cookieValue}`).digest('base64url');
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0 || part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    // Our values are base64url; anything else was not set by this service.
    return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : undefined;
  }
  return undefined;
}

/** HttpOnly, SameSite=Lax, Path=/, Secure over https; without maxAge a browser-session cookie. maxAge 0 deletes. */
export function setCookie(
  reply: FastifyReply,
  name: string,
  value: string,
  options: { secure: boolean; maxAgeSeconds?: number },
): void {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('set-cookie', [...list, parts.join('; ')]);
}

export function clearCookie(reply: FastifyReply, name: string, secure: boolean): void {
  setCookie(reply, name, '', { secure, maxAgeSeconds: 0 });
}

/** What the hook needs from the web-session module. */
export type SessionBearer = {
  /** The access token of a live session (refreshed first when about to expire), or null when the session has ended. */
  bearerFor(cookieValue: string): Promise<string | null>;
};

/**
 * What routes outside the web-session module (refresh-session, sign-out) do with a session cookie; implemented
 * by modules/web-session and handed to them by app.ts.
 */
export type CookieSessionActions = {
  /** The request's session cookie, if it carries one. */
  cookieOf(request: FastifyRequest): string | undefined;
  /** The CSRF rule of state changes (assertCsrf), for the public routes that take the cookie themselves. */
  assertCsrf(request: FastifyRequest, cookie: string): void;
  /**
   * Renews the session's tokens now, on the server; null when the session has ended. Answers how long the new
   * access token lives, never the token: page script must not hold a portable one.
   */
  refreshNow(cookie: string): Promise<{ expiry: number; rememberMe: boolean } | null>;
  /** Answers 401 SESSION_EXPIRED and deletes the cookie. */
  expired(reply: FastifyReply): FastifyReply;
  /** Ends the session and deletes the cookie; answers the URL that completes logout. */
  logout(cookie: string, reply: FastifyReply): Promise<{ logoutUrl: string }>;
};

declare module 'fastify' {
  interface FastifyRequest {
    /** The web-session cookie this request was authenticated with (null: a bearer header, or no session). */
    webSessionCookie: string | null;
  }
  interface FastifyContextConfig {
    /**
     * A GET that changes something (branding reset, template use, a new TOTP secret): with the cookie it needs the
     * CSRF token like any other state change. SameSite=Lax sends the cookie on another site's links and redirects.
     */
    writes?: true;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Turns a session cookie into a bearer token, before the authentication hook (register this first). For every
 * route but the public ones (which judge a cookie themselves, if at all):
 * 1. a request with an Authorization header passes untouched (guest and client tokens);
 * 2. a cookie of a live session injects `Authorization: Bearer <access token>`; a state change (not GET, HEAD,
 *    OPTIONS, or a route declared `config.writes`: a GET that writes) must then carry the session's X-CSRF-Token,
 *    come from no other site (Sec-Fetch-Site) and, when the browser sends Origin, from PUBLIC_URL's;
 * 3. a cookie of an ended session (logged out, past its maximum lifetime, refresh refused, unknown) answers
 *    401 {error, code: "SESSION_EXPIRED"} and deletes the cookie.
 * `sessions` is read per request, so app.ts can create the web-session service after the plumbing.
 */
export function registerSessionCookie(
  app: FastifyInstance,
  options: { secure: boolean; publicUrl: string; sessions: () => SessionBearer },
): void {
  const names = cookieNames(options.secure);
  const publicOrigin = new URL(options.publicUrl).origin;
  app.decorateRequest('webSessionCookie', null);

  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.authorization !== undefined) return;
    const policy = request.routeOptions.config?.auth;
    // Public routes judge a cookie themselves, if at all; the operator's API takes ADMIN_TOKEN alone.
    if (!policy || policy === 'public' || policy === 'operator') return;
    const cookie = readCookie(request, names.session);
    if (!cookie) return;
    if (!SAFE_METHODS.has(request.method) || request.routeOptions.config?.writes)
      assertCsrf(request, cookie, publicOrigin);
    const accessToken = await options.sessions().bearerFor(cookie);
    if (accessToken === null) {
      clearCookie(reply, names.session, options.secure);
      return reply.status(401).type('application/json').send(SESSION_EXPIRED_JSON);
    }
    request.headers.authorization = `Bearer ${accessToken}`;
    request.webSessionCookie = cookie;
  });
}

/** The CSRF rule of cookie-authenticated state changes (also used by the /bff/auth routes that take the cookie). */
export function assertCsrf(request: FastifyRequest, cookie: string, publicOrigin: string): void {
  // The token alone decides for browsers that send no fetch metadata; one that says cross-site is refused outright.
  if (request.headers['sec-fetch-site'] === 'cross-site')
    throw new AppError('CSRF_TOKEN_INVALID', 'Cross-site request');
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== publicOrigin)
    throw new AppError('CSRF_TOKEN_INVALID', `Cross-origin request from ${origin.slice(0, 100)}`);
  const sent = request.headers[CSRF_HEADER];
  const expected = csrfTokenFor(cookie);
  if (
    typeof sent !== 'string' ||
    sent.length !== expected.length ||
    !crypto.timingSafeEqual(Buffer.from(sent), Buffer.from(expected))
  ) {
    throw new AppError('CSRF_TOKEN_INVALID');
  }
}
