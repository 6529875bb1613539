import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import { SessionResponse } from '../auth/auth.schemas.ts';
import type { PasskeyService } from './passkeys.service.ts';
import {
  AssertionBody,
  CreationOptions,
  LoginOptionsQuery,
  LoginVerifyQuery,
  PasskeyIdParams,
  PasskeyListItem,
  PasskeyResponse,
  RegistrationBody,
  RequestOptions,
  toPasskeyListItem,
  toPasskeyResponse,
} from './passkeys.schemas.ts';

const error = Type.Ref('ErrorResponse');
const OWN_SESSION = 'Business-app (CLIENT) tokens: 403.';

export function passkeyRoutes(passkeys: PasskeyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['User settings'];

    app.post(
      '/user/v1/settings/passkeys/options',
      {
        schema: {
          tags,
          summary: 'Start registering a passkey: WebAuthn creation options',
          description:
            'Answers PublicKeyCredentialCreationOptionsJSON for navigator.credentials.create(): attestation none, user verification ' +
            "required, the user's passkeys as excludeCredentials. The challenge is single use and valid 5 minutes. " +
            OWN_SESSION,
          response: { 200: CreationOptions, ...errorResponses },
        },
        config: { auth: 'person' },
      },
      async (request) => passkeys.registrationOptions(userOf(request)),
    );

    app.post(
      '/user/v1/settings/passkeys',
      {
        schema: {
          tags,
          summary: 'Register a passkey',
          description:
            'Takes the RegistrationResponseJSON of navigator.credentials.create() (plus an optional name) answering the options ' +
            "of this user. The origin must be PUBLIC_URL's, the RP id WEBAUTHN_RP_ID, the challenge one issued to this user, unused and under " +
            '5 minutes old, and the authenticator must have verified its user: otherwise 400 PASSKEY_REGISTRATION_FAILED (the challenge is used ' +
            'up either way). A credential already registered: 409 PASSKEY_ALREADY_REGISTERED. At most 20 passkeys: 400 PASSKEY_LIMIT_REACHED. ' +
            OWN_SESSION,
          body: RegistrationBody,
          response: { 200: PasskeyResponse, ...errorResponses, 409: error },
        },
        config: { auth: 'person' },
      },
      async (request) => toPasskeyResponse(await passkeys.register(userOf(request), request.body)),
    );

    app.get(
      '/user/v1/settings/passkeys',
      {
        schema: {
          tags,
          summary: "The caller's passkeys",
          description: 'Oldest first.',
          response: { 200: Type.Array(PasskeyListItem), ...errorResponses },
        },
        config: { auth: 'person' },
      },
      async (request) => (await passkeys.list(userOf(request))).map(toPasskeyListItem),
    );

    app.delete(
      '/user/v1/settings/passkeys/:id',
      {
        schema: {
          tags,
          summary: 'Remove a passkey',
          description: `Only the caller's own (404 otherwise). It can no longer sign in. Answers 204. ${OWN_SESSION}`,
          params: PasskeyIdParams,
          response: { 204: Type.Null(), ...errorResponses },
        },
        config: { auth: 'person' },
      },
      async (request, reply) => {
        await passkeys.remove(userOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/auth/webauthn/login/options',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Passkey sign-in, step 1: WebAuthn request options',
          description:
            'Answers PublicKeyCredentialRequestOptionsJSON for navigator.credentials.get() with the passkeys of the account whose ' +
            'email is username (none for an unknown account: the answer does not say whether it exists). User verification required; the ' +
            'challenge is single use and valid 5 minutes. At most 100 challenges (passkey and smart card together) per client address in ' +
            '15 minutes: then 429 CHALLENGE_RATE_LIMITED with Retry-After.',
          querystring: LoginOptionsQuery,
          response: { 200: RequestOptions, 400: error, 429: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request) => passkeys.loginOptions(request.query.username, request.ip),
    );

    app.post(
      '/auth/webauthn/login/verify',
      {
        schema: {
          tags: ['Authentication'],
          summary: 'Passkey sign-in, step 2: verify the assertion',
          description:
            'Takes the AuthenticationResponseJSON of navigator.credentials.get() and answers the password-login shape (a USER ' +
            "session; rememberMe: 30 days instead of 12 hours). The account's two-factor setting does not apply: the passkey with user " +
            "verification is itself two factors. Anything that does not verify (unknown account or credential, origin other than PUBLIC_URL's, " +
            'RP id, a challenge not issued for this username, expired or already used, signature, a counter that did not move forward) is 401 ' +
            'PASSKEY_REJECTED and counts against the sign-in limits (10 per account, 100 per address in 15 minutes; then 401 ' +
            'ACCOUNT_TEMPORARILY_LOCKED with Retry-After).',
          querystring: LoginVerifyQuery,
          body: AssertionBody,
          response: { 200: SessionResponse, 400: error, 401: error },
          security: [],
        },
        config: { auth: 'public' },
      },
      async (request) =>
        passkeys.login(request.query.username, request.body, request.ip, request.query.rememberMe ?? false),
    );
  };
}
