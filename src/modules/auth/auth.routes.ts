import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { AuthService } from './auth.service.ts';
import type { SsoService } from './sso.service.ts';
import type { CookieSessionActions } from '../../http/session-cookie.ts';
import {
  CookieRefreshResponse,
  ResendVerificationResponse,
  SessionExpiredResponse,
  SessionResponse,
  SigninBody,
  SignoutBody,
  SignoutResponse,
  SignupBody,
  SignupResponse,
  TwoFactorChallenge,
  VerifyEmailBody,
  VerifyEmailParams,
  VerifyEmailResponse,
} from './auth.schemas.ts';
import { EMAIL_VERIFICATION_DAYS } from './email-verification.ts';
import { verificationResponse, wantsHtml } from './verification-page.ts';

const error = Type.Ref('ErrorResponse');

const SIGNIN_DESCRIPTION = [
  'Direct bearer sign-in (the API specification Authentication §2). Fields by grant_type:',
  'PASSWORD: username (email), password, optional rememberMe. When the account has two-factor sign-in, a correct password answers 202 with a TwoFactorChallenge and no token; re-post with G_AUTHENTICATOR.',
  'G_AUTHENTICATOR: username, password, tOtp (a code is accepted once per 30-second step, one step of clock drift either way; wrong or reused: 401 INVALID_TOTP; account without two-factor: 400 OPERATION_IS_NOT_ALLOWED).',
  'REFRESH_TOKEN: refreshToken; answers a new pair and the old refresh token stops working. Presenting an already-rotated token revokes the whole session family (401 INVALID_REFRESH_TOKEN).',
  "CLIENT_CREDENTIALS: client_id, client_secret, email; the business app must be enabled and belong to an organization the user is an active member of; otherwise 401 INVALID_CLIENT. The token has type CLIENT, appId and the app's organizationId.",
  "IDP_AUTH: idToken (the social provider's ID token), optional nonce and rememberMe. Only when IDP_ISSUER is set (app settings sso.enableIdpAuth true; otherwise 400 OPERATION_IS_NOT_ALLOWED). " +
    "The token must be signed by a key of the issuer's JWKS (no alg none, no HMAC), name IDP_ISSUER as iss and IDP_CLIENT_ID as aud, be unexpired (30 s clock tolerance), carry the nonce when one is given, " +
    'and a verified email (email_verified true); each token is accepted once. Anything else: 401 IDP_TOKEN_INVALID. The account is matched by that email (see GET /auth/v1/signin).',
  'Wrong username or password, an unknown user and a guest user (no password) all answer 401 INVALID_CREDENTIALS. A missing field of the grant or an unknown grant_type: 400 BAD_REQUEST_BODY.',
  'Sign-in limits (the runtime contract "Accounts"): failed password and TOTP checks are counted per account (the username, registered or not) and per client address. ' +
    'After 10 failures for one account, or 100 from one address, within 15 minutes, PASSWORD and G_AUTHENTICATOR answer 401 ACCOUNT_TEMPORARILY_LOCKED with a ' +
    'Retry-After header (seconds), even for the right credentials, until 15 minutes after the last failure. The account owner is mailed once per lock. ' +
    "A completed sign-in clears the account's count (not the address's).",
  'Sessions: access tokens live 900 seconds (less when the session ends sooner). A session (one sign-in and all its refreshes) ends 12 hours after ' +
    'sign-in, or 30 days with rememberMe, however often it is refreshed; CLIENT sessions 12 hours. Each refresh token also expires after 1 day unused ' +
    '(30 days with rememberMe).',
].join('\n\n');

const VERIFY_DESCRIPTION =
  `Sign-up mails the link $PUBLIC_URL/verify-email/<code>; the code works for ${EMAIL_VERIFICATION_DAYS} days and only for that account's address ` +
  "(a later code would replace it). Verifying is what lets the account reach workflows that others addressed to its email (and a former guest's " +
  'history); before that they open only through their signing links. Using a code again within its lifetime answers the same. ' +
  'Garbage, unknown, replaced or expired code: 400 LINK_EXPIRED.';

