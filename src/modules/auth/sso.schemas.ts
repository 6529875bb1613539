import { Type } from 'typebox';
import { TotpCode } from '../users/users.schemas.ts';
import { EMAIL_MAX, ID_TOKEN_MAX, PASSWORD_LIMITS } from './auth.schemas.ts';

/** States, codes and redirect URIs are bounded so nobody can make the service hash or store megabytes. */
const State = Type.String({
  minLength: 1,
  maxLength: 256,
  description: 'The state of the sign-in, as the authorization URL carried it',
});
/** RUNTIME.md "Request shapes": without a redirectUri the sign-in returns to the web app's page that hands code and state on. */
export const SSO_CALLBACK_PATH = '/auth/sso/callback';
const OptionalRedirectUri = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 2048,
    description: `Absolute URL the authorization server sends the code to; default $PUBLIC_URL${SSO_CALLBACK_PATH}`,
  }),
);

export const SsoStartQuery = Type.Object({
  redirectUri: OptionalRedirectUri,
  rememberMe: Type.Optional(Type.Boolean({ description: 'The session lives 30 days instead of 12 hours' })),
});

export const SsoStartResponse = Type.Object({
  authorizationUrl: Type.String({
    description: "Open this in a browser: the provider's authorization URL (or the service's own sign-in page)",
  }),
  state: Type.String({ description: 'Comes back with the code; post both to /auth/v1/signin/callback' }),
  expiresAt: Type.String({
    format: 'date-time',
    description: 'The sign-in must be completed before this (10 minutes)',
  }),
});

export const SsoCallbackBody = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 2048 }),
  state: State,
  redirectUri: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 2048,
      description: `The redirectUri the sign-in was started with; default $PUBLIC_URL${SSO_CALLBACK_PATH}, as at the start`,
    }),
  ),
  iss: Type.Optional(
    Type.String({
      maxLength: 2048,
      description: 'The iss parameter of the authorization response (RFC 9207), when the client has it',
    }),
  ),
});

export const SocialQuery = Type.Object({
  ott: Type.String({ minLength: 1, maxLength: ID_TOKEN_MAX, description: "The social identity provider's ID token" }),
  nonce: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'When given, the ID token must carry this nonce' }),
  ),
  rememberMe: Type.Optional(Type.Boolean()),
});

export const OWN_GRANTS = ['PASSWORD', 'G_AUTHENTICATOR', 'REFRESH_TOKEN'] as const;

export const OwnAuthorizeBody = Type.Object({
  state: State,
  grant_type: Type.Enum(OWN_GRANTS, {
    description:
      'PASSWORD, G_AUTHENTICATOR (with tOtp), or REFRESH_TOKEN (a fresh refresh token from another sign-in API: a passkey, a smart card)',
  }),
  username: Type.Optional(Type.String({ minLength: 1, maxLength: EMAIL_MAX })),
  password: Type.Optional(Type.String({ minLength: 1, maxLength: PASSWORD_LIMITS.max })),
  tOtp: Type.Optional(TotpCode),
  refreshToken: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  rememberMe: Type.Optional(
    Type.Boolean({
      description: 'Keep the session (and its cookie) for 30 days instead of 12 hours and the browser session',
    }),
  ),
});

export const OwnAuthorizeResponse = Type.Object({
  redirectUrl: Type.String({
    description: 'Where the browser continues: the callback of the sign-in, with code and state',
  }),
});
