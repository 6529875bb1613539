import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userOf } from '../../http/authenticate.ts';
import { requestContext } from '../../http/request-context.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { CommenceService } from './commence.service.ts';
import { CommenceBody, CommenceResponse, WorkflowIdParams, toCommenceResponse } from './commence.schemas.ts';
import { SIGNING_LINK_DAYS } from './signing-codes.ts';

export function commenceRoutes(commence: CommenceService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post('/workflow/v1/:workflowId/commence', {
      schema: {
        tags: ['Sending and signing'],
        summary: 'Send a DRAFT workflow to its recipients',
        description: 'Owner only (a recipient who can see the workflow: 400 INVALID_WORKFLOW_OWNER; anyone else 404). DRAFT → SENT, debiting 1 credit '
          + 'from the organization. ORDERED: CC rows before the first signer or approver are marked SKIPPED and sent a CC notification, then only that '
          + 'first action-required recipient gets the commence mail; later ones get it at their turn. UNORDERED: every signer and approver gets the '
          + 'commence mail at once and every CC row is notified (SKIPPED). The commence mail\'s subject is `title` (else the workflow name); its text holds '
          + `the signing link $PUBLIC_URL/sign/<code>, redeemable with GET /auth/v1/getGuestToken/{code} for ${SIGNING_LINK_DAYS} days. Records a Sent activity. `
          + 'Errors, in the order checked: SELF (the owner signs without commence) and SURVEY (Power Survey dispatch is not available) 400 OPERATION_IS_NOT_ALLOWED; '
          + 'not DRAFT 400 INVALID_WORKFLOW_STATUS; no document, no recipient, only CC recipients, or a signer without a SIGNATURE or INITIALS field '
          + '(listed in responseBody.recipientsWithoutSignatureField) 400 OPERATION_IS_NOT_ALLOWED; package expired 400 PACKAGE_EXPIRED (16003); '
          + 'service plan inactive 500 SERVICE_PLAN_INACTIVE; plan without sharing 400 SHARING_NOT_ALLOWED; no credit left 400 INSUFFICIENT_CREDITS.',
        params: WorkflowIdParams,
        body: CommenceBody,
        response: { 200: CommenceResponse, ...errorResponses },
      },
      config: { auth: 'user' },
    }, async (request) => toCommenceResponse(await commence.commence(userOf(request), request.params.workflowId, request.body, requestContext(request))));
  };
}
