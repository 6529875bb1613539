import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import {
  FIELD_TYPES,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_DIMENSION,
  MAX_IMAGE_PIXELS,
  STORED_IMAGE_MAX_DIMENSION,
  TEXT_LIMITS,
} from './field-values.ts';

/**
 * Body cap of the two routes that carry images. Larger than one image (2 MB decoded is ~2.7 MB as base64)
 * so that an oversized image gets its own clear 400 INVALID_FIELD_VALUE from the value check; a body above
 * this cap is refused by the parser with 400 PAYLOAD_TOO_LARGE.
 */
export const CEREMONY_BODY_LIMIT = 12 * 1024 * 1024;

/** Longest signing password accepted (argon2id hashes whatever it gets; this only bounds the work). */
export const SIGNING_PASSWORD_MAX_LENGTH = 1024;

/** Entries per fields/save call. */
export const MAX_SAVE_ENTRIES = 500;

const megabytes = MAX_IMAGE_BYTES / 1024 / 1024;
const IMAGE_RULES =
  `a data URL "data:image/png;base64,…" holding a PNG (JPEG is refused), at most ${megabytes} MB decoded, ` +
  `1-${MAX_IMAGE_DIMENSION} px each side and ${MAX_IMAGE_PIXELS} pixels in all. The image is decoded in full when saved: a PNG whose ` +
  'data is damaged (or has an unknown critical chunk) is 400 INVALID_FIELD_VALUE. What is stored, and later drawn into the sealed PDF, ' +
  `is the image re-encoded as a plain 8-bit RGBA PNG (not interlaced, no ancillary chunks), scaled down to at most ${STORED_IMAGE_MAX_DIMENSION} px on its longest side`;

export const DocumentIdParams = Type.Object({ documentId: IdParam });
export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

const FieldValue = Type.Union([Type.String(), Type.Boolean(), Type.Number(), Type.Null()], {
  description:
    `By type: SIGNATURE, INITIALS, STAMP, IMAGE ${IMAGE_RULES}; CHECKBOX true/false (boolean or string); NUMBER a finite number ` +
    `(number or decimal string); DATE an ISO date YYYY-MM-DD; EMAIL an email address; DROPDOWN one of the field's options; ` +
    `TEXT and NAME at most ${TEXT_LIMITS.TEXT} characters, NOTE and TEXTAREA at most ${TEXT_LIMITS.TEXTAREA}; DIGITAL_SIGNATURE what its appearance shows: ` +
    `the signer's signature image (a PNG data URL as for SIGNATURE) or text of at most ${TEXT_LIMITS.DIGITAL_SIGNATURE} characters. Strings are trimmed. ` +
    'null, "" or whitespace clears the field, except that SIGNATURE and INITIALS can never be submitted empty and a required field ' +
    'only with a value (a required CHECKBOX only ticked): 400 REQUIRED_FIELD_EMPTY.',
});

export const SaveFieldEntry = Type.Object({
  id: Type.Integer({
    minimum: 1,
    maximum: 2147483647,
    description: "the field id: a field of this document's workflow that belongs to the acting recipient",
  }),
  value: FieldValue,
  type: Type.Enum(FIELD_TYPES, { description: "must equal the field's fieldType (else 400 INVALID_FIELD)" }),
  signatureAssetId: Type.Optional(
    Type.Union([Type.Integer(), Type.Null()], {
      description:
        'SIGNATURE, INITIALS, STAMP: link to the saved library entry the image came from; never dereferenced. ' +
        "null, 0 or negative leave the stored link unchanged. A positive id must be an entry of the signing recipient's own library " +
        "(its user's), else 400 SIGNATURE_ASSET_NOT_FOUND (someone else's entry answers exactly like one that does not exist); " +
        'on another type it is 400 INVALID_FIELD_VALUE.',
    }),
  ),
  password: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: SIGNING_PASSWORD_MAX_LENGTH,
      description:
        "DIGITAL_SIGNATURE of a useDigitalCert recipient only (required there: 400 SIGNING_PASSWORD_REQUIRED): the signer's signing " +
        "password. Its first use provisions the person's signing key (at least 8 characters, else 400 SIGNING_PASSWORD_TOO_SHORT); later " +
        'uses, in any workflow, must give the same password: wrong is 400 SIGNING_PASSWORD_INVALID with responseBody.attemptsLeft, 10 ' +
        'wrong within 15 minutes lock the key (401 ACCOUNT_TEMPORARILY_LOCKED with Retry-After, until 15 minutes after the last; a new key ' +
        'through a mailed code: POST /workflow/v1/{workflowId}/signing-key/reset-code, then /signing-key/reset). A key is created or opened only ' +
        "for an address the platform verified: a registered user with a verified address, with their own token, or a signing link the platform's " +
        'own mail delivered; otherwise 403 EMAIL_NOT_VERIFIED. ' +
        "The save then appends the signer's PAdES signature to the document as its own incremental update. On any other entry 400 INVALID_REQUEST_BODY.",
    }),
  ),
});
export type SaveFieldEntry = Static<typeof SaveFieldEntry>;

export const SaveFieldsBody = Type.Array(SaveFieldEntry, {
  maxItems: MAX_SAVE_ENTRIES,
  description: `one entry per field, each id at most once; at most ${MAX_SAVE_ENTRIES}`,
});
export type SaveFieldsBody = Static<typeof SaveFieldsBody>;

export const SignBody = Type.Object({
  id: Type.Integer({
    minimum: 1,
    maximum: 2147483647,
    description: 'a SIGNATURE or INITIALS field of the acting recipient',
  }),
  image: Type.String({ description: `${IMAGE_RULES}.` }),
});
export type SignBody = Static<typeof SignBody>;

export const APPROVE_COMMENT_MAX_LENGTH = 3000;

export const ApproveBody = Type.Object({
  comment: Type.Optional(
    Type.Union([Type.String({ maxLength: APPROVE_COMMENT_MAX_LENGTH }), Type.Null()], {
      description: `the approver's comment, optional, at most ${APPROVE_COMMENT_MAX_LENGTH} characters; stored trimmed in the Approved activity's sentence`,
    }),
  ),
});
export type ApproveBody = Static<typeof ApproveBody>;

export const CeremonyResponse = Type.Object(
  {
    workflowId: Type.Integer(),
    recipientId: Type.Integer({ description: 'the acting recipient row' }),
    recipientStatus: Type.String({
      description:
        "the acting row's status after the call: SENT or VIEWED while unfinished (PENDING in a SELF draft), SIGNED or APPROVED once finished",
    }),
    workflowStatus: Type.String({
      description:
        'SENT while others still have to act; COMPLETED when this call finished the last action-required recipient',
    }),
    sealStatus: Type.String({
      description:
        'NONE before completion; PENDING once completed until the sealing job has stored the sealed PDF (then SEALED, or FAILED)',
    }),
    savedFieldIds: Type.Array(Type.Integer(), { description: 'the fields written by this call' }),
  },
  { description: 'The outcome of a ceremony call' },
);
export type CeremonyResponse = Static<typeof CeremonyResponse>;

export const DisclosureQuery = Type.Object({
  lang: Type.Optional(
    Type.String({ maxLength: 35, description: 'the language to show it in (a BCP 47 tag); default English' }),
  ),
});

export const DisclosureResponse = Type.Object({
  lang: Type.String({ description: 'the language of text: en, de, fr, es, it, nl, pt or pl' }),
  text: Type.String({
    description: 'the electronic-signature disclosure, verbatim, as it must be shown before the first save',
  }),
  textHash: Type.String({ description: 'SHA-256 of text, hex; the consent record of each signer carries it' }),
});
