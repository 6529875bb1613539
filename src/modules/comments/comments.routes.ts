import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf } from '../../http/authenticate.ts';
import { requestContext } from '../../http/request-context.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { CommentService } from './comments.service.ts';
import {
  CommentList,
  CommentResponse,
  CreateCommentBody,
  WorkflowIdParams,
  toCommentResponse,
} from './comments.schemas.ts';

const CALLERS =
  'Callers: the workflow owner, or a recipient of it (user token once sent, or the signing-link token of this workflow); ' +
  'anyone else 403 USER_NOT_HAVE_ACCESS; a workflow that does not exist 404.';

export function commentRoutes(comments: CommentService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/workflow/v1/:workflowId/comments',
      {
        schema: {
          tags: ['Comments'],
          summary: 'Add a comment',
          description:
            `${CALLERS} The body is trimmed and must then hold 1-3000 characters (400 INVALID_REQUEST_BODY). fieldId must name a field of this workflow. ` +
            'documentId is accepted and never stored. A VOID workflow is read-only (400 INVALID_WORKFLOW_STATUS). Records a COMMENT_ADDED activity (action "Comment added") naming the author, best-effort. Answers 200 with the comment.',
          params: WorkflowIdParams,
          body: CreateCommentBody,
          response: { 200: CommentResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        toCommentResponse(
          await comments.addComment(
            callerOf(request),
            request.params.workflowId,
            request.body,
            requestContext(request),
          ),
        ),
    );

    app.get(
      '/workflow/v1/:workflowId/comments',
      {
        schema: {
          tags: ['Comments'],
          summary: 'All comments of a workflow, oldest first',
          description: `${CALLERS} Not paginated, not filtered.`,
          params: WorkflowIdParams,
          response: { 200: CommentList, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        (await comments.listComments(callerOf(request), request.params.workflowId)).map(toCommentResponse),
    );
  };
}
