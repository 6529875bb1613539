import { Type, type Static } from 'typebox';
import type { SignatureAssetRow } from './signature-library.repo.ts';
import { SIGNATURE_FONTS } from './typed-signature.ts';

export const ASSET_KINDS = ['SIGNATURE', 'INITIALS', 'STAMP'] as const;
export type AssetKind = (typeof ASSET_KINDS)[number];
export const CAPTURE_MODES = ['DRAW', 'TYPE', 'UPLOAD'] as const;
export type CaptureMode = (typeof CAPTURE_MODES)[number];

/**
 * Routes that take an image accept bodies up to this (the app's default is 1 MB; a 1 MB image is 1.33 MB of
 * base64), so an image somewhat over 1 MB is answered by the service's size check with its size, not by the body limit.
 */
export const IMAGE_BODY_LIMIT = 3 * 1024 * 1024;

const PngDataUrl = (description: string) => Type.String({ minLength: 1, maxLength: IMAGE_BODY_LIMIT, description });

export const LibraryEntry = Type.Object({
  id: Type.Integer(),
  kind: Type.Enum(ASSET_KINDS),
  name: Type.String(),
  image: Type.String({ description: 'data:image/png;base64,… (normalised: 8-bit RGBA, at most 2048 px a side)' }),
  captureMode: Type.Enum(CAPTURE_MODES),
  isDefault: Type.Boolean({ description: 'The default entry of its kind; each kind that has entries has exactly one' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const LibraryEntryBody = Type.Object({
  kind: Type.Enum(ASSET_KINDS, { description: 'SIGNATURE, INITIALS or STAMP' }),
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      'What the entry is called; with captureMode TYPE and no image also the text the service writes (at most 50 characters)',
  }),
  captureMode: Type.Enum(CAPTURE_MODES, {
    description:
      'How the image was made: DRAW (drawn on a pad), TYPE (a typed name), UPLOAD (a picture file; STAMP only)',
  }),
  image: Type.Optional(
    PngDataUrl(
      'data:image/png;base64,…, at most 1 MB decoded (PNG only), for every mode; required with DRAW and UPLOAD; with TYPE optional: ' +
        'absent, the service writes name in font',
    ),
  ),
  font: Type.Optional(
    Type.Enum(SIGNATURE_FONTS, {
      description:
        'TYPE without image: the font the service writes name in (default DANCING_SCRIPT); ignored otherwise',
    }),
  ),
});
export type LibraryEntryBody = Static<typeof LibraryEntryBody>;

export const EntryIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

const DigitalSignatures = Type.Object({
  source: Type.Enum(['CSC_2', 'LOCAL'] as const, {
    description: "CSC_2: a remote signing service; LOCAL: the platform's local certificates",
  }),
  csc: Type.Optional(
    Type.Object({
      userName: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 255,
          description: "The user's account at the CSC provider; default: the user's email",
        }),
      ),
    }),
  ),
});

export const LegacySignaturesBody = Type.Object({
  image: Type.Optional(
    PngDataUrl("The default SIGNATURE entry's image (data-URL PNG, at most 1 MB); absent: unchanged"),
  ),
  initialImage: Type.Optional(
    PngDataUrl("The default INITIALS entry's image (data-URL PNG, at most 1 MB); absent: unchanged"),
  ),
  digitalSignatures: Type.Optional(DigitalSignatures),
});
export type LegacySignaturesBody = Static<typeof LegacySignaturesBody>;

export const LegacySignaturesResponse = Type.Object({
  image: Type.Union([Type.String(), Type.Null()], { description: "The default SIGNATURE entry's image; null: none" }),
  initialImage: Type.Union([Type.String(), Type.Null()], {
    description: "The default INITIALS entry's image; null: none",
  }),
  digitalSignatures: Type.Union(
    [
      Type.Object({
        source: Type.String(),
        csc: Type.Object({ userName: Type.Union([Type.String(), Type.Null()]) }),
      }),
      Type.Null(),
    ],
    { description: 'null: never saved' },
  ),
});
export type LegacySignaturesResponse = Static<typeof LegacySignaturesResponse>;

export function toLibraryEntry(row: SignatureAssetRow): Static<typeof LibraryEntry> {
  return {
    id: row.id,
    kind: row.kind as AssetKind,
    name: row.name,
    image: row.image,
    captureMode: row.captureMode as CaptureMode,
    isDefault: row.isDefault,
    createdAt: row.createdAt.toISOString(),
  };
}
