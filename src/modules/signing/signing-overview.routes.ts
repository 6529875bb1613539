import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { SigningOverviewService } from './signing-overview.service.ts';
import { SigningOverviewResponse, WorkflowIdParams } from './signing-overview.schemas.ts';

export function signingOverviewRoutes(overviews: SigningOverviewService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/workflow/v1/:workflowId/signing/overview',
      {
        schema: {
          tags: ['Signing'],
          summary: "The sender's message and the workflow's state, for the signing page",
          description:
            'The owner, a registered recipient once the workflow has left DRAFT, or the signing-link token of this workflow; anyone else 404. ' +
            'Holds the commence title and message (which otherwise reach the recipient only by mail) and the seal status, so the page knows when the sealed files can be downloaded.',
          params: WorkflowIdParams,
          response: { 200: SigningOverviewResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => overviews.overview(callerOf(request), request.params.workflowId),
    );
  };
}
