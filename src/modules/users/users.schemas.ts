import { Type, type Static } from 'typebox';
import type { UserRow } from './users.repo.ts';

/** the runtime contract: a number (left-padded with zeros) or a string of exactly 6 digits. */
export const TotpCode = Type.Union(
  [Type.Integer({ minimum: 0, maximum: 999999 }), Type.String({ pattern: '^[0-9]{6}$' })],
  {
    description:
      'The current 6-digit code of the authenticator app: a number (left-padded with zeros) or a string of 6 digits',
  },
);

const NullableString = (description: string) => Type.Union([Type.String(), Type.Null()], { description });

export const ProfileResponse = Type.Object({
  id: Type.Integer({ description: "The user's id (a guest token: the recipient's user id, the token's sub)" }),
  name: Type.String({ description: "The account's name (a guest token: the recipient row's)" }),
  email: Type.String({ description: "The account's address (a guest token: the recipient row's)" }),
  organizationId: Type.Integer({
    description: "The organization the token acts in (a guest token: the workflow's organization)",
  }),
  twoFactorEnabled: Type.Boolean({ description: 'Whether sign-in asks for a TOTP code (a guest token: always false)' }),
  emailVerified: Type.Boolean({
    description:
      "Whether the address is verified (the sign-up mail's link was opened): sending to others needs it (403 EMAIL_NOT_VERIFIED otherwise); a guest token: always false",
  }),
  locale: Type.String({
    description:
      "BCP 47 language tag (PUT /user/v1/settings/locale); a guest token: en (the signing page follows the browser's languages)",
  }),
  driveClientId: NullableString(
    "Drive import client id: set when the organization's plan grants DRIVE and the service has DRIVE_CLIENT_ID and DRIVE_API_KEY; null otherwise",
  ),
  driveApiKey: NullableString(
    'Drive import API key: non-null exactly when driveClientId is (they come together or not at all)',
  ),
  boxAppKey: NullableString(
    'box import app key: set when the plan grants BOX and the service has BOX_APP_KEY; null otherwise',
  ),
});

/** The cloud-import keys the profile shows; null where the plan does not grant the provider or the service has no key. */
export type CloudImportFields = { driveClientId: string | null; driveApiKey: string | null; boxAppKey: string | null };

/**
 * Optional mails about workflows the user sends; true: mailed (the default). Mails a user cannot turn off are
 * not listed: signing requests, one-time codes, account security and verification, invitations.
 */
export const NOTIFICATION_KINDS = {
  workflowCompleted: 'COMPLETED',
  workflowDeclined: 'DECLINED',
  workflowDelegated: 'DELEGATED',
  workflowVoided: 'VOIDED',
  commentAdded: 'COMMENT_ADDED',
  documentOpened: 'DOCUMENT_OPENED',
} as const;
export type NotificationName = keyof typeof NOTIFICATION_KINDS;
const NOTIFICATION_DESCRIPTIONS: Record<NotificationName, string> = {
  workflowCompleted: 'A workflow the user sent is completed (signed copies ready)',
  workflowDeclined: 'A recipient declined a workflow the user sent',
  workflowDelegated: 'A recipient delegated their task',
  workflowVoided: 'A workflow the user takes part in was voided',
  commentAdded: 'A comment was added to a workflow the user takes part in',
  documentOpened: 'A recipient opened a workflow the user sent',
};

export const NotificationPreferences = Type.Object(
  Object.fromEntries(
    Object.keys(NOTIFICATION_KINDS).map((name) => [
      name,
      Type.Boolean({ description: NOTIFICATION_DESCRIPTIONS[name as NotificationName] }),
    ]),
  ) as Record<NotificationName, ReturnType<typeof Type.Boolean>>,
  { description: 'Optional mails, each true (mailed, the default) or false' },
);
export type NotificationPreferences = Static<typeof NotificationPreferences>;

export const NotificationPreferencesBody = Type.Partial(NotificationPreferences, {
  additionalProperties: false,
  description: 'Any of the preferences; those left out keep their value',
});
export type NotificationPreferencesBody = Static<typeof NotificationPreferencesBody>;

export const LocaleBody = Type.Object({
  locale: Type.String({
    minLength: 2,
    maxLength: 35,
    pattern: '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$',
    description: 'A BCP 47 language tag such as en, de-CH or pt-BR; stored in canonical form',
  }),
});
export const LocaleResponse = Type.Object({ locale: Type.String() });

/** What an account that has set no locale is answered (and written to in): English. */
export const DEFAULT_LOCALE = 'en';

export const TotpEnrollmentResponse = Type.Object({
  otpauthUrl: Type.String({ description: 'otpauth://totp/... URI holding the new secret (SHA-1, 6 digits, 30 s)' }),
  qrCodeDataUrl: Type.String({ description: 'The same URI as a PNG QR code, data:image/png;base64,...' }),
});

export const SecurityBody = Type.Object({
  twoFactorEnabled: Type.Boolean({ description: 'true: turn two-factor sign-in on; false: turn it off' }),
  tOtp: TotpCode,
  password: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        "The account's password: optional; when sent to turn two-factor sign-in off it must be right (else 400 WRONG_PASSWORD), ignored otherwise",
    }),
  ),
});
export type SecurityBody = Static<typeof SecurityBody>;

export const SecurityResponse = Type.Object({ twoFactorEnabled: Type.Boolean() });

export type ProfileResponse = Static<typeof ProfileResponse>;

/** What a signing link's session has of a profile: the recipient row's name and email, no account settings (RUNTIME.md). */
export function toGuestProfileResponse(
  recipient: { userId: number; name: string; email: string },
  organizationId: number,
): ProfileResponse {
  return {
    id: recipient.userId,
    name: recipient.name,
    email: recipient.email,
    organizationId,
    twoFactorEnabled: false,
    emailVerified: false,
    locale: DEFAULT_LOCALE,
    driveClientId: null,
    driveApiKey: null,
    boxAppKey: null,
  };
}

export function toProfileResponse(
  user: UserRow,
  organizationId: number,
  cloud: CloudImportFields,
): Static<typeof ProfileResponse> {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    organizationId,
    twoFactorEnabled: user.twoFactorEnabled,
    emailVerified: user.emailVerifiedAt !== null,
    locale: user.locale ?? DEFAULT_LOCALE,
    ...cloud,
  };
}
