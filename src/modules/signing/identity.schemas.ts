import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

export const SendOtpResponse = Type.Object({
  expiresAt: Type.String({
    format: 'date-time',
    description: 'the code stops working at this instant (10 minutes after sending)',
  }),
  resendAfterSeconds: Type.Integer({ description: 'how long until another code may be requested (30)' }),
});

export const VerifyOtpBody = Type.Object({
  code: Type.Union([Type.String({ maxLength: 32 }), Type.Integer()], {
    description:
      'the 6 digits from the mail; a number is left-padded with zeros. Any other value counts as a wrong attempt',
  }),
});
export type VerifyOtpBody = Static<typeof VerifyOtpBody>;

export const VerifyOtpResponse = Type.Object({ verified: Type.Literal(true) });

export const VerifyPasswordBody = Type.Object({
  password: Type.String({
    maxLength: 128,
    description: 'the recipient password the sender set on this recipient (compared as given, not trimmed)',
  }),
});
export type VerifyPasswordBody = Static<typeof VerifyPasswordBody>;

export const VerifyPasswordResponse = Type.Object({ verified: Type.Literal(true) });
