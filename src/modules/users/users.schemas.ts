import { Type, type Static } from 'typebox';
import type { UserRow } from './users.repo.ts';

/** RUNTIME.md: a number (left-padded with zeros) or a string of exactly 6 digits. */
export const TotpCode = Type.Union([
  Type.Integer({ minimum: 0, maximum: 999999 }),
  Type.String({ pattern: '^[0-9]{6}$' }),
], { description: 'The current 6-digit code of the authenticator app: a number (left-padded with zeros) or a string of 6 digits' });

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const ProfileResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  email: Type.String(),
  organizationId: Type.Integer({ description: 'The organization the token acts in' }),
  twoFactorEnabled: Type.Boolean(),
  driveClientId: NullableString('Drive import client id; null: the plan grants no Drive import'),
  driveApiKey: NullableString('Drive import API key; null together with driveClientId'),
  boxAppKey: NullableString('box import app key; null: the plan grants no box import'),
});

export const TotpEnrollmentResponse = Type.Object({
  otpauthUrl: Type.String({ description: 'otpauth://totp/... URI holding the new secret (SHA-1, 6 digits, 30 s)' }),
  qrCodeDataUrl: Type.String({ description: 'The same URI as a PNG QR code, data:image/png;base64,...' }),
});

export const SecurityBody = Type.Object({
  twoFactorEnabled: Type.Boolean({ description: 'true: turn two-factor sign-in on; false: turn it off' }),
  tOtp: TotpCode,
  password: Type.Optional(Type.String({
    minLength: 1, maxLength: 128,
    description: "The account's password; required to turn two-factor sign-in off (missing: 400 BAD_REQUEST_BODY; wrong: 400 WRONG_PASSWORD), ignored otherwise",
  })),
});
export type SecurityBody = Static<typeof SecurityBody>;

export const SecurityResponse = Type.Object({ twoFactorEnabled: Type.Boolean() });

export function toProfileResponse(user: UserRow, organizationId: number): Static<typeof ProfileResponse> {
  // No plan grants a cloud-import provider yet, so the three fields are null (SPEC.md "Profile").
  return {
    id: user.id, name: user.name, email: user.email, organizationId, twoFactorEnabled: user.twoFactorEnabled,
    driveClientId: null, driveApiKey: null, boxAppKey: null,
  };
}
