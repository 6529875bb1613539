import { Type, type Static } from 'typebox';
import { EMAIL_MAX } from '../auth/auth.schemas.ts';
import type { PasskeyRow } from './passkeys.repo.ts';

const Base64Url = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+={0,2}$', description });
const Transports = Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 });
const CredentialDescriptor = Type.Object({
  id: Type.String(),
  type: Type.Literal('public-key'),
  transports: Type.Optional(Transports),
});

export const PasskeyResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const PasskeyListItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Last sign-in with it; null: never used',
  }),
  deviceType: Type.String({ description: 'singleDevice, or multiDevice for a synced passkey' }),
  backedUp: Type.Boolean(),
});

export const PasskeyIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

/** WebAuthn PublicKeyCredentialCreationOptionsJSON, for navigator.credentials.create(). */
export const CreationOptions = Type.Object({
  rp: Type.Object({ name: Type.String(), id: Type.String() }),
  user: Type.Object({ id: Type.String(), name: Type.String(), displayName: Type.String() }),
  challenge: Type.String({ description: 'base64url; single use, valid 5 minutes' }),
  pubKeyCredParams: Type.Array(Type.Object({ alg: Type.Integer(), type: Type.Literal('public-key') })),
  timeout: Type.Integer({ description: 'Milliseconds' }),
  excludeCredentials: Type.Array(CredentialDescriptor, { description: "The user's passkeys already registered" }),
  authenticatorSelection: Type.Object({
    residentKey: Type.String(),
    requireResidentKey: Type.Boolean(),
    userVerification: Type.String(),
  }),
  attestation: Type.String(),
  extensions: Type.Object({ credProps: Type.Boolean() }),
});

/** WebAuthn PublicKeyCredentialRequestOptionsJSON, for navigator.credentials.get(). */
export const RequestOptions = Type.Object({
  challenge: Type.String({ description: 'base64url; single use, valid 5 minutes' }),
  timeout: Type.Integer({ description: 'Milliseconds' }),
  rpId: Type.String(),
  allowCredentials: Type.Array(CredentialDescriptor, {
    description: "The user's passkeys (empty for a user who has none)",
  }),
  userVerification: Type.String(),
});

const ClientExtensionResults = Type.Object({}, { additionalProperties: true });

/** The attestation JSON of navigator.credentials.create() (RegistrationResponseJSON), plus an optional name. */
export const RegistrationBody = Type.Object({
  id: Base64Url(1024, 'Credential id'),
  rawId: Base64Url(1024, 'Credential id'),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: Base64Url(8192, 'base64url'),
    attestationObject: Base64Url(65536, 'base64url'),
    transports: Type.Optional(Transports),
    publicKeyAlgorithm: Type.Optional(Type.Integer()),
    publicKey: Type.Optional(Type.String({ maxLength: 8192 })),
    authenticatorData: Type.Optional(Type.String({ maxLength: 65536 })),
  }),
  clientExtensionResults: ClientExtensionResults,
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
  name: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'What the user calls it; default "Passkey <n>"' }),
  ),
});
export type RegistrationBody = Static<typeof RegistrationBody>;

/** The assertion JSON of navigator.credentials.get() (AuthenticationResponseJSON). */
export const AssertionBody = Type.Object({
  id: Base64Url(1024, 'Credential id'),
  rawId: Base64Url(1024, 'Credential id'),
  type: Type.Literal('public-key'),
  response: Type.Object({
    clientDataJSON: Base64Url(8192, 'base64url'),
    authenticatorData: Base64Url(8192, 'base64url'),
    // ML-DSA-44 (offered first by @simplewebauthn/server where the runtime supports it) signs with 2420 bytes.
    signature: Base64Url(8192, 'base64url'),
    userHandle: Type.Optional(Type.String({ maxLength: 1024 })),
  }),
  clientExtensionResults: ClientExtensionResults,
  authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
});
export type AssertionBody = Static<typeof AssertionBody>;

export const LoginOptionsQuery = Type.Object({
  username: Type.String({ minLength: 1, maxLength: EMAIL_MAX, description: "The account's email" }),
});

export const LoginVerifyQuery = Type.Object({
  username: Type.String({
    minLength: 1,
    maxLength: EMAIL_MAX,
    description: "The account's email, as given to the options call",
  }),
  rememberMe: Type.Optional(Type.Boolean({ description: 'The session lasts 30 days instead of 12 hours' })),
});

export function toPasskeyResponse(row: PasskeyRow): Static<typeof PasskeyResponse> {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString() };
}

export function toPasskeyListItem(row: PasskeyRow): Static<typeof PasskeyListItem> {
  return {
    ...toPasskeyResponse(row),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    deviceType: row.deviceType,
    backedUp: row.backedUp,
  };
}
