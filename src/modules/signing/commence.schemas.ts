import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

/** Limits of the commence texts: the title becomes a mail subject, the message a paragraph of the mail. */
export const COMMENCE_TITLE_MAX = 200;
export const COMMENCE_MESSAGE_MAX = 5000;

export const CommenceBody = Type.Object({
  title: Type.Optional(
    Type.Union([Type.String({ maxLength: COMMENCE_TITLE_MAX }), Type.Null()], {
      description: `Subject of the commence mails (at most ${COMMENCE_TITLE_MAX} characters, trimmed); empty or absent: the workflow name is the subject`,
    }),
  ),
  message: Type.Optional(
    Type.Union([Type.String({ maxLength: COMMENCE_MESSAGE_MAX }), Type.Null()], {
      description: `A note to the recipients, quoted in every commence mail (at most ${COMMENCE_MESSAGE_MAX} characters, trimmed)`,
    }),
  ),
});
export type CommenceBody = Static<typeof CommenceBody>;

export const CommenceResponse = Type.Object({
  workflowId: Type.Integer(),
  status: Type.String({ description: 'SENT' }),
  sentAt: Type.String({ format: 'date-time' }),
  dispatchedRecipientIds: Type.Array(Type.Integer(), {
    description:
      'the recipients mailed a signing link now (ORDERED: the first action-required one; UNORDERED: every signer and approver)',
  }),
  credits: Type.Integer({
    description:
      "the organization's credit balance after this send's debit of 1 (a Power Survey: of one per recipient; 0 when a SENT survey is commenced again)",
  }),
});

export function toCommenceResponse(result: {
  workflowId: number;
  sentAt: Date;
  dispatchedRecipientIds: number[];
  credits: number;
}): Static<typeof CommenceResponse> {
  return {
    workflowId: result.workflowId,
    status: 'SENT',
    sentAt: result.sentAt.toISOString(),
    dispatchedRecipientIds: result.dispatchedRecipientIds,
    credits: result.credits,
  };
}
