import { Type, type Static } from 'typebox';

export const VerifyForm = Type.Object(
  {
    file: Type.String({ format: 'binary', description: 'the PDF to check, at most 25 MB; nothing is stored' }),
  },
  { nullable: true },
);

const Certificate = Type.Object({
  subject: Type.String(),
  issuer: Type.String(),
  notBefore: Type.String({ format: 'date-time' }),
  notAfter: Type.String({ format: 'date-time' }),
  trustedByPlatform: Type.Boolean({
    description: "the certificate chains to this service's platform CA (checked at the time of the request)",
  }),
});

export const VerifySignature = Type.Object({
  fieldName: Type.String(),
  signerName: Type.Union([Type.String(), Type.Null()], {
    description: "the signing certificate's common name; null when the CMS does not carry the signer's certificate",
  }),
  signedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: "the time the signer claims (the signature dictionary's /M, else the CMS signing-time); not trusted",
  }),
  timestamp: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      'the trusted time of an RFC 3161 time-stamp over the signature (for a document time-stamp, its own time); null when none',
  }),
  coversWholeDocument: Type.Boolean({
    description: 'its byte range ends at the end of the file: nothing was appended after it',
  }),
  integrity: Type.Union([Type.Literal('VALID'), Type.Literal('INVALID')], {
    description: 'the signed bytes are unchanged and the signature matches its certificate',
  }),
  problem: Type.Union([Type.String(), Type.Null()], { description: 'why integrity is INVALID; null when VALID' }),
  kind: Type.Union([Type.Literal('SIGNATURE'), Type.Literal('DOCUMENT_TIMESTAMP')]),
  certificate: Type.Union([Certificate, Type.Null()]),
});

export const VerifyResponse = Type.Object({
  signatures: Type.Array(VerifySignature, { description: 'oldest first (by where each signed range ends)' }),
  platformRecord: Type.Union(
    [
      Type.Object({
        workflowId: Type.Integer(),
        completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
        documentName: Type.String(),
      }),
      Type.Null(),
    ],
    { description: 'set when the file is, byte for byte, a document this service sealed' },
  ),
});
export type VerifyResponse = Static<typeof VerifyResponse>;
