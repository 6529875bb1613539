import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import { publicLogoPath } from '../../platform/mail/branding.ts';
import type { BrandingRow } from './branding.repo.ts';

/** The logo limit the API specification gives ("≤ 1 MB"), on the uploaded file. */
export const LOGO_MAX_BYTES = 1024 * 1024;
/** Longest side of a stored logo: mail shows it 48 px high, the signing page 40 px; 512 leaves room for dense screens. */
export const LOGO_MAX_SIDE = 512;

const COLOUR = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB' });
// No control characters (a sender name reaches a mail's text); at least one visible character.
const SENDER_NAME = Type.String({
  minLength: 1,
  maxLength: 60,
  pattern: '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$',
});

/** What `settingsJson` holds. A member left out (or null) is the platform default; unknown members are refused. */
export const BrandingSettings = Type.Object(
  {
    primaryColor: Type.Optional(Type.Union([COLOUR, Type.Null()])),
    senderName: Type.Optional(
      Type.Union([SENDER_NAME, Type.Null()], { description: 'who mail and the signing page say documents come from' }),
    ),
    removeLogo: Type.Optional(
      Type.Boolean({ description: 'true: drop the stored logo (a logo part in the same request is refused)' }),
    ),
  },
  { additionalProperties: false },
);
export type BrandingSettings = Static<typeof BrandingSettings>;

export const BrandingForm = Type.Object(
  {
    settingsJson: Type.String({
      description:
        'JSON string: {"primaryColor": "#RRGGBB", "senderName": "...", "removeLogo": false}; members left out are the platform default',
    }),
    logo: Type.Optional(
      Type.String({
        format: 'binary',
        description:
          'PNG or JPEG, at most 1 MB; decoded and stored as a PNG of at most 512 px; left out: the stored logo stays',
      }),
    ),
  },
  { nullable: true },
);

export const BrandingResponse = Type.Object({
  primaryColor: Type.Union([Type.String(), Type.Null()], { description: 'null: the platform colour' }),
  senderName: Type.Union([Type.String(), Type.Null()], { description: 'null: the platform name' }),
  logoUrl: Type.Union([Type.String(), Type.Null()], {
    description: 'path of the logo, served without a token (its address is its SHA-256); null: none',
  }),
  isDefault: Type.Boolean({ description: 'true: nothing is set, the platform look applies' }),
  updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type BrandingResponse = Static<typeof BrandingResponse>;

/** The sender's look for the signing page of one workflow. */
export const SigningBrandingResponse = Type.Object({
  primaryColor: Type.Union([Type.String(), Type.Null()]),
  senderName: Type.Union([Type.String(), Type.Null()]),
  logoUrl: Type.Union([Type.String(), Type.Null()]),
});
export type SigningBrandingResponse = Static<typeof SigningBrandingResponse>;

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });
export const LogoKeyParams = Type.Object({
  logoKey: Type.String({ pattern: '^[0-9a-f]{64}$', description: "the logo's SHA-256, as logoUrl gives it" }),
});

export function toBrandingResponse(row: BrandingRow | null): BrandingResponse {
  return {
    primaryColor: row?.primaryColor ?? null,
    senderName: row?.senderName ?? null,
    logoUrl: row?.logoBlobKey ? publicLogoPath(row.logoBlobKey) : null,
    isDefault: !row,
    updatedAt: row ? row.updatedAt.toISOString() : null,
  };
}

export function toSigningBranding(row: BrandingRow | null): SigningBrandingResponse {
  return {
    primaryColor: row?.primaryColor ?? null,
    senderName: row?.senderName ?? null,
    logoUrl: row?.logoBlobKey ? publicLogoPath(row.logoBlobKey) : null,
  };
}
