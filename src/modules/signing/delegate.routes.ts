import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/authenticate.ts';
import { requestContext } from '../../http/request-context.ts';
import { errorResponses } from '../../http/schemas.ts';
import { RecipientResponse, toRecipientResponse } from '../recipients/recipients.schemas.ts';
import type { DelegateService } from './delegate.service.ts';
import { DelegateBody, DelegateParams } from './delegate.schemas.ts';

export function delegateRoutes(delegations: DelegateService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/workflow/v1/:workflowId/recipients/:recipientId/delegate',
      {
        schema: {
          tags: ['Recipients'],
          summary: "Hand a recipient's task to someone else",
          description:
            'Caller: the owner, or that recipient itself (its signing-link token or its user token); another participant 403 USER_NOT_HAVE_ACCESS; ' +
            'others 404. Only once sent: DRAFT or VOID/COMPLETED 400 INVALID_WORKFLOW_STATUS; SELF 400 OPERATION_IS_NOT_ALLOWED. The row must be a SIGNER or ' +
            'APPROVER that has not finished (else 400 OPERATION_IS_NOT_ALLOWED); a recipient delegating its own flagged row must have verified its identity ' +
            '(403 IDENTITY_NOT_VERIFIED). The original row becomes DELEGATED (it can no longer act and its signing link no longer redeems); a new row with ' +
            "the delegate's name and email takes its order, role, colour, useDigitalCert and enforceIdentity (not its access password) and its fields, emptied. " +
            "When it was already the original's turn the delegate gets the commence mail at once, else at its turn. Records a Delegated activity. " +
            'Answers 200 with the new recipient.',
          params: DelegateParams,
          body: DelegateBody,
          response: { 200: RecipientResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        toRecipientResponse(
          await delegations.delegate(
            callerOf(request),
            request.params.workflowId,
            request.params.recipientId,
            request.body,
            requestContext(request),
          ),
        ),
    );
  };
}
