import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../../http/authenticate.ts';
import { requestContext } from '../../http/request-context.ts';
import { errorResponses } from '../../http/schemas.ts';
import { CeremonyResponse } from '../signing/ceremony.schemas.ts';
import type { RemoteSigningService } from './remote-signing.service.ts';
import {
  BatchSignBody,
  BatchSignResponse,
  BatchSignatureBody,
  BatchSignatureResponse,
  CreditsQuery,
  CreditsResponse,
  CscKeyList,
  ListKeysQuery,
  PlanQualifiersResponse,
  SignCscBody,
  SignCscResponse,
  SignatureCscBody,
  WorkflowIdParams,
} from './remote-signing.schemas.ts';

const tags = ['Remote signing'];
const remoteErrors = { ...errorResponses, 422: Type.Ref('ErrorResponse'), 503: Type.Ref('ErrorResponse') };

const ACCOUNT =
  "The caller's account at the CSC provider is the digitalSignatures.csc.userName its user saved with PUT /user/v1/settings/signatures, " +
  "else (a signing link, or nothing saved) the recipient's email address; the service lists its credentials with its own client credentials. ";
const PROVIDER =
  'CSC_BASE_URL unset: 400 CSC_NOT_CONFIGURED. The provider unreachable, slower than CSC_TIMEOUT_SECONDS, answering 5xx or refusing ' +
  "the service's client credentials: 503 CSC_PROVIDER_UNAVAILABLE. ";
const ACTING =
  'Callers: the recipient the DIGITAL_SIGNATURE field belongs to, with its signing-link (guest) token or its own user token, when it ' +
  'may act (its turn, not finished, identity step-up passed: as fields/save). A workflow the caller cannot see 404; a field not in it 404; ' +
  "another recipient's field 403 USER_NOT_HAVE_ACCESS; a field that is not DIGITAL_SIGNATURE 400 INVALID_FIELD; a field already signed into " +
  "the document 400 SIGNED_FIELD_LOCKED. The workflow's organization must offer the qualifier (400 QUALIFIER_NOT_IN_PLAN) and the signer's " +
  'role and quota allow it (403 ROLE_SIGNATURE_NOT_ALLOWED, 400 SIGNATURE_QUOTA_EXCEEDED). ';
const PREPARE =
  "Lays out the field's signature as an incremental update of the document's newest signed revision (the values shown drawn " +
  "in) with the credential's certificate and keeps it for 15 minutes. The credential must be one of the caller's at the provider, able to " +
  "sign now, whose qualifiers include the qualifier asked for (else 422 CSC_CREDENTIAL_INVALID). The authorizeUrl is the provider's " +
  'OAuth 2.0 authorization request (scope credential, the hashes base64url, numSignatures, SHA-256, PKCE S256, state) with redirect_uri ' +
  '$PUBLIC_URL/csc/callback. Preparing a field again replaces its earlier preparation. ';
const SIGN =
  'Exchanges the code for the credential authorization, has the provider sign the prepared hashes (signatures/signHash) and checks ' +
  "every value against the credential's certificate over its hash before anything is appended. 422: a hash that is not an open " +
  'preparation of the caller for this workflow and qualifier (never prepared, used, expired, prepared again) CSC_HASH_NOT_PREPARED; a ' +
  'credentialID other than the prepared one CSC_CREDENTIAL_INVALID; a wrong, reused or expired code or the provider refusing the ' +
  'authorization or the signature CSC_AUTHORIZATION_INVALID; a signature that does not verify SIGNER_SIGNATURE_MISMATCH. Another ' +
  'signature appended to the document since the preparation: 409 SIGNER_REVISION_STALE (prepare again). Nothing is appended, counted or ' +
  'saved unless everything succeeds. Each appended signature counts one of its qualifier (SES electronic, AES advanced, QES qualified) ' +
  "against the signer's quota; the field then counts as saved: the consent is recorded on the first action and the finish check of " +
  'fields/save runs (the recipient may become SIGNED and the workflow COMPLETED). ';

