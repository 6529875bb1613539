import { Type, type Static } from 'typebox';
import { IdParam, NumberedPage, Nullable } from '../../http/schemas.ts';
import type { TemplateRow } from './templates.repo.ts';

export const TEMPLATE_NAME_MAX = 50;
export const MAX_TEMPLATE_IDS = 100;

export const TemplateIdParams = Type.Object({ templateId: IdParam });
export const TempIdParams = Type.Object({ tempId: IdParam });
export const IdParams = Type.Object({ id: IdParam });

const TemplateName = Type.String({
  minLength: 1,
  maxLength: TEMPLATE_NAME_MAX,
  description:
    '1-50 characters, not whitespace-only (400 INVALID_REQUEST_BODY); stored trimmed; unique among the live templates of one folder ignoring case (409 TEMPLATE_NAME_TAKEN); another folder may reuse it. Also the name of the workflows made from the template.',
});

export const RecipientLabel = Type.Object({
  order: Type.Integer({
    minimum: 1,
    maximum: 1000,
    description: "the slot's 1-based position (its recipientIndex at dispatch)",
  }),
  label: Type.String({
    maxLength: 50,
    description: 'a non-blank label makes the slot a placeholder, which dispatch and apply must fill; stored trimmed',
  }),
});

const TemplateMembers = {
  name: TemplateName,
  description: Type.Optional(Type.String({ maxLength: 500 })),
  workflowId: Type.Integer({
    minimum: 1,
    maximum: 2147483647,
    description:
      "the source workflow: one of the caller's own (any status, not SELF or SURVEY, with a document and a recipient); its documents, recipients (as slots) and fields are copied, so later edits of it change nothing",
  }),
  folderId: Type.Optional(
    Type.Union([IdParam, Type.Null()], {
      description: 'a template folder the caller sees (404 TEMPLATE_FOLDER_NOT_FOUND); null or omitted: the root',
    }),
  ),
  recipientLabels: Type.Optional(
    Type.Array(RecipientLabel, {
      maxItems: 1000,
      description: 'each order must be a slot (1 to the number of slots) and appear once (400 INVALID_REQUEST_BODY)',
    }),
  ),
  reminderEnabled: Type.Optional(
    Type.Boolean({ description: 'the reminder setting of the workflows made from the template; default false' }),
  ),
  reminderIntervalDays: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 30 }), Type.Null()], {
      description: '1-30; required when reminderEnabled',
    }),
  ),
};

export const CreateTemplateBody = Type.Object(TemplateMembers);
export type CreateTemplateBody = Static<typeof CreateTemplateBody>;

export const UpdateTemplateBody = Type.Object({
  id: IdParam,
  ...TemplateMembers,
  overwrite: Type.Optional(
    Type.Boolean({
      description:
        'true: take a new snapshot of workflowId (documents, slots and fields replaced; field drop-off collection restarts). ' +
        "false (default): only name, description, folder, labels and reminders change; workflowId must then be the template's own source (400 INVALID_REQUEST_BODY otherwise).",
    }),
  ),
});
export type UpdateTemplateBody = Static<typeof UpdateTemplateBody>;

export const RenameTemplateBody = Type.Object({ id: IdParam, name: TemplateName });
export const MoveTemplatesBody = Type.Object({
  ids: Type.Array(IdParam, { minItems: 1, maxItems: MAX_TEMPLATE_IDS }),
  folderId: Type.Union([IdParam, Type.Null()], { description: 'the target folder; null: the root' }),
});
export const CloneTemplateBody = Type.Object(
  {
    name: Type.Optional(TemplateName),
    folderId: Type.Optional(
      Type.Union([IdParam, Type.Null()], {
        description: "the copy's folder; null: the root; absent: the template's own folder",
      }),
    ),
  },
  { description: 'Every member optional: a request without a body is {} (RUNTIME.md)' },
);
export const DeleteTemplatesQuery = Type.Object({
  ids: Type.Array(IdParam, { minItems: 1, maxItems: MAX_TEMPLATE_IDS, description: 'repeated: ids=1&ids=2' }),
});

export const TemplatesPageQuery = Type.Object({
  page: Type.Integer({ minimum: 0, maximum: 1000000, default: 0, description: 'zero-based page number' }),
  size: Type.Integer({ minimum: 1, maximum: 1000, default: 20, description: 'page size' }),
  folderId: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 2147483647, description: 'only the templates of this folder; 0: of the root' }),
  ),
  searchValue: Type.Optional(Type.String({ maxLength: 255, description: 'case-insensitive substring of the name' })),
});
export type TemplatesPageQuery = Static<typeof TemplatesPageQuery>;
export const AllTemplatesQuery = Type.Object({ folderId: TemplatesPageQuery.properties.folderId });

export const TemplateResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  workflowId: Nullable(Type.Integer(), { description: 'the source workflow of the current snapshot' }),
  folderId: Nullable(Type.Integer()),
  recipientLabels: Type.Array(Type.Object({ order: Type.Integer(), label: Type.String() })),
  reminderEnabled: Type.Boolean(),
  reminderIntervalDays: Nullable(Type.Integer()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type TemplateResponse = Static<typeof TemplateResponse>;

export const TemplatePage = NumberedPage(TemplateResponse);
export const TemplateNames = Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() }));

export const RecipientSlot = Type.Object({
  id: Type.Integer({ description: "the slot's id" }),
  name: Type.String(),
  emailAddress: Type.String(),
  role: Type.String({ description: 'SIGNER, APPROVER or CC' }),
  order: Type.Integer({ description: '1-based position: the recipientIndex of dispatch and apply' }),
  label: Nullable(Type.String(), { description: 'non-blank: a placeholder that dispatch and apply must fill' }),
});
export const RecipientSlots = Type.Array(RecipientSlot);

export const RecipientOverride = Type.Object({
  recipientIndex: Type.Optional(
    Type.Integer({
      description:
        "1-based slot; omitted: the override's position in the array plus one. Out of range or repeated: 400 BAD_REQUEST_BODY",
    }),
  ),
  name: Type.Optional(
    Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], {
      description:
        'trimmed, whitespace collapsed, 3-50 characters: letters of any script, a hyphen or apostrophe between two letters, single spaces (400 INVALID_FIELD_VALUE)',
    }),
  ),
  emailAddress: Type.Optional(
    Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], {
      description: 'a valid email of at most 255 characters (400 INVALID_FIELD_VALUE)',
    }),
  ),
  recipientColor: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()], { description: '#RRGGBB' })),
  useDigitalCert: Type.Optional(Type.Boolean()),
  recipientPassword: Type.Optional(
    Type.Union([Type.String({ maxLength: 128 }), Type.Null()], {
      description: "omitted: the slot's; empty or null: none",
    }),
  ),
  recipientOrder: Type.Optional(Type.Union([Type.Integer(), Type.String({ maxLength: 10 }), Type.Null()])),
});
export type RecipientOverride = Static<typeof RecipientOverride>;
export const OverridesBody = Type.Array(RecipientOverride, {
  maxItems: 1000,
  description: "overrides of the template's recipient slots; all optional; more than the slots: 400",
});

export const NewWorkflowResponse = Type.Object({ id: Type.Integer({ description: "the new workflow's id" }) });

export function toTemplateResponse(row: TemplateRow): TemplateResponse {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    workflowId: row.sourceWorkflowId,
    folderId: row.folderId,
    recipientLabels: row.recipientLabels as { order: number; label: string }[],
    reminderEnabled: row.reminderEnabled,
    reminderIntervalDays: row.reminderIntervalDays,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
