import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import { CeremonyResponse } from '../signing/ceremony.schemas.ts';

/** Items one batch authorization may cover. */
export const MAX_BATCH_ITEMS = 50;

export const QUALIFIERS = ['SES', 'AES', 'QES'] as const;
export type Qualifier = (typeof QUALIFIERS)[number];

const ConnectorName = Type.Enum(['CSC_2'] as const, {
  description: 'the remote signing connector; CSC_2 (Cloud Signature Consortium API v2) is the one there is',
});
const QualifierSchema = Type.Enum(QUALIFIERS, {
  description: 'SES (simple), AES (advanced) or QES (qualified electronic signature)',
});
const CredentialId = Type.String({
  minLength: 1,
  maxLength: 255,
  description: 'a credentialID of GET /workflow/v1/list/user/keys',
});
// Only the length is checked here: a string that is not the base64 of 32 bytes is simply not a prepared hash (422).
const Hash = Type.String({
  minLength: 43,
  maxLength: 44,
  description: 'the base64 SHA-256 digest answered by the preparation (base64url is accepted too)',
});
const FieldId = Type.Integer({
  minimum: 1,
  maximum: 2147483647,
  description: 'a DIGITAL_SIGNATURE field of the acting recipient',
});
const Code = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'the authorization code the provider sent to $PUBLIC_URL/csc/callback',
});

export const WorkflowIdParams = Type.Object({ workflowId: IdParam });

export const ListKeysQuery = Type.Object({ connectorName: ConnectorName });

export const CscKey = Type.Object({
  credentialID: Type.String(),
  description: Type.Union([Type.String(), Type.Null()], {
    description: "the provider's description of the credential",
  }),
  keyAlgorithm: Type.String({ description: 'RSA or ECDSA' }),
  certificate: Type.Object({
    subject: Type.String(),
    issuer: Type.String(),
    notBefore: Type.String({ description: 'ISO 8601' }),
    notAfter: Type.String({ description: 'ISO 8601' }),
  }),
  qualifiers: Type.Array(QualifierSchema, {
    description:
      "what a signature with this credential is, from the provider's signatureQualifier (eu_eidas_qes: QES; eu_eidas_aes, eu_eidas_aesqc: AES; none: SES)",
  }),
});
export const CscKeyList = Type.Array(CscKey);

export const SignCscBody = Type.Object({
  id: FieldId,
  connectorName: ConnectorName,
  qualifier: QualifierSchema,
  credentialID: Type.Optional(CredentialId),
});
export type SignCscBody = Static<typeof SignCscBody>;

export const SignCscResponse = Type.Object({
  hash: Type.String({
    description: "base64 SHA-256 of the CMS signed attributes of this field's revision: what the provider signs",
  }),
  credentialID: Type.String({ description: 'the credential the hash was prepared for' }),
  authorizeUrl: Type.String({
    description:
      "the provider's OAuth 2.0 authorization URL (scope credential) bound to the hash; it redirects to $PUBLIC_URL/csc/callback with code and state",
  }),
});

export const SignatureCscBody = Type.Object({
  hash: Hash,
  code: Code,
  connectorName: ConnectorName,
  qualifier: QualifierSchema,
  credentialID: CredentialId,
});
export type SignatureCscBody = Static<typeof SignatureCscBody>;

export const BatchSignBody = Type.Object({
  connectorName: ConnectorName,
  qualifier: QualifierSchema,
  credentialID: CredentialId,
  items: Type.Array(Type.Object({ workflowId: IdParam, id: FieldId }), {
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
    description: `the fields to sign, at most one per document, at most ${MAX_BATCH_ITEMS}`,
  }),
});
export type BatchSignBody = Static<typeof BatchSignBody>;

export const BatchSignResponse = Type.Object({
  items: Type.Array(Type.Object({ workflowId: Type.Integer(), id: Type.Integer(), hash: Type.String() })),
  authorizeUrl: Type.String({ description: 'one authorization at the provider for every hash' }),
});

export const BatchSignatureBody = Type.Object({
  code: Code,
  connectorName: ConnectorName,
  qualifier: QualifierSchema,
  credentialID: CredentialId,
  items: Type.Array(Type.Object({ workflowId: IdParam, id: FieldId, hash: Hash }), {
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
    description: 'every item the batch preparation answered, with its hash',
  }),
});
export type BatchSignatureBody = Static<typeof BatchSignatureBody>;

export const BatchSignatureResponse = Type.Object({
  items: Type.Array(CeremonyResponse, {
    description: 'one field save answer per workflow of the batch, in the order the workflows first appear in items',
  }),
});

export const CreditsQuery = Type.Object({ qualifier: QualifierSchema });

export const CreditsResponse = Type.Object({
  qualifier: QualifierSchema,
  allowed: Type.Boolean({
    description:
      "whether the signer may make one more signature of this kind in this workflow now: the workflow's plan offers it, the signer's role allows it and its quota is not used up",
  }),
  remaining: Type.Union([Type.Integer(), Type.Null()], {
    description:
      "what is left of the signer's personal quota in the workflow's organization; null: the signer is not a member, so no personal quota applies",
  }),
});

export const PlanQualifiersResponse = Type.Object({
  qualifiers: Type.Array(QualifierSchema, {
    description: 'the kinds of signature the plan offers (a quota above 0 in its package)',
  }),
});
