import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/authenticate.ts';
import { errorResponses, pageOffset } from '../../http/schemas.ts';
import { contentDisposition } from '../downloads/downloads.schemas.ts';
import type { SurveyService } from './surveys.service.ts';
import {
  ChildrenQuery,
  CsvResponse,
  DispatchProgress,
  ExportQuery,
  SurveyChildrenPage,
  SurveyParams,
  toChildrenPage,
  toProgress,
} from './surveys.schemas.ts';

const WHO =
  "The survey's owner only: another caller who can see the workflow gets 400 INVALID_WORKFLOW_OWNER, anyone else 404; " +
  'a workflow that is not a Power Survey parent (a child included) is 400 NOT_A_SURVEY (19105).';

export function surveyRoutes(surveys: SurveyService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Power Survey'];

    app.get(
      '/document/v1/power-survey/:parentWorkflowId/dispatch-progress',
      {
        schema: {
          tags,
          summary: 'How far the dispatch of a Power Survey has come',
          description: `${WHO} dispatchedCount reaches totalRecipients when every recipient has its child workflow and commence mail.`,
          params: SurveyParams,
          response: { 200: DispatchProgress, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => toProgress(await surveys.progress(callerOf(request), request.params.parentWorkflowId)),
    );

    app.get(
      '/document/v1/power-survey/:parentWorkflowId/workflows',
      {
        schema: {
          tags,
          summary: 'The child workflows of a Power Survey, one page',
          description: `${WHO} One child per recipient in dispatch order; the counts cover the whole survey, not the page.`,
          params: SurveyParams,
          querystring: ChildrenQuery,
          response: { 200: SurveyChildrenPage, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => {
        const { limit, offset } = pageOffset(request.query);
        const page = await surveys.children(callerOf(request), request.params.parentWorkflowId, limit, offset);
        return toChildrenPage(page.rows, page.counts);
      },
    );

    app.get(
      '/document/v1/power-survey/:parentWorkflowId/export.csv',
      {
        schema: {
          tags,
          summary: "Each recipient's outcome as CSV",
          description:
            `${WHO} Streamed, one line per child: workflowId, recipientName, recipientEmail, status, recipientStatus, respondedAt (ISO 8601), ` +
            'declineReason; includeFields=true adds one column per distinct field label (image fields excluded) with what the recipient filled in. ' +
            'Every cell is quoted; a cell starting with =, +, -, @, tab or carriage return gets a leading single quote so spreadsheets do not run it as a formula.',
          params: SurveyParams,
          querystring: ExportQuery,
          produces: ['text/csv'],
          response: { 200: CsvResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request, reply) => {
        const csv = await surveys.exportCsv(
          callerOf(request),
          request.params.parentWorkflowId,
          request.query.includeFields,
        );
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', contentDisposition(`${csv.name}.csv`))
          .header('x-content-type-options', 'nosniff')
          .send(csv.stream);
      },
    );
  };
}
