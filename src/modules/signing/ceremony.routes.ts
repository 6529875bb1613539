import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/authenticate.ts';
import { requestContext } from '../../http/request-context.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { CeremonyService } from './ceremony.service.ts';
import {
  ApproveBody,
  CEREMONY_BODY_LIMIT,
  CeremonyResponse,
  DisclosureQuery,
  DisclosureResponse,
  DocumentIdParams,
  SaveFieldsBody,
  SignBody,
  WorkflowIdParams,
} from './ceremony.schemas.ts';
import { disclosureFor } from './disclosures.ts';

const ACTING =
  'Callers: a recipient of the workflow, with the signing-link (guest) token of its row or its own user token; ' +
  'the owner of a SELF workflow signs its DRAFT with its user token (no commence). The call acts as the row the token names ' +
  "(guest) or the caller's row. Refused: a workflow the caller cannot see 404; VOID or COMPLETED (read-only), or a non-SELF " +
  'workflow still in DRAFT, 400 INVALID_WORKFLOW_STATUS; no row, a CC row, a row that already finished (its link still reads and ' +
  'downloads), or a row whose ORDERED turn has not come 400 OPERATION_IS_NOT_ALLOWED; enforceIdentity without a passed one-time ' +
  'code 403 IDENTITY_NOT_VERIFIED. ';

const FINISH =
  'A SIGNER has finished when, after the call, none of its required fields and none of its SIGNATURE or INITIALS ' +
  'fields is empty: it becomes SIGNED (Signed activity), the next recipient is dispatched, and when nobody action-required is ' +
  'left the workflow becomes COMPLETED in the same transaction (Completed activity, seal PENDING, the sealing job queued; the ' +
  'sealed PDF and the completion mails follow from the job). The first save, sign or approve of a recipient records a ' +
  'CONSENT_ACCEPTED activity whose consent holds the disclosure text (GET /workflow/v1/signing/disclosure), its SHA-256, the ' +
  'recipient, IP address, channel and user agent. Concurrent calls on one workflow serialize: one completion, one seal, one set ' +
  'of mails. ';

const FIELD_RULES =
  "Each field must be in this workflow (else 404) and belong to the acting row (another recipient's field: 403 " +
  'USER_NOT_HAVE_ACCESS; a STAMP also refuses a hidden assistant row, even its own: 403). Nothing is written unless every ' +
  `entry is valid. Bodies above ${CEREMONY_BODY_LIMIT / 1024 / 1024} MB are refused with 400 PAYLOAD_TOO_LARGE. `;

export function ceremonyRoutes(ceremony: CeremonyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/workflow/v1/:documentId/fields/save',
      {
        bodyLimit: CEREMONY_BODY_LIMIT,
        schema: {
          tags: ['Signing'],
          summary: "Save the acting recipient's field values",
          description:
            `${ACTING}${FIELD_RULES}documentId names any document of the workflow; the fields may be on any of its documents. ` +
            `Duplicate ids 400 INVALID_REQUEST_BODY; type different from the field's fieldType 400 INVALID_FIELD; a value invalid for ` +
            `its type 400 INVALID_FIELD_VALUE; an empty SIGNATURE or INITIALS, or an empty required field, 400 REQUIRED_FIELD_EMPTY. ` +
            `An empty array saves nothing and only runs the finish check. ${FINISH}`,
          params: DocumentIdParams,
          body: SaveFieldsBody,
          response: { 200: CeremonyResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        ceremony.saveFields(callerOf(request), request.params.documentId, request.body, requestContext(request)),
    );

    app.post(
      '/workflow/v1/:workflowId/sign',
      {
        bodyLimit: CEREMONY_BODY_LIMIT,
        schema: {
          tags: ['Signing'],
          summary: 'Sign one SIGNATURE or INITIALS field',
          description: `${ACTING}${FIELD_RULES}Saves the image into the field (any other type: 400 INVALID_FIELD), with the rules of fields/save. ${FINISH}`,
          params: WorkflowIdParams,
          body: SignBody,
          response: { 200: CeremonyResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        ceremony.signField(callerOf(request), request.params.workflowId, request.body, requestContext(request)),
    );

    app.post(
      '/workflow/v1/:workflowId/approve',
      {
        schema: {
          tags: ['Signing'],
          summary: 'Approve as an APPROVER',
          description:
            `${ACTING}Only an APPROVER row approves (a SIGNER: 400 OPERATION_IS_NOT_ALLOWED); its own required fields must be ` +
            'filled first (400 REQUIRED_FIELD_EMPTY). The row becomes APPROVED with an Approved activity carrying the comment; then, as ' +
            'after a signature, the next recipient is dispatched or the workflow completes.',
          params: WorkflowIdParams,
          body: ApproveBody,
          response: { 200: CeremonyResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        ceremony.approve(callerOf(request), request.params.workflowId, request.body, requestContext(request)),
    );

    app.get(
      '/workflow/v1/signing/disclosure',
      {
        schema: {
          tags: ['Signing'],
          summary: 'The electronic-signature disclosure',
          description:
            "The verbatim text a signing client shows before a recipient's first save, in `lang` (en, de, fr, es, it, nl, pt or pl; " +
            'a regional tag counts by its language, any other is answered in English). A client that shows another language than ' +
            'English names the text it showed by sending its textHash as the header X-Disclosure-SHA256 on the fields/save, sign and ' +
            "approve calls: the recipient's consent record stores that text and hash (without the header, the English one; a hash of " +
            'no current text is refused, 400 INVALID_REQUEST_BODY). Public.',
          querystring: DisclosureQuery,
          response: { 200: DisclosureResponse },
        },
        config: { auth: 'public' },
      },
      async (request) => disclosureFor(request.query.lang),
    );
  };
}
