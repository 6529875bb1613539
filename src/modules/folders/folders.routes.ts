import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { FolderService } from './folders.service.ts';
import {
  FolderBody,
  FolderIdParams,
  FolderList,
  FolderPage,
  FolderResponse,
  FoldersPageQuery,
  MoveOneParams,
  MoveWorkflowsBody,
  toFolderResponse,
} from './folders.schemas.ts';

const OWN = "Only the caller's own folders (404 otherwise).";
const MOVE =
  "Files workflows into the folder (moving them out of any other). Only the caller's own workflows as the document list shows them " +
  '(not deleted, not Power Survey children), in any status; all or nothing: a workflow the caller sees as a recipient but does not own is 400 ' +
  'INVALID_WORKFLOW_OWNER, any other id 404, and nothing moves. A malformed list is 400. Answers the folder.';

export function folderRoutes(folders: FolderService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Folders'];
    const conflict = { 409: Type.Ref('ErrorResponse') };

    app.get(
      '/workflow/v1/user/folders',
      {
        schema: { tags, summary: 'All personal folders', response: { 200: FolderList, ...errorResponses } },
        config: { auth: 'user' },
      },
      async (request) => (await folders.listAll(userOf(request))).map(toFolderResponse),
    );

    app.get(
      '/workflow/v1/user/folders/paged',
      {
        schema: {
          tags,
          summary: 'Personal folders, one page',
          description: 'By name (case-insensitive); searchValue matches a substring of the name, ignoring case.',
          querystring: FoldersPageQuery,
          response: { 200: FolderPage, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => {
        const page = await folders.listPage(userOf(request), request.query);
        return {
          content: page.rows.map(toFolderResponse),
          totalElements: page.total,
          totalPages: page.totalPages,
          number: page.number,
          size: page.size,
        };
      },
    );

    app.post(
      '/workflow/v1/user/folders',
      {
        schema: {
          tags,
          summary: 'Create a personal folder',
          description: 'Answers 200 with the folder. A name the caller already uses (ignoring case) is 409 CONFLICT.',
          body: FolderBody,
          response: { 200: FolderResponse, ...errorResponses, ...conflict },
        },
        config: { auth: 'user' },
      },
      async (request) => toFolderResponse(await folders.create(userOf(request), request.body.folderName)),
    );

    app.put(
      '/workflow/v1/user/folders/:folderId',
      {
        schema: {
          tags,
          summary: 'Rename a personal folder',
          description: `${OWN} Same name rules as create.`,
          params: FolderIdParams,
          body: FolderBody,
          response: { 200: FolderResponse, ...errorResponses, ...conflict },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        toFolderResponse(await folders.rename(userOf(request), request.params.folderId, request.body.folderName)),
    );

    app.put(
      '/workflow/v1/user/folders/:folderId/workflows',
      {
        schema: {
          tags,
          summary: 'File several workflows into a folder',
          description: `${OWN} ${MOVE}`,
          params: FolderIdParams,
          body: MoveWorkflowsBody,
          response: { 200: FolderResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        toFolderResponse(
          await folders.moveWorkflows(userOf(request), request.params.folderId, request.body.workflowIds),
        ),
    );

    app.put(
      '/workflow/v1/user/folders/:folderId/:workflowID',
      {
        schema: {
          tags,
          summary: 'File one workflow (or a comma-separated list) into a folder',
          description: `${OWN} ${MOVE}`,
          params: MoveOneParams,
          response: { 200: FolderResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        toFolderResponse(
          await folders.moveWorkflows(userOf(request), request.params.folderId, request.params.workflowID),
        ),
    );

    app.delete(
      '/workflow/v1/user/folders/:folderId',
      {
        schema: {
          tags,
          summary: 'Delete a personal folder',
          description: `${OWN} The workflows it held become unfiled; none is deleted. Answers 204.`,
          params: FolderIdParams,
          response: { 204: Type.Null(), ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request, reply) => {
        await folders.remove(userOf(request), request.params.folderId);
        return reply.status(204).send(null);
      },
    );
  };
}
