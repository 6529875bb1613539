import { Type } from 'typebox';

export const AuthorizeQuery = Type.Object({
  idpHint: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z0-9._:-]+$',
      description: 'Passed to the identity provider as idp_hint (which upstream provider to use)',
    }),
  ),
  rememberMe: Type.Optional(
    Type.Boolean({
      description:
        'The session and its cookie last 30 days (surviving browser restarts) instead of 12 hours and the browser session',
    }),
  ),
  returnTo: Type.Optional(
    Type.String({ maxLength: 512, description: 'A path of this service to land on after sign-in; default /' }),
  ),
});

export const CallbackQuery = Type.Object(
  {
    code: Type.Optional(Type.String({ maxLength: 2048 })),
    state: Type.Optional(Type.String({ maxLength: 256 })),
    iss: Type.Optional(Type.String({ maxLength: 2048 })),
    error: Type.Optional(Type.String({ maxLength: 200 })),
    error_description: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: true },
);

export const Redirect = Type.Null({ description: 'Redirect (302); the target is in the Location header' });

export const MeResponse = Type.Object({
  userId: Type.Integer(),
  email: Type.String(),
  name: Type.String(),
  organizationId: Type.Union([Type.Integer(), Type.Null()]),
  rememberMe: Type.Boolean(),
  expiresAt: Type.String({
    format: 'date-time',
    description: "The session's maximum lifetime: it ends then however active it is",
  }),
  csrfToken: Type.String({
    description:
      'Send as X-CSRF-Token with every cookie-authenticated request that is not GET, HEAD or OPTIONS, and with the GETs that write (simplest: with every request)',
  }),
});

export const LogoutResponse = Type.Object({
  logoutUrl: Type.String({ description: 'Open it to complete logout (at the identity provider when there is one)' }),
});

export { SessionExpiredResponse as SessionExpired } from '../auth/auth.schemas.ts';
