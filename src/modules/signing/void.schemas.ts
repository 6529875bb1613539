import { Type } from 'typebox';

/** RUNTIME.md "Voiding a sent envelope": 1-500 characters, quoted in the recipients' mail and the history. */
export const VOID_REASON_MAX = 500;

export const VoidBody = Type.Object({
  reason: Type.String({
    maxLength: 4 * VOID_REASON_MAX,
    description: `why the envelope is voided, told to every recipient who has not finished: 1-${VOID_REASON_MAX} characters after trimming (else 400 INVALID_REQUEST_BODY); stored trimmed`,
  }),
});

export const VoidResponse = Type.Object({
  workflowId: Type.Integer(),
  status: Type.Literal('VOID'),
  reason: Type.String(),
  voidedAt: Type.String({ format: 'date-time' }),
});
