import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/authenticate.ts';
import { requestContext } from '../../http/request-context.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { DeclineService } from './decline.service.ts';
import {
  DeclineBody,
  DeclineResponse,
  RejectionDetails,
  WorkflowIdParams,
  toRejectionDetail,
} from './decline.schemas.ts';

export function declineRoutes(declines: DeclineService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/workflow/v1/:workflowId/decline',
      {
        schema: {
          tags: ['Sending and signing'],
          summary: 'Decline to sign or approve; the workflow becomes VOID',
          description:
            'Caller: a signer or approver of the workflow (signing-link token, or its own user token) whose turn it is and who has not finished; ' +
            'the owner without a recipient row, CC recipients, finished or not-yet-dispatched recipients: 400 OPERATION_IS_NOT_ALLOWED; workflow not SENT: ' +
            '400 INVALID_WORKFLOW_STATUS; enforceIdentity without a verified code: 403 IDENTITY_NOT_VERIFIED; others 404. The recipient becomes DECLINED ' +
            'with the reason, the workflow VOID (read-only), a Declined activity is recorded, the owner gets a mail (kind DECLINED) with the reason and every ' +
            'other recipient already reached a mail (kind VOIDED). The reason is readable through reject-details.',
          params: WorkflowIdParams,
          body: DeclineBody,
          response: { 200: DeclineResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => {
        const result = await declines.decline(
          callerOf(request),
          request.params.workflowId,
          request.body.reason,
          requestContext(request),
        );
        return {
          workflowId: result.workflowId,
          status: 'VOID' as const,
          recipientId: result.recipientId,
          reason: result.reason,
          rejectedAt: result.rejectedAt.toISOString(),
        };
      },
    );

    app.get(
      '/workflow/v1/:workflowId/reject-details',
      {
        schema: {
          tags: ['Sending and signing'],
          summary: 'Who declined, and why',
          description:
            'Caller: the owner, or a recipient of the workflow (user token once sent, or its signing-link token); others 404. ' +
            'An array of rejection details, oldest first: empty when nobody declined; at most one for an ordinary workflow; a Power Survey parent ' +
            'collects the declines of all its children.',
          params: WorkflowIdParams,
          response: { 200: RejectionDetails, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        (await declines.rejectDetails(callerOf(request), request.params.workflowId)).map(toRejectionDetail),
    );
  };
}
