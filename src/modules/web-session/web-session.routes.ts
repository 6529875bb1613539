import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import {
  assertCsrf,
  clearCookie,
  cookieNames,
  readCookie,
  SESSION_EXPIRED_JSON,
  setCookie,
  type CookieSessionActions,
} from '../../http/session-cookie.ts';
import { LOGIN_STATE_SECONDS } from '../auth/sso.service.ts';
import {
  AuthorizeQuery,
  CallbackQuery,
  LogoutResponse,
  MeResponse,
  Redirect,
  SessionExpired,
} from './web-session.schemas.ts';
import type { WebSessionService } from './web-session.service.ts';

const error = Type.Ref('ErrorResponse');

type Options = { secure: boolean; publicUrl: string };

const COOKIE_RULES =
  'The session cookie is HttpOnly, SameSite=Lax, Path=/, Secure (and __Host- prefixed) when PUBLIC_URL is https; with rememberMe it ' +
  'lasts until the session ends (30 days), otherwise it is a browser-session cookie and the session ends after 12 hours. Other routes accept the cookie ' +
  'in place of a bearer token (a request with an Authorization header ignores it) and never hand page script a token; a state change made with the ' +
  'cookie (every method but GET, HEAD and OPTIONS, and the GETs that write: branding reset, template use, generateQR, refresh-session) needs ' +
  "X-CSRF-Token (from GET /bff/auth/me), no Sec-Fetch-Site: cross-site and, when the browser sends Origin, PUBLIC_URL's origin: else 403 " +
  'CSRF_TOKEN_INVALID. An ended session answers 401 {error, code: "SESSION_EXPIRED"}.';

/** the API specification Authentication §1: the web session's own endpoints. */
export function webSessionRoutes(sessions: WebSessionService, options: Options): FastifyPluginAsyncTypebox {
  const names = cookieNames(options.secure);
  const publicOrigin = new URL(options.publicUrl).origin;
  const actions = cookieSessionActions(sessions, options);
  return async (app) => {
    app.get(
      '/bff/auth/authorize',
      {
        schema: {
          tags: ['Web session'],
          summary: 'Start web sign-in: redirect to the identity provider',
          description:
            "Redirects (302) to the identity provider (OIDC_ISSUER: authorization code, PKCE S256, nonce, state), or to the service's own sign-in page " +
            `/signin?state=... when none is configured. Sets a short-lived (${LOGIN_STATE_SECONDS / 60} minutes) HttpOnly cookie that ties the callback to this browser. ` +
            COOKIE_RULES,
          querystring: AuthorizeQuery,
          response: { 302: Redirect, 400: error, 503: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const { idpHint, rememberMe, returnTo } = request.query;
        const started = await sessions.authorize({ idpHint, rememberMe: rememberMe ?? false, returnTo }, request.ip);
        setCookie(reply, names.login, started.binding, { secure: options.secure, maxAgeSeconds: LOGIN_STATE_SECONDS });
        return reply.header('cache-control', 'no-store').redirect(started.redirectUrl, 302);
      },
    );

    app.get(
      '/bff/auth/callback',
      {
        schema: {
          tags: ['Web session'],
          summary: 'Web sign-in callback: create the session, redirect into the app',
          description:
            'The provider (or the own sign-in page) redirects here with code and state. The state must be unused, at most 10 minutes old and started in this ' +
            'browser (its sign-in cookie), else 400 LOGIN_STATE_INVALID; the code is exchanged with the PKCE verifier and the ID token checked (401 SSO_CODE_INVALID). ' +
            "The account is matched by verified email as for POST /auth/v1/signin/callback. Stores the session's tokens on the server, sets the session cookie and " +
            'redirects (302) to the returnTo path given at authorize (default /). ' +
            COOKIE_RULES,
          querystring: CallbackQuery,
          response: { 302: Redirect, 400: error, 401: error, 403: error, 503: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const query = request.query as Record<string, string | undefined>;
        const binding = readCookie(request, names.login);
        // The sign-in cookie is kept after a refused callback: a forged link opened by the user must not break their own sign-in.
        const created = await sessions.callback({ params: query, binding }, request.ip);
        clearCookie(reply, names.login, options.secure);
        setCookie(reply, names.session, created.cookie, {
          secure: options.secure,
          maxAgeSeconds: created.maxAgeSeconds,
        });
        return reply.header('cache-control', 'no-store').redirect(created.returnTo, 302);
      },
    );

    app.get(
      '/bff/auth/me',
      {
        schema: {
          tags: ['Web session'],
          summary: 'The signed-in identity of the web session',
          description:
            'No session cookie: 401 UNAUTHORIZED (standard body). A cookie of an ended session (logged out, past its maximum lifetime, refresh refused): ' +
            '401 {error, code: "SESSION_EXPIRED"}, and the cookie is deleted. Also answers the session\'s CSRF token.',
          response: { 200: MeResponse, 401: Type.Union([error, SessionExpired]) },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const cookie = readCookie(request, names.session);
        if (!cookie) throw new AppError('UNAUTHORIZED', 'No web session: sign in at /bff/auth/authorize');
        const identity = await sessions.me(cookie);
        if (!identity) return actions.expired(reply);
        return reply.header('cache-control', 'no-store').send(identity);
      },
    );

    app.post(
      '/bff/auth/logout',
      {
        schema: {
          tags: ['Web session'],
          summary: 'End the web session',
          description:
            'Needs X-CSRF-Token (403 CSRF_TOKEN_INVALID otherwise). Ends the session on every instance (its refresh tokens are revoked, its ID token ' +
            "forgotten), deletes the cookie and answers the URL that completes logout: the provider's end-session URL (with id_token_hint) when OIDC_ISSUER offers " +
            'one, else PUBLIC_URL + "/". Without a cookie, or for a session that has already ended: PUBLIC_URL + "/".',
          response: { 200: LogoutResponse, 403: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const cookie = readCookie(request, names.session);
        if (!cookie) return { logoutUrl: `${options.publicUrl}/` };
        assertCsrf(request, cookie, publicOrigin);
        clearCookie(reply, names.session, options.secure);
        return sessions.logout(cookie);
      },
    );
  };
}

/** What refresh-session and sign-out (auth module) do with a session cookie. */
export function cookieSessionActions(sessions: WebSessionService, options: Options): CookieSessionActions {
  const names = cookieNames(options.secure);
  const publicOrigin = new URL(options.publicUrl).origin;
  return {
    cookieOf: (request) => readCookie(request, names.session),
    assertCsrf: (request, cookie) => assertCsrf(request, cookie, publicOrigin),
    refreshNow: (cookie) => sessions.refreshNow(cookie),
    expired(reply) {
      clearCookie(reply, names.session, options.secure);
      return reply.status(401).type('application/json').send(SESSION_EXPIRED_JSON);
    },
    async logout(cookie, reply) {
      clearCookie(reply, names.session, options.secure);
      return sessions.logout(cookie);
    },
  };
}
