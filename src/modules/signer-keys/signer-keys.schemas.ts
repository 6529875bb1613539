import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

export const SigningKeyStatusResponse = Type.Object(
  {
    useDigitalCert: Type.Boolean({
      description:
        "whether the caller's recipient row signs its DIGITAL_SIGNATURE fields with a personal certificate and the signing password",
    }),
    certifiable: Type.Boolean({
      description:
        'whether the platform may create or open a key for this caller: a registered user whose address is verified, signing with their own token, or a ' +
        "signing link the platform's own mail delivered; false: a DIGITAL_SIGNATURE save answers 403 EMAIL_NOT_VERIFIED (confirm the address first)",
    }),
    provisioned: Type.Boolean({
      description:
        "whether the person (the row's email) already has a signing key: false, the first signing password creates it; true, the same password must be entered",
    }),
    minPasswordLength: Type.Integer({ description: 'the shortest signing password accepted when the key is created' }),
    certificate: Type.Union(
      [
        Type.Object({
          subject: Type.String({ description: 'the certificate subject (CN = the name, E = the email)' }),
          issuer: Type.String({ description: 'the platform CA' }),
          serialNumber: Type.String({ description: 'hex' }),
          notBefore: Type.String({ format: 'date-time' }),
          notAfter: Type.String({ format: 'date-time' }),
        }),
        Type.Null(),
      ],
      { description: "the person's current signing certificate; null before the first signature" },
    ),
  },
  { description: "The local signing certificate of the caller's recipient row" },
);
export type SigningKeyStatusResponse = Static<typeof SigningKeyStatusResponse>;

export const ResetCodeResponse = Type.Object({
  expiresAt: Type.String({
    format: 'date-time',
    description: 'the code stops working at this instant (10 minutes after sending)',
  }),
  resendAfterSeconds: Type.Integer({ description: 'how long until another code may be requested (30)' }),
});

export const ResetBody = Type.Object({
  code: Type.Union([Type.String({ maxLength: 32 }), Type.Integer({ minimum: 0 })], {
    description: 'the 6 digits from the mail; a number is left-padded with zeros',
  }),
  password: Type.String({
    maxLength: 256,
    description: 'the new signing password (at least minPasswordLength characters); it wraps the new key',
  }),
});
export type ResetBody = Static<typeof ResetBody>;
