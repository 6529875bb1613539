import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.ts';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { AuthService } from './auth.service.ts';
import { SessionResponse, SigninBody, SignoutBody, SignoutResponse, SignupBody, SignupResponse, TwoFactorChallenge } from './auth.schemas.ts';

const error = Type.Ref('ErrorResponse');

const SIGNIN_DESCRIPTION = [
  'Direct bearer sign-in (SPEC.md Authentication §2). Fields by grant_type:',
  'PASSWORD: username (email), password, optional rememberMe. When the account has two-factor sign-in, a correct password answers 202 with a TwoFactorChallenge and no token; re-post with G_AUTHENTICATOR.',
  'G_AUTHENTICATOR: username, password, tOtp (a code is accepted once per 30-second step, one step of clock drift either way; wrong or reused: 401 INVALID_TOTP; account without two-factor: 400 OPERATION_IS_NOT_ALLOWED).',
  'REFRESH_TOKEN: refreshToken; answers a new pair and the old refresh token stops working. Presenting an already-rotated token revokes the whole session family (401 INVALID_REFRESH_TOKEN).',
  'CLIENT_CREDENTIALS: client_id, client_secret, email; the business app must be enabled and belong to an organization the user is an active member of; otherwise 401 INVALID_CLIENT. The token has type CLIENT, appId and the app\'s organizationId.',
  'IDP_AUTH: 400 OPERATION_IS_NOT_ALLOWED (IDP sign-in is off: app settings sso.enableIdpAuth is false).',
  'Wrong username or password, an unknown user and a guest user (no password) all answer 401 INVALID_CREDENTIALS. A missing field of the grant or an unknown grant_type: 400 BAD_REQUEST_BODY.',
  'Access tokens live 900 seconds; refresh tokens 1 day, or 30 days with rememberMe.',
].join('\n\n');

export function authRoutes(auth: AuthService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/auth/v1/signup', {
      schema: {
        tags: ['Authentication'],
        summary: 'Create an account and its organization',
        description: 'Creates a registered user and an organization it owns, on the default preset package with its credits. '
          + 'An email held by a registered user: 409 EMAIL_ALREADY_REGISTERED. An email held only by a guest user (a past recipient) '
          + 'turns that guest into the account, keeping its id and history. SIGNUP_ENABLED=false: 403 SIGNUP_DISABLED (before the body is checked).',
        body: SignupBody,
        response: { 201: SignupResponse, 400: error, 403: error, 409: error },
        security: [],
      },
      config: { auth: 'public' },
      // onRequest runs before the body is parsed, so a closed sign-up says so even to a malformed body.
      onRequest: async () => {
        if (!auth.signupEnabled()) throw new AppError('SIGNUP_DISABLED');
      },
    }, async (request, reply) => reply.status(201).send(await auth.signup(request.body)));

    app.post('/auth/v1/signin', {
      schema: {
        tags: ['Authentication'],
        summary: 'Sign in: password, two-factor, refresh token or client credentials',
        description: SIGNIN_DESCRIPTION,
        body: SigninBody,
        response: { 200: SessionResponse, 202: TwoFactorChallenge, 400: error, 401: error },
        security: [],
      },
      config: { auth: 'public' },
    }, async (request, reply) => {
      const result = await auth.signin(request.body);
      if (result.kind === 'totp-required') {
        return reply.status(202).send({ tOtpRequired: true, grantType: 'G_AUTHENTICATOR', message: 'Two-factor code required: sign in with grant_type G_AUTHENTICATOR and tOtp' });
      }
      return result.session;
    });

    app.get('/auth/v1/refresh-session', {
      schema: {
        tags: ['Authentication'],
        summary: 'Exchange a refresh token for a new pair',
        description: 'Send the refresh token (not the access token) as Authorization: Bearer <refreshToken>. Same rotation rules as grant_type REFRESH_TOKEN: '
          + 'the presented token stops working; presenting it again revokes the whole session family. Missing header: 401 UNAUTHORIZED; '
          + 'unknown, expired, revoked or reused token: 401 INVALID_REFRESH_TOKEN.',
        response: { 200: SessionResponse, 401: error },
        security: [{ bearer: [] }],
      },
      // The bearer here is a refresh token, not an access token, so the authentication hook must not judge it.
      config: { auth: 'public' },
    }, async (request) => {
      const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      if (!match) throw new AppError('UNAUTHORIZED', 'A refresh token is required as Authorization: Bearer <refreshToken>');
      if (match[1].length > 512) throw new AppError('INVALID_REFRESH_TOKEN');
      return auth.refresh(match[1]);
    });

    app.post('/auth/v1/signout', {
      schema: {
        tags: ['Authentication'],
        summary: 'Sign out: revoke refresh tokens',
        description: 'With a USER token: revokes every USER refresh token of the account (all devices). With a CLIENT token: revokes that '
          + "business app's refresh tokens for the user. Optional body {refreshToken}: that token's session family is revoked too (if it is the caller's). "
          + 'Refreshing afterwards answers 401. Access tokens already issued stay valid until they expire (at most 15 minutes). '
          + 'Answers the URL that completes logout: PUBLIC_URL + "/".',
        body: SignoutBody,
        response: { 200: SignoutResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    }, async (request) => auth.signout(userOf(request), request.body?.refreshToken));
  };
}
