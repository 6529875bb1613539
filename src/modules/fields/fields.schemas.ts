import { Type, type Static, type TSchema } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import type { FieldRow } from './fields.repo.ts';

export const FIELD_TYPES = [
  'SIGNATURE',
  'TEXT',
  'CHECKBOX',
  'NAME',
  'EMAIL',
  'NUMBER',
  'DROPDOWN',
  'NOTE',
  'TEXTAREA',
  'DIGITAL_SIGNATURE',
  'INITIALS',
  'IMAGE',
  'DATE',
  'STAMP',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The types a saved library entry (signatureAssetId) can fill (the API specification signatureAssetId rules). */
export const ASSET_FIELD_TYPES: readonly FieldType[] = ['SIGNATURE', 'INITIALS', 'STAMP'];

export const MAX_FIELDS_PER_CALL = 1000;
export const DROPDOWN_OPTIONS = { min: 1, max: 100 } as const;
export const LABEL_MAX_LENGTH = 255;

const HEX_COLOR = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB' });

const TextAlign = Type.Enum(['left', 'center', 'right'] as const, { description: 'left, center or right' });
const FontSize = Type.Number({ minimum: 4, maximum: 72, description: 'points, 4-72' });
const DateLang = Type.String({
  pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*$',
  maxLength: 35,
  description: 'a language tag such as en or de-CH',
});
const FontFamily = Type.String({ minLength: 1, maxLength: 100 });
const Placeholder = Type.String({ maxLength: 255 });

/** In requests a null member is the same as leaving it out. */
const orNull = <T extends TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

export const STYLING_KEYS = [
  'textColor',
  'fontFamily',
  'bold',
  'italic',
  'underline',
  'strikethrough',
  'textAlign',
  'backgroundColor',
  'fontSize',
  'placeholder',
  'dateLang',
  'useAsLabel',
] as const;

export const StylingInput = Type.Object(
  {
    textColor: orNull(HEX_COLOR),
    fontFamily: orNull(FontFamily),
    bold: orNull(Type.Boolean()),
    italic: orNull(Type.Boolean()),
    underline: orNull(Type.Boolean()),
    strikethrough: orNull(Type.Boolean()),
    textAlign: orNull(TextAlign),
    backgroundColor: orNull(HEX_COLOR),
    fontSize: orNull(FontSize),
    placeholder: orNull(Placeholder),
    dateLang: orNull(DateLang),
    useAsLabel: orNull(Type.Boolean()),
  },
  {
    description: `Only these keys: ${STYLING_KEYS.join(', ')} (any other key is 400 BAD_REQUEST_BODY). The object replaces the stored styling; null clears it.`,
  },
);
export type StylingInput = Static<typeof StylingInput>;

const StylingResponse = Type.Object({
  textColor: Type.Optional(HEX_COLOR),
  fontFamily: Type.Optional(FontFamily),
  bold: Type.Optional(Type.Boolean()),
  italic: Type.Optional(Type.Boolean()),
  underline: Type.Optional(Type.Boolean()),
  strikethrough: Type.Optional(Type.Boolean()),
  textAlign: Type.Optional(TextAlign),
  backgroundColor: Type.Optional(HEX_COLOR),
  fontSize: Type.Optional(FontSize),
  placeholder: Type.Optional(Placeholder),
  dateLang: Type.Optional(DateLang),
  useAsLabel: Type.Optional(Type.Boolean()),
});
export type Styling = Record<string, unknown>;

const Box = Type.Object(
  {
    x: Type.Number({ description: 'points from the left edge of the page as displayed' }),
    y: Type.Number({ description: 'points from the top edge of the page as displayed' }),
    width: Type.Number({ description: 'points, more than 0' }),
    height: Type.Number({ description: 'points, more than 0' }),
  },
  {
    description:
      'Must lie entirely inside the page (its displayed size in points, origin top-left), else 400 INVALID_FIELD',
  },
);
export type Box = Static<typeof Box>;

const fieldMembers = {
  recipientId: Type.Optional(
    Type.Union([IdParam, Type.Null()], {
      description:
        'A SIGNER or APPROVER recipient of the same workflow (400 INVALID_FIELD otherwise; CC recipients fill nothing). ' +
        'Required, except on a Power Survey (SURVEY) workflow, where a field may stay unassigned.',
    }),
  ),
  pageNo: Type.Integer({ description: "1 to the document's page count (400 INVALID_FIELD otherwise)" }),
  box: Box,
  fieldType: Type.Enum(FIELD_TYPES, { description: FIELD_TYPES.join(', ') }),
  fieldRequired: Type.Optional(Type.Boolean({ description: 'default false on create' })),
  label: Type.Optional(
    Type.Union([Type.String({ maxLength: LABEL_MAX_LENGTH }), Type.Null()], {
      description: `at most ${LABEL_MAX_LENGTH} characters; stored trimmed, blank is null`,
    }),
  ),
  signatureAssetId: Type.Optional(
    Type.Union([Type.Integer({ minimum: -2147483648, maximum: 2147483647 }), Type.Null()], {
      description:
        'SIGNATURE, INITIALS and STAMP only (a positive value on another type is 400 INVALID_FIELD). Null, zero and negative leave the stored link unchanged.',
    }),
  ),
  styling: Type.Optional(Type.Union([StylingInput, Type.Null()])),
  options: Type.Optional(
    Type.Union([Type.Array(Type.String({ maxLength: 255 }), { maxItems: DROPDOWN_OPTIONS.max }), Type.Null()], {
      description: `DROPDOWN choices: required for DROPDOWN, ${DROPDOWN_OPTIONS.min}-${DROPDOWN_OPTIONS.max} non-blank strings; other types take none (null or []).`,
    }),
  ),
};

export const FieldBody = Type.Object(fieldMembers);
export type FieldBody = Static<typeof FieldBody>;

export const FieldListEntry = Type.Object({ documentId: IdParam, ...fieldMembers });
export type FieldListEntry = Static<typeof FieldListEntry>;
export const FieldListBody = Type.Array(FieldListEntry, { minItems: 1, maxItems: MAX_FIELDS_PER_CALL });

export const RequiredBody = Type.Object({
  fieldRequired: Type.Boolean(),
  styling: Type.Optional(
    Type.Union([StylingInput, Type.Null()], {
      description: 'omitted keeps the stored styling; null clears it; an object replaces it',
    }),
  ),
});
export type RequiredBody = Static<typeof RequiredBody>;

export const DocumentIdParams = Type.Object({ documentId: IdParam });
export const DocumentFieldParams = Type.Object({ documentId: IdParam, fieldId: IdParam });
export const WorkflowIdParams = Type.Object({ workflowId: IdParam });
export const WorkflowFieldParams = Type.Object({ workflowId: IdParam, fieldId: IdParam });

export const FieldResponse = Type.Object({
  id: Type.Integer(),
  documentId: Type.Integer(),
  workflowId: Type.Integer(),
  recipientId: Type.Union([Type.Integer(), Type.Null()]),
  pageNo: Type.Integer(),
  box: Box,
  fieldType: Type.String(),
  fieldRequired: Type.Boolean(),
  label: Type.Union([Type.String(), Type.Null()]),
  value: Type.Union([Type.String(), Type.Null()]),
  signatureAssetId: Type.Union([Type.Integer(), Type.Null()], {
    description:
      'only for the recipient the field belongs to (its user, or the signing-link token of that row); null for everyone else, the owner included',
  }),
  styling: Type.Union([StylingResponse, Type.Null()]),
  options: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'DROPDOWN choices; null for other types',
  }),
});
export type FieldResponse = Static<typeof FieldResponse>;

export const FieldList = Type.Array(FieldResponse);

export function toFieldResponse(row: FieldRow): FieldResponse {
  return {
    id: row.id,
    documentId: row.documentId,
    workflowId: row.workflowId,
    recipientId: row.recipientId,
    pageNo: row.pageNo,
    box: row.box as Box,
    fieldType: row.fieldType,
    fieldRequired: row.fieldRequired,
    label: row.label,
    value: row.value,
    signatureAssetId: row.signatureAssetId,
    styling: (row.styling as Styling | null) ?? null,
    options: (row.options as string[] | null) ?? null,
  };
}
