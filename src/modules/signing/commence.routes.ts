import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userOf } from '../../http/authenticate.ts';
import { requestContext } from '../../http/request-context.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { CommenceService } from './commence.service.ts';
import { CommenceBody, CommenceResponse, WorkflowIdParams, toCommenceResponse } from './commence.schemas.ts';
import { SIGNING_LINK_DAYS } from './signing-codes.ts';

export function commenceRoutes(commence: CommenceService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/workflow/v1/:workflowId/commence',
      {
        schema: {
          tags: ['Sending and signing'],
          summary: 'Send a DRAFT workflow to its recipients',
          description:
            'Owner only (a recipient who can see the workflow: 400 INVALID_WORKFLOW_OWNER; anyone else 404). DRAFT → SENT, debiting 1 credit ' +
            'from the organization. ORDERED: CC rows before the first signer or approver are marked SKIPPED and sent a CC notification, then only that ' +
            'first action-required recipient gets the commence mail; later ones get it at their turn. UNORDERED: every signer and approver gets the ' +
            "commence mail at once and every CC row is notified (SKIPPED). The commence mail's subject is `title` (else the workflow name); its text holds " +
            `the signing link $PUBLIC_URL/sign/<code>, redeemable with GET /auth/v1/getGuestToken/{code} for ${SIGNING_LINK_DAYS} days. Records a Sent activity. ` +
            'A Power Survey (SURVEY) answers 202 instead: its checks (exactly one document: 400 SURVEY_DOCUMENT_COUNT 19101; exactly one SIGNATURE or DIGITAL_SIGNATURE field, unassigned: ' +
            '400 SURVEY_SIGNATURE_FIELD 19102; a label on every field but SIGNATURE, DIGITAL_SIGNATURE, INITIALS and STAMP: 400 SURVEY_FIELD_LABEL_MISSING 19103; SIGNER recipients, ' +
            "at least one and at most the plan's powerSurveyRecipientLimit: 400 SURVEY_RECIPIENT_LIMIT 19104), then the plan as below, then one credit per recipient debited at once " +
            '(400 INSUFFICIENT_CREDITS when fewer are left); the survey becomes SENT and one child workflow per recipient is created and mailed in the background ' +
            '(GET /document/v1/power-survey/{id}/dispatch-progress). Commencing a SENT survey again answers 202 and creates nothing twice. ' +
            'Errors, in the order checked: SELF (the owner signs without commence) 400 OPERATION_IS_NOT_ALLOWED; ' +
            'not DRAFT 400 INVALID_WORKFLOW_STATUS; no document, no recipient or only CC recipients 400 OPERATION_IS_NOT_ALLOWED ' +
            '(a signer without a signature field is sent and finishes when its required fields are filled); package expired 400 PACKAGE_EXPIRED (16003); ' +
            'service plan inactive 500 SERVICE_PLAN_INACTIVE; plan without sharing 400 SHARING_NOT_ALLOWED; no credit left 400 INSUFFICIENT_CREDITS.',
          params: WorkflowIdParams,
          body: CommenceBody,
          response: { 200: CommenceResponse, 202: CommenceResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request, reply) => {
        const result = await commence.commence(
          userOf(request),
          request.params.workflowId,
          request.body,
          requestContext(request),
        );
        // A Power Survey's children are created and mailed by a job (surveys/survey-dispatch.ts): 202.
        if ('dispatch' in result) reply.code(202);
        return toCommenceResponse(result);
      },
    );
  };
}
