import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/authenticate.ts';
import { requestContext } from '../../http/request-context.ts';
import { errorResponses } from '../../http/schemas.ts';
import { WorkflowIdParams } from './decline.schemas.ts';
import { VoidBody, VoidResponse } from './void.schemas.ts';
import type { VoidService } from './void.service.ts';

export function voidRoutes(voids: VoidService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/workflow/v1/:workflowId/void',
      {
        schema: {
          tags: ['Sending and signing'],
          summary: 'Void a sent envelope',
          description:
            'Caller: the owner (a recipient who can see it: 400 INVALID_WORKFLOW_OWNER; others 404). Only a SENT workflow (else 400 ' +
            'INVALID_WORKFLOW_STATUS). The workflow becomes VOID and read-only; every recipient who was sent it and has not finished gets a mail ' +
            "(kind VOIDED) with the reason, and their signing links answer 400 LINK_EXPIRED from then on (a finished recipient's link still reads " +
            'and downloads what they signed). A Voided activity is recorded and business apps receive workflow.voided. A Power Survey parent voids ' +
            'its pending children the same way; completed children keep their signature.',
          params: WorkflowIdParams,
          body: VoidBody,
          response: { 200: VoidResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => {
        const result = await voids.voidWorkflow(
          callerOf(request),
          request.params.workflowId,
          request.body.reason,
          requestContext(request),
        );
        return {
          workflowId: result.workflowId,
          status: 'VOID' as const,
          reason: result.reason,
          voidedAt: result.voidedAt.toISOString(),
        };
      },
    );
  };
}
