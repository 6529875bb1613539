import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { HistoryService } from './history.service.ts';
import { HistoryQuery, HistoryResponse, WorkflowIdParams, toHistoryResponse } from './history.schemas.ts';

const ACCESS =
  'Access: the owner always; a recipient (user or signing-link token) once the workflow has left DRAFT ' +
  '(400 OPERATION_IS_NOT_ALLOWED before); anyone but the owner of a SELF workflow gets 400 INVALID_WORKFLOW_OWNER; ' +
  'everyone else 404.';

export function historyRoutes(history: HistoryService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/workflow/v1/:workflowId/history',
      {
        schema: {
          tags: ['History'],
          summary: 'Workflow history: metadata and the activity timeline',
          description: `${ACCESS} Times are YYYY-MM-DD HH:MM:SS in metadata.timeZone. The timeline has one Created row (the first upload) and omits assistant routing rows. locale is accepted and has no effect.`,
          params: WorkflowIdParams,
          querystring: HistoryQuery,
          response: { 200: HistoryResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => toHistoryResponse(await history.getHistory(callerOf(request), request.params.workflowId)),
    );

    app.get(
      '/workflow/v1/evidence-report/:workflowId',
      {
        schema: {
          tags: ['History'],
          summary: 'HTML evidence report of a completed workflow',
          description:
            `${ACCESS} Only once COMPLETED (else 400 INVALID_WORKFLOW_STATUS). Lists every recorded activity (time, actor, IP, channel, user agent, action, sentence, row hash), ` +
            'the result of recomputing the activity hash chain (INTACT, or TAMPERED with the rows where it breaks), the consent text and its SHA-256, ' +
            "each document's SHA-256 before and after sealing with a re-hash of the stored files, and the seal certificate. " +
            'Asked for while the seal is still pending, it waits for the seal up to SEAL_WAIT_SECONDS (default 20 s), then answers 503 SERVICE_UNAVAILABLE with Retry-After; ' +
            'a FAILED seal is reported in the page.',
          params: WorkflowIdParams,
          produces: ['text/html'],
          response: {
            200: Type.String({ description: 'text/html; charset=utf-8' }),
            ...errorResponses,
            503: Type.Ref('ErrorResponse'),
          },
        },
        config: { auth: 'participant' },
      },
      async (request, reply) => {
        const html = await history.getEvidenceReport(callerOf(request), request.params.workflowId);
        // Defence in depth: everything is escaped, and the page may run no script and load nothing.
        return reply
          .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
          .header('x-content-type-options', 'nosniff')
          .type('text/html; charset=utf-8')
          .send(html);
      },
    );
  };
}
