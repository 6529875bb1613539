import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import type { RecipientRow } from '../workflows/workflow-access.ts';

export const RECIPIENT_ROLES = ['SIGNER', 'APPROVER', 'CC'] as const;
export type RecipientRole = (typeof RECIPIENT_ROLES)[number];

/** The most recipients one add or update call may carry (a Power Survey's plan limit can be in the thousands). */
export const MAX_RECIPIENTS_PER_CALL = 1000;

/**
 * The most entries with a recipientPassword one add or update call (or one template apply, use or dispatch) may carry:
 * each costs an argon2id hash (about 110 ms), so 1,000 of them would keep one request busy for two minutes.
 */
export const MAX_RECIPIENT_PASSWORDS_PER_CALL = 50;

export const HEX_COLOR_PATTERN = '^#[0-9A-Fa-f]{6}$';

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });
export const RecipientParams = Type.Object({ workflowId: IdParam, recipientId: IdParam });

const ORDER_PATTERN = '^[1-9][0-9]{0,8}$';

const RecipientAttributes = {
  name: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description:
        'Required. 2-50 characters after trimming, letters (any script) and single spaces between words. ' +
        'Missing, too short, too long, digits, symbols or double spaces: 400 RECIPIENT_NAME_INVALID (errorCode 11001).',
    }),
  ),
  emailAddress: Type.String({
    format: 'email',
    maxLength: 255,
    description:
      'Required, a valid email of at most 255 characters; stored lower-cased. An email no user holds gets a guest user.',
  }),
  recipientPassword: Type.Optional(
    Type.Union([Type.String({ maxLength: 128 }), Type.Null()], {
      description:
        'Optional access password, stored as an argon2 hash and never returned. On add: empty or null means none. ' +
        'On update: omitted keeps the stored one, empty or null removes it, any other value replaces it. ' +
        `At most ${MAX_RECIPIENT_PASSWORDS_PER_CALL} entries of one call may carry a password (400 RECIPIENT_PASSWORD_LIMIT, responseBody {limit, given}); entries without one are not counted.`,
    }),
  ),
  useDigitalCert: Type.Boolean({ description: 'Required' }),
  recipientOrder: Type.Optional(
    Type.Union(
      [
        Type.Integer({ minimum: 1, maximum: 999999999 }),
        Type.String({ pattern: ORDER_PATTERN }),
        Type.Literal(''),
        Type.Null(),
      ],
      {
        description:
          'A positive integer, as a number or a string of digits ("1"). Required (non-empty) when the workflow is ORDERED ' +
          '(else 400 INVALID_RECIPIENT); under ORDERED no two visible recipients share an order or an email (400 DUPLICATE_RECIPIENT). ' +
          'Under other sequences it is optional, stored when given, and empty or null means none.',
      },
    ),
  ),
  recipientColor: Type.String({ pattern: HEX_COLOR_PATTERN, description: 'Required, #RRGGBB' }),
  recipientRole: Type.Optional(
    Type.Union([Type.Enum(RECIPIENT_ROLES), Type.Literal(''), Type.Null()], {
      description:
        'SIGNER, APPROVER or CC; blank or missing is SIGNER. A Power Survey (SURVEY) accepts only SIGNER (400 OPERATION_IS_NOT_ALLOWED).',
    }),
  ),
  enforceIdentity: Type.Optional(
    Type.Boolean({ description: 'Gates signing behind one-time-code identity verification; default false' }),
  ),
};

export const NewRecipient = Type.Object(RecipientAttributes);
export type NewRecipient = Static<typeof NewRecipient>;

export const RecipientUpdate = Type.Object({ id: IdParam, ...RecipientAttributes });
export type RecipientUpdate = Static<typeof RecipientUpdate>;

export const AddRecipientsBody = Type.Array(NewRecipient, { minItems: 1, maxItems: MAX_RECIPIENTS_PER_CALL });
export const UpdateRecipientsBody = Type.Array(RecipientUpdate, { minItems: 1, maxItems: MAX_RECIPIENTS_PER_CALL });

export const RecipientResponse = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  emailAddress: Type.String({ description: 'lower-cased' }),
  recipientRole: Type.String({ description: 'SIGNER, APPROVER or CC' }),
  recipientOrder: Type.Union([Type.String(), Type.Null()], {
    description: 'the order as a string of digits (the API specification types it string), null when none',
  }),
  recipientColor: Type.String(),
  useDigitalCert: Type.Boolean(),
  enforceIdentity: Type.Boolean(),
  status: Type.String({ description: 'PENDING, SENT, VIEWED, SIGNED, APPROVED, DECLINED, SKIPPED or DELEGATED' }),
});
export type RecipientResponse = Static<typeof RecipientResponse>;

export const RecipientList = Type.Array(RecipientResponse);

export function toRecipientResponse(row: RecipientRow): RecipientResponse {
  return {
    id: row.id,
    name: row.name,
    emailAddress: row.email,
    recipientRole: row.role,
    recipientOrder: row.recipientOrder === null ? null : String(row.recipientOrder),
    recipientColor: row.color,
    useDigitalCert: row.useDigitalCert,
    enforceIdentity: row.enforceIdentity,
    status: row.status,
  };
}
