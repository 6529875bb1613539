import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { cookieNames, readCookie } from '../../http/session-cookie.ts';
import { SessionResponse, TwoFactorChallenge } from './auth.schemas.ts';
import type { SsoService } from './sso.service.ts';
import {
  OwnAuthorizeBody,
  OwnAuthorizeResponse,
  SocialQuery,
  SsoCallbackBody,
  SsoStartQuery,
  SsoStartResponse,
} from './sso.schemas.ts';

const error = Type.Ref('ErrorResponse');

const MATCHING =
  'The account is matched by the verified email of the identity: a registered account whose address is verified here signs in; ' +
  'when no account holds the email (or only a guest recipient does), the first sign-in creates the account and its organization (address verified) ' +
  'if sign-up is enabled, else 403 SSO_SIGNUP_DISABLED. A registered account whose address is not verified here: 403 SSO_EMAIL_NOT_VERIFIED ' +
  '(verify it from the sign-up mail first). An identity without a verified email: 403 SSO_EMAIL_NOT_VERIFIED.';

const LIMITS =
  'Every refused state, code or ID token counts as a failed sign-in of the client address (100 in 15 minutes lock the address: ' +
  '401 ACCOUNT_TEMPORARILY_LOCKED with Retry-After).';

/** The SSO redirect (the API specification "Other sign-in paths"), the social ID-token exchange, and the own sign-in page's authorize step. */
export function ssoRoutes(sso: SsoService, options: { secure: boolean }): FastifyPluginAsyncTypebox {
  const names = cookieNames(options.secure);
  return async (app) => {
    app.get(
      '/auth/v1/signin',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'SSO redirect: the authorization URL',
          description:
            'Starts a sign-in at the identity provider (OIDC_ISSUER; authorization code with PKCE S256 and a nonce, kept on the server). ' +
            "Without OIDC_ISSUER the URL is the service's own sign-in page, and redirectUri must then be on PUBLIC_URL's origin (400 REDIRECT_URI_NOT_ALLOWED), " +
            "since the page hands its code to that address. Without redirectUri it is $PUBLIC_URL/auth/sso/callback, the web app's page that hands code and state " +
            'to the page of this origin that opened it (window.opener, postMessage {type: "sso-callback", code, state, error}); a native client reads them from ' +
            'that redirect itself. The provider redirects to redirectUri with code and state; post them to ' +
            'POST /auth/v1/signin/callback within 10 minutes. The state is single use. One client address starts at most 100 sign-ins within 15 minutes ' +
            '(this and GET /bff/auth/authorize together): beyond, 429 LOGIN_STATE_LIMIT_REACHED with Retry-After.',
          querystring: SsoStartQuery,
          response: { 200: SsoStartResponse, 400: error, 429: error, 503: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request) =>
        sso.ssoStart(
          { redirectUri: request.query.redirectUri, rememberMe: request.query.rememberMe ?? false },
          request.ip,
        ),
    );

    app.post(
      '/auth/v1/signin/callback',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'SSO redirect: exchange the code for a session',
          description:
            'Answers as password sign-in. The state must be one this service issued, unused, at most 10 minutes old, started for this same redirectUri ' +
            '(the same default when both omit it; else 400 LOGIN_STATE_INVALID); the state is used up even when the code is then refused. The code is exchanged at the provider with the PKCE ' +
            "verifier; the ID token's signature, issuer, audience, expiry and nonce are checked (else 401 SSO_CODE_INVALID). " +
            MATCHING +
            ' ' +
            LIMITS,
          body: SsoCallbackBody,
          response: { 200: SessionResponse, 400: error, 401: error, 403: error, 503: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request) => sso.ssoCallback(request.body, request.ip),
    );

    app.get(
      '/auth/v1/signin/social/idp',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Social sign-in with an ID token',
          description:
            'Only when IDP_ISSUER is set (app settings sso.enableIdpAuth true; otherwise 400 OPERATION_IS_NOT_ALLOWED). Same checks as grant IDP_AUTH: ' +
            "signature by a key of the issuer's JWKS (no alg none), iss IDP_ISSUER, aud IDP_CLIENT_ID, unexpired, the nonce when given, email_verified; each token " +
            'is accepted once. Anything else: 401 IDP_TOKEN_INVALID. Answers as password sign-in. ' +
            MATCHING +
            ' ' +
            LIMITS,
          querystring: SocialQuery,
          response: { 200: SessionResponse, 400: error, 401: error, 403: error, 503: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request) =>
        sso.socialSignin(request.query.ott, request.query.nonce, request.query.rememberMe ?? false, request.ip),
    );

    app.post(
      '/auth/v1/signin/authorize',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'The own sign-in page: check credentials, get the code',
          description:
            "Used by the service's own sign-in page (/signin?state=...) when OIDC_ISSUER is unset (otherwise 400 OPERATION_IS_NOT_ALLOWED). " +
            'PASSWORD (username, password): a correct password on an account with two-factor sign-in answers 202 and the page re-posts with G_AUTHENTICATOR ' +
            'and tOtp. REFRESH_TOKEN: a fresh refresh token from another sign-in API (passkey, smart card) hands that sign-in over; it is rotated and revoked. ' +
            "Answers {redirectUrl}: the sign-in's redirect URI with a code valid for 60 seconds and the state. A web-session state also needs the " +
            'short-lived sign-in cookie of the browser that started it. Unknown, expired, used or foreign state: 400 LOGIN_STATE_INVALID. ' +
            'Password and TOTP failures count as for POST /auth/v1/signin (401 INVALID_CREDENTIALS, INVALID_TOTP, ACCOUNT_TEMPORARILY_LOCKED).',
          body: OwnAuthorizeBody,
          response: { 200: OwnAuthorizeResponse, 202: TwoFactorChallenge, 400: error, 401: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request, reply) => {
        const { state, rememberMe, ...grant } = request.body;
        const result = await sso.authorizeOwn(
          { state, bindingValue: readCookie(request, names.login), body: grant, rememberMe: rememberMe ?? false },
          request.ip,
        );
        if (result.kind === 'totp-required') {
          return reply.status(202).send({
            tOtpRequired: true,
            grantType: 'G_AUTHENTICATOR',
            message: 'Two-factor code required: post again with grant_type G_AUTHENTICATOR and tOtp',
          });
        }
        return { redirectUrl: result.redirectUrl };
      },
    );
  };
}
