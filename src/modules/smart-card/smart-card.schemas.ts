import { Type, type Static } from 'typebox';

export const HashBody = Type.Object({
  certificate: Type.String({
    minLength: 1,
    maxLength: 16384,
    description:
      "The card's X.509 certificate, PEM (a bare base64 DER is accepted too), optionally followed by up to 8 intermediate CA certificates (PEM)",
  }),
});
export type HashBody = Static<typeof HashBody>;

export const HashResponse = Type.Object({
  challengeId: Type.String({ description: 'Names the challenge in the verify call; single use, valid 5 minutes' }),
  hash: Type.String({
    description: "Base64 of the SHA-256 digest to sign with the card's key (PKCS#1 v1.5 or ECDSA over this digest)",
  }),
});

export const VerifyBody = Type.Object({
  challengeId: Type.String({ minLength: 1, maxLength: 64 }),
  signature: Type.String({
    minLength: 1,
    maxLength: 4096,
    pattern: '^[A-Za-z0-9+/=_-]+$',
    description: 'Base64 signature: RSA PKCS#1 v1.5, or ECDSA (DER or raw r||s)',
  }),
  rememberMe: Type.Optional(Type.Boolean({ description: 'The session lasts 30 days instead of 12 hours' })),
});
export type VerifyBody = Static<typeof VerifyBody>;