/**
 * `sso` takes IDP_AUTH; `cookieSessions` lets refresh-session and sign-out act on a web session (the cookie)
 * as they act on bearer tokens.
 */
export function authRoutes(
  auth: AuthService,
  sso: SsoService,
  cookieSessions: CookieSessionActions,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/auth/v1/signup',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Create an account and its organization',
          description:
            'Creates a registered user and an organization it owns, on the default preset package with its credits, and mails a verification ' +
            'link ($PUBLIC_URL/verify-email/<code>, see POST /auth/v1/verify-email). The account can sign in and work on its own workflows at once; ' +
            'workflows that others address to its email stay reachable only through their signing links until the address is verified. ' +
            'An email held by a registered user (verified or not): 409 EMAIL_ALREADY_REGISTERED. An email held only by a guest user (a past recipient) ' +
            "turns that guest into the account, keeping its id; the guest's history becomes visible to the account once the address is verified. " +
            'SIGNUP_ENABLED=false: 403 SIGNUP_DISABLED (before the body is checked).',
          body: SignupBody,
          response: { 201: SignupResponse, 400: error, 403: error, 409: error },
          security: [],
        },
        config: { auth: 'public' },
        // onRequest runs before the body is parsed, so a closed sign-up says so even to a malformed body.
        onRequest: async () => {
          if (!auth.signupEnabled()) throw new AppError('SIGNUP_DISABLED');
        },
      },
      async (request, reply) => reply.status(201).send(await auth.signup(request.body, request.ip)),
    );

    app.post(
      '/auth/v1/signin',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Sign in: password, two-factor, refresh token or client credentials',
          description: SIGNIN_DESCRIPTION,
          body: SigninBody,
          response: { 200: SessionResponse, 202: TwoFactorChallenge, 400: error, 401: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const { body } = request;
        if (body.grant_type === 'IDP_AUTH')
          return sso.socialSignin(body.idToken, body.nonce, body.rememberMe ?? false, request.ip);
        const result = await auth.signin(body, request.ip);
        if (result.kind === 'totp-required') {
          return reply.status(202).send({
            tOtpRequired: true,
            grantType: 'G_AUTHENTICATOR',
            message: 'Two-factor code required: sign in with grant_type G_AUTHENTICATOR and tOtp',
          });
        }
        return result.session;
      },
    );

    app.post(
      '/auth/v1/verify-email',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Verify the address of an account with the code from the sign-up mail',
          description: VERIFY_DESCRIPTION,
          body: VerifyEmailBody,
          response: { 200: VerifyEmailResponse, 400: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request) => auth.verifyEmail(request.body.code),
    );

    app.post(
      '/auth/v1/verify-email/resend',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Mail a new verification link to the signed-in account',
          description:
            "No body. Mails a new link $PUBLIC_URL/verify-email/<code> to the account's address; the earlier code stops working. " +
            'At most 5 a day beyond the sign-up mail (then 429 VERIFICATION_MAIL_LIMIT_REACHED with Retry-After). An address already verified is not mailed: ' +
            '{verified: true, mailed: false}.',
          response: { 200: ResendVerificationResponse, ...errorResponses, 429: Type.Ref('ErrorResponse') },
        },
        config: { auth: 'user' },
      },
      async (request) => auth.resendVerification(userOf(request)),
    );

    app.get(
      '/verify-email/:code',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'The mailed verification link',
          description:
            `${VERIFY_DESCRIPTION} Public page: a browser (Accept naming text/html) gets the web app's confirmation page (200, or 400 for a code that does not verify) ` +
            'without using the code: the page confirms with POST /auth/v1/verify-email when the person presses "Confirm my address", because mail scanners ' +
            'open every link in a mail and must not verify an address someone else signed up with; it offers a signed-in user a new link when the code ' +
            'is dead. Any other client gets JSON {verified: true} (the code is used) or the LINK_EXPIRED error body.',
          params: VerifyEmailParams,
          produces: ['text/html', 'application/json'],
          response: {
            200: {
              description: 'Verified',
              content: { 'text/html': { schema: Type.String() }, 'application/json': { schema: VerifyEmailResponse } },
            },
            400: {
              description: 'The code does not verify',
              content: { 'text/html': { schema: Type.String() }, 'application/json': { schema: error } },
            },
          },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        if (!wantsHtml(request.headers.accept))
          return reply.type('application/json').send(await auth.verifyEmail(request.params.code));
        // Asked, not used: the page confirms only when the person presses its button (a scanner's GET changes nothing).
        const live = await auth.verificationCodeIsLive(request.params.code);
        const page = verificationResponse(live ? 'confirm' : 'expired');
        return reply
          .status(live ? 200 : 400)
          .headers(page.headers)
          .type('text/html; charset=utf-8')
          .send(page.html);
      },
    );

    app.get(
      '/auth/v1/refresh-session',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Exchange a refresh token for a new pair',
          description:
            'Send the refresh token (not the access token) as Authorization: Bearer <refreshToken>. Same rotation rules as grant_type REFRESH_TOKEN: ' +
            'the presented token stops working; presenting it again revokes the whole session family. Missing header: 401 UNAUTHORIZED; ' +
            'unknown, expired, revoked or reused token: 401 INVALID_REFRESH_TOKEN. ' +
            'Without an Authorization header, the web session cookie is used instead, with X-CSRF-Token as for any cookie call that writes (403 ' +
            'CSRF_TOKEN_INVALID otherwise): its tokens are renewed now on the server and the answer is {expiry, rememberMe}, no token (page script never ' +
            'holds one); an ended session answers 401 {error, code: "SESSION_EXPIRED"}.',
          response: {
            200: Type.Union([SessionResponse, CookieRefreshResponse]),
            401: Type.Union([error, SessionExpiredResponse]),
            403: error,
          },
          security: [{ bearer: [] }],
        },
        // The bearer here is a refresh token, not an access token, so the authentication hook must not judge it (nor
        // the cookie hook: this handler checks the CSRF token of a cookie call itself).
        config: { auth: 'public', writes: true },
      },
      async (request, reply) => {
        const cookie = request.headers.authorization === undefined ? cookieSessions.cookieOf(request) : undefined;
        if (cookie) {
          cookieSessions.assertCsrf(request, cookie);
          const renewed = await cookieSessions.refreshNow(cookie);
          if (!renewed) return cookieSessions.expired(reply);
          return renewed;
        }
        const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
        if (!match)
          throw new AppError('UNAUTHORIZED', 'A refresh token is required as Authorization: Bearer <refreshToken>');
        if (match[1].length > 512) throw new AppError('INVALID_REFRESH_TOKEN');
        return auth.refresh(match[1]);
      },
    );

    app.post(
      '/auth/v1/signout',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Sign out: revoke refresh tokens',
          description:
            'With a USER token: revokes every USER refresh token of the account (all devices). With a CLIENT token: revokes that ' +
            "business app's refresh tokens for the user. Optional body {refreshToken}: that token's session family is revoked too (if it is the caller's). " +
            'Refreshing afterwards answers 401. Access tokens already issued stay valid until they expire (at most 15 minutes). ' +
            'Answers the URL that completes logout: PUBLIC_URL + "/". Called with the web session cookie (and X-CSRF-Token), it also ends that session, forgets its ' +
            "ID token, deletes the cookie and answers the identity provider's end-session URL (id_token_hint) when OIDC_ISSUER offers one.",
          body: SignoutBody,
          response: { 200: SignoutResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request, reply) => {
        const answer = await auth.signout(userOf(request), request.body?.refreshToken);
        // Signed in by the web session's cookie: that session ends too, and logout completes at its provider.
        if (request.webSessionCookie) return cookieSessions.logout(request.webSessionCookie, reply);
        return answer;
      },
    );
  };
}
