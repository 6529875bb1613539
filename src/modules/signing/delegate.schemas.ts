import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';

export const DelegateParams = Type.Object({ workflowId: IdParam, recipientId: IdParam });

export const DelegateBody = Type.Object({
  name: Type.String({
    maxLength: 200,
    description:
      "The delegate's name: 2-50 characters after trimming, letters (any script; a hyphen or apostrophe between two letters) and single spaces between words (else 400 RECIPIENT_NAME_INVALID, 11001)",
  }),
  emailAddress: Type.String({
    format: 'email',
    maxLength: 255,
    description:
      "The delegate's email (at most 255 characters; stored lower-cased). An email no user holds gets a guest user. An email already on an active row of this workflow: 400 DUPLICATE_RECIPIENT",
  }),
});
export type DelegateBody = Static<typeof DelegateBody>;
