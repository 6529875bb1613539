import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf, userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { DocumentListService } from './document-list.service.ts';
import {
  ChangeSequenceBody,
  DeleteDocumentsBody,
  DeleteResult,
  DeleteWorkflowsBody,
  DocIdParams,
  DocumentDetailList,
  DocumentDetailResponse,
  ListPage,
  ListQuery,
  StatusCounts,
  WorkflowIdParams,
  toDocumentDetail,
} from './document-list.schemas.ts';

const READERS =
  'Readable by the owner, by a recipient once the workflow has left DRAFT, and by the signing-link token of this workflow; 404 for anyone else.';
const DELETE_RULES =
  'Owner only (400 INVALID_WORKFLOW_OWNER for a recipient who can see it, 404 otherwise). Deletable in DRAFT, COMPLETED, VOID and APPROVED; ' +
  'a SENT workflow is out for signature (400 INVALID_WORKFLOW_STATUS). A Power Survey parent takes its children along; a child alone is 400 OPERATION_IS_NOT_ALLOWED. ' +
  'All or nothing. The workflow is soft-deleted: it disappears for its owner and its recipients alike.';

export function documentListRoutes(documents: DocumentListService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Documents'];

    app.get(
      '/document/v1',
      {
        schema: {
          tags,
          summary: 'The document list: one item per workflow, newest first',
          description:
            "The caller's own workflows (Power Survey children included, with isPowerSurveyChild true) and, from SENT on, the workflows where the caller is a recipient, with that recipient row's " +
            "recipientId, recipientRole and enforceIdentity. Deleted workflows never show. A business app's token (CLIENT_CREDENTIALS) lists only the workflows of its organization, " +
            'with recipientId, recipientRole and enforceIdentity null (it never acts as a recipient); the counts follow the same rule.',
          querystring: ListQuery,
          response: { 200: ListPage, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => {
        const { content, total } = await documents.list(userOf(request), request.query);
        return { content, totalElements: total };
      },
    );

    app.get(
      '/document/v1/count/documents-status',
      {
        schema: {
          tags,
          summary: 'Workflow counts per list filter',
          description:
            'Counts workflows, each the totalElements the list gives under the matching status filter (Draft, Pending, Sent, Signed, Completed, Voided).',
          response: { 200: StatusCounts, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => {
        const c = await documents.countStatuses(userOf(request));
        return {
          draftDocCount: c.draft,
          pendingDocCount: c.pending,
          sentDocCount: c.sent,
          signedDocCount: c.signed,
          completedDocCount: c.completed,
          voidDocCount: c.void,
        };
      },
    );

    app.get(
      '/document/v1/docs-detail/:workflowId',
      {
        schema: {
          tags,
          summary: 'Every document of a workflow, with its list item',
          description: `${READERS} Ordered by position.`,
          params: WorkflowIdParams,
          response: { 200: DocumentDetailList, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        (await documents.workflowDocuments(callerOf(request), request.params.workflowId)).map(toDocumentDetail),
    );

    app.get(
      '/document/v1/:docId',
      {
        schema: {
          tags,
          summary: "One document: its workflow's list item plus the document's id, name, size, pages and isViewed",
          description: READERS,
          params: DocIdParams,
          response: { 200: DocumentDetailResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => toDocumentDetail(await documents.documentDetail(callerOf(request), request.params.docId)),
    );

    app.delete(
      '/document/v1',
      {
        schema: {
          tags,
          summary: 'Remove documents from draft workflows',
          description:
            '`ids` are document ids. Owner only (400 INVALID_WORKFLOW_OWNER; 404 for documents the caller cannot see), DRAFT only (400 INVALID_WORKFLOW_STATUS: delete the workflow instead). ' +
            'Their fields go with them. A draft left without documents is deleted with its last one (listed in deletedWorkflowIds). All or nothing.',
          body: DeleteDocumentsBody,
          response: { 200: DeleteResult, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => documents.deleteDocumentsById(userOf(request), request.body.ids),
    );

    app.delete(
      '/document/v1/workflows',
      {
        schema: {
          tags,
          summary: 'Delete several workflows',
          description: `\`workflowIds\` is a comma-separated list ("1,2,3"; malformed is 400). ${DELETE_RULES}`,
          body: DeleteWorkflowsBody,
          response: { 200: DeleteResult, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => documents.deleteWorkflowList(userOf(request), request.body.workflowIds),
    );

    app.delete(
      '/document/v1/:workflowId',
      {
        schema: {
          tags,
          summary: 'Delete a workflow',
          description: DELETE_RULES,
          params: WorkflowIdParams,
          response: { 200: DeleteResult, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => documents.deleteWorkflows(userOf(request), [request.params.workflowId]),
    );

    app.put(
      '/document/v1/:workflowId/change-sequence',
      {
        schema: {
          tags,
          summary: 'Reorder the documents of a workflow',
          description:
            'Owner only, DRAFT only. The body names every document of the workflow exactly once with distinct orders (else 400 INVALID_REQUEST_BODY); ' +
            'smaller orders come first and are stored as positions 0..n-1. Answers the documents in their new order.',
          params: WorkflowIdParams,
          body: ChangeSequenceBody,
          response: { 200: DocumentDetailList, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        (await documents.changeDocumentOrder(userOf(request), request.params.workflowId, request.body)).map(
          toDocumentDetail,
        ),
    );
  };
}
