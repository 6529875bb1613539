import { Type, type Static } from 'typebox';
import { TotpCode } from '../users/users.schemas.ts';
import { PERSON_NAME_PATTERN, PERSON_NAME_RULE } from '../users/person-names.ts';

/** A JWT of the social provider; real ones are 1-2 KB. */
export const ID_TOKEN_MAX = 8192;
export const NAME_LIMITS = { min: 3, max: 20 } as const;
export const EMAIL_MAX = 255;
/** At least 8 (the runtime contract); at most 128, so nobody can make the server hash megabytes. */
export const PASSWORD_LIMITS = { min: 8, max: 128 } as const;

export const SignupBody = Type.Object({
  name: Type.String({
    minLength: NAME_LIMITS.min,
    maxLength: NAME_LIMITS.max,
    pattern: PERSON_NAME_PATTERN,
    description: `3-20 characters: ${PERSON_NAME_RULE} (the invited-member rule)`,
  }),
  email: Type.String({
    format: 'email',
    maxLength: EMAIL_MAX,
    description: 'At most 255 characters; stored lower-cased',
  }),
  password: Type.String({
    minLength: PASSWORD_LIMITS.min,
    maxLength: PASSWORD_LIMITS.max,
    description: '8-128 characters',
  }),
});
export type SignupBody = Static<typeof SignupBody>;

export const SignupResponse = Type.Object({ userId: Type.Integer(), organizationId: Type.Integer() });

export const GRANT_TYPES = ['PASSWORD', 'G_AUTHENTICATOR', 'IDP_AUTH', 'CLIENT_CREDENTIALS', 'REFRESH_TOKEN'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/**
 * One flat object rather than a union per grant: the validator then names the one field that is wrong
 * instead of listing every branch, and the service says which field a grant is missing.
 */
export const SigninBody = Type.Object({
  grant_type: Type.Enum(GRANT_TYPES, {
    description: 'PASSWORD, G_AUTHENTICATOR, IDP_AUTH, CLIENT_CREDENTIALS or REFRESH_TOKEN',
  }),
  username: Type.Optional(
    Type.String({ minLength: 1, maxLength: EMAIL_MAX, description: 'PASSWORD, G_AUTHENTICATOR: the email' }),
  ),
  password: Type.Optional(
    Type.String({ minLength: 1, maxLength: PASSWORD_LIMITS.max, description: 'PASSWORD, G_AUTHENTICATOR' }),
  ),
  rememberMe: Type.Optional(
    Type.Boolean({ description: 'PASSWORD, G_AUTHENTICATOR: refresh token lives 30 days instead of 1' }),
  ),
  tOtp: Type.Optional(TotpCode),
  refreshToken: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'REFRESH_TOKEN' })),
  client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'CLIENT_CREDENTIALS' })),
  client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'CLIENT_CREDENTIALS' })),
  email: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: EMAIL_MAX,
      description: 'CLIENT_CREDENTIALS: the user the partner acts for',
    }),
  ),
  idToken: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: ID_TOKEN_MAX,
      description: "IDP_AUTH: the social identity provider's ID token (IDP_ISSUER)",
    }),
  ),
  nonce: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'IDP_AUTH: when given, the ID token must carry this nonce',
    }),
  ),
});
export type SigninBody = Static<typeof SigninBody>;

export const SessionResponse = Type.Object({
  accessToken: Type.String({
    description:
      'JWT; claims sub (user id), type (USER, GUEST or CLIENT), organizationId (USER, CLIENT), appId (CLIENT), exp',
  }),
  tokenType: Type.Literal('Bearer'),
  expiry: Type.Integer({ description: 'Seconds until the access token expires (900)' }),
  refreshToken: Type.String({ description: 'Opaque; single use: each refresh returns a new one' }),
  rememberMe: Type.Boolean(),
});

/** GET /auth/v1/refresh-session with the web session cookie: the refresh token stays on the server. */
export const CookieRefreshResponse = Type.Object(
  {
    expiry: Type.Integer({ description: 'Seconds until the renewed access token (kept on the server) expires' }),
    rememberMe: Type.Boolean(),
  },
  { description: 'Answer for a web session (cookie): the tokens stay on the server' },
);

/** the API specification's session-layer 401, which is not the standard error body. */
export const SessionExpiredResponse = Type.Object(
  { error: Type.String(), code: Type.Literal('SESSION_EXPIRED') },
  { description: 'The web session has ended: sign in again' },
);

export const TwoFactorChallenge = Type.Object(
  {
    tOtpRequired: Type.Literal(true),
    grantType: Type.Literal('G_AUTHENTICATOR', {
      description: 'Re-post username and password with this grant and tOtp',
    }),
    message: Type.String(),
  },
  { description: 'Password accepted; the account has two-factor sign-in, so no token yet' },
);

export const SignoutBody = Type.Union([
  Type.Object({
    refreshToken: Type.Optional(
      Type.String({ maxLength: 512, description: "Also revoke this refresh token's session family" }),
    ),
  }),
  Type.Null(),
]);

export const SignoutResponse = Type.Object({
  logoutUrl: Type.String({ description: 'Where the client goes to finish logging out' }),
});

const VerificationCode = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'The code from the link $PUBLIC_URL/verify-email/<code> in the sign-up mail',
});

export const VerifyEmailBody = Type.Object({ code: VerificationCode });
export const VerifyEmailParams = Type.Object({ code: VerificationCode });
export const VerifyEmailResponse = Type.Object({ verified: Type.Literal(true) });
export const ResendVerificationResponse = Type.Object({
  verified: Type.Boolean({ description: 'Whether the address is already verified' }),
  mailed: Type.Boolean({ description: 'Whether a new link was mailed' }),
});