export function remoteSigningRoutes(remote: RemoteSigningService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/workflow/v1/list/user/keys',
      {
        schema: {
          tags,
          summary: "The caller's credentials at the remote signing provider",
          description:
            `Callers: a user, or a recipient with its signing-link token. ${ACCOUNT}Only credentials that can sign now (key enabled, ` +
            `certificate valid, RSA or ECDSA) are listed. ${PROVIDER}`,
          querystring: ListKeysQuery,
          response: { 200: CscKeyList, ...remoteErrors },
        },
        config: { auth: 'participant' },
      },
      async (request) => remote.listKeys(callerOf(request)),
    );

    app.post(
      '/workflow/v1/:workflowId/sign/csc',
      {
        schema: {
          tags,
          summary: 'Prepare a remote signature of a DIGITAL_SIGNATURE field',
          description: `${ACTING}${ACCOUNT}Without credentialID: the first listed credential whose qualifiers include the qualifier. ${PREPARE}${PROVIDER}`,
          params: WorkflowIdParams,
          body: SignCscBody,
          response: { 200: SignCscResponse, ...remoteErrors },
        },
        config: { auth: 'participant' },
      },
      async (request) => remote.prepare(callerOf(request), request.params.workflowId, request.body),
    );

    app.post(
      '/workflow/v1/:workflowId/signature/csc',
      {
        schema: {
          tags,
          summary: "Complete a remote signature with the provider's authorization code",
          description: `${ACTING}${SIGN}A preparation made by the batch call is completed by the batch call only. ${PROVIDER}`,
          params: WorkflowIdParams,
          body: SignatureCscBody,
          response: { 200: CeremonyResponse, ...remoteErrors },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        remote.complete(callerOf(request), request.params.workflowId, request.body, requestContext(request)),
    );

    app.post(
      '/workflow/v1/sign/csc/batch',
      {
        schema: {
          tags,
          summary: 'Prepare remote signatures of several documents under one authorization',
          description:
            `${ACTING}Each item is checked so; the fields must be on distinct documents (else 400 INVALID_REQUEST_BODY); any item refused ` +
            `refuses the batch and nothing is prepared. ${PREPARE}One authorization covers every hash. ${PROVIDER}`,
          body: BatchSignBody,
          response: { 200: BatchSignResponse, ...remoteErrors },
        },
        config: { auth: 'participant' },
      },
      async (request) => remote.prepareBatch(callerOf(request), request.body),
    );

    app.post(
      '/workflow/v1/signature/csc/batch',
      {
        schema: {
          tags,
          summary: 'Complete a batch of remote signatures: all or none',
          description:
            `${ACTING}${SIGN}The items must be exactly those of one batch preparation (else 422 CSC_HASH_NOT_PREPARED). All are ` +
            `signed in one transaction: one item refused (its workflow voided, the signer delegated, a stale document, a bad signature) refuses ` +
            `them all and nothing is appended. ${PROVIDER}`,
          body: BatchSignatureBody,
          response: { 200: BatchSignatureResponse, ...remoteErrors },
        },
        config: { auth: 'participant' },
      },
      async (request) => remote.completeBatch(callerOf(request), request.body, requestContext(request)),
    );

    app.get(
      '/workflow/v1/check-user-credits/:workflowId',
      {
        schema: {
          tags,
          summary: 'Whether the signer may make a signature of this kind in this workflow',
          description:
            "Callers: the owner or a recipient of the workflow (404 otherwise). The signer is the caller's recipient row (the owner " +
            "without one: the caller). allowed: the workflow's organization's plan offers the qualifier, its package stands, the signer's role " +
            "allows it and its personal quota (role quota, else the package's) is not used up; remaining: what is left of that quota, null for " +
            'a signer who is not a member of the organization (no personal quota). Remote signing is not needed for this call.',
          params: WorkflowIdParams,
          querystring: CreditsQuery,
          response: { 200: CreditsResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => remote.checkCredits(callerOf(request), request.params.workflowId, request.query.qualifier),
    );

    app.get(
      '/workflow/v1/service-plan-qualifier',
      {
        schema: {
          tags,
          summary: "The kinds of signature the caller's plan offers",
          description:
            "Callers: a user (its organization's plan) or a signing-link token (the plan of the workflow's organization). The " +
            'qualifiers whose quota the package sets above 0, of SES, AES and QES.',
          response: { 200: PlanQualifiersResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => remote.planQualifiers(callerOf(request)),
    );
  };
}
