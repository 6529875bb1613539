import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { TemplateFolderService } from './template-folders.service.ts';
import {
  ChildrenQuery,
  CreateFolderBody,
  DeleteFoldersQuery,
  FolderAccessBody,
  FolderAccessResponse,
  FolderIdParams,
  FolderList,
  FolderResponse,
  FolderTree,
  RenameFolderBody,
  toFolderResponse,
} from './template-folders.schemas.ts';

const VISIBLE =
  "Only folders of the caller's organization that folder access lets the caller see; any other id is 404 TEMPLATE_FOLDER_NOT_FOUND.";

export function templateFolderRoutes(folders: TemplateFolderService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Template folders'];
    const conflict = { 409: Type.Ref('ErrorResponse') };

    app.get(
      '/organization/v1/template-folders',
      {
        schema: {
          tags,
          summary: 'Child folders',
          description: `The folders directly under parentFolderId (omitted: the root folders). ${VISIBLE}`,
          querystring: ChildrenQuery,
          response: { 200: FolderList, ...errorResponses },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canView' } },
      },
      async (request) => (await folders.children(userOf(request), request.query.parentFolderId)).map(toFolderResponse),
    );

    app.get(
      '/organization/v1/template-folders/tree',
      {
        schema: {
          tags,
          summary: 'The whole folder tree',
          description: 'Folders the caller may see, nested; a folder hidden by access hides its subtree.',
          response: { 200: FolderTree, ...errorResponses },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canView' } },
      },
      async (request) => folders.tree(userOf(request)),
    );

    app.post(
      '/organization/v1/template-folders',
      {
        schema: {
          tags,
          summary: 'Create a template folder',
          description: `Answers 200 with the folder. ${VISIBLE} (for the parent). At most 1000 folders per organization, 10 levels deep (400 TEMPLATE_FOLDER_LIMIT).`,
          body: CreateFolderBody,
          response: { 200: FolderResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canAdd' } },
      },
      async (request) => toFolderResponse(await folders.create(userOf(request), request.body)),
    );

    app.put(
      '/organization/v1/rename/template-folders',
      {
        schema: {
          tags,
          summary: 'Rename a template folder',
          description: VISIBLE,
          body: RenameFolderBody,
          response: { 200: FolderResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canEdit' } },
      },
      async (request) => toFolderResponse(await folders.rename(userOf(request), request.body.id, request.body.name)),
    );

    app.delete(
      '/organization/v1/template-folders',
      {
        schema: {
          tags,
          summary: 'Delete template folders',
          description: `${VISIBLE} All or nothing; a folder still holding templates or folders (other than ones deleted in the same call) is 400 TEMPLATE_FOLDER_NOT_EMPTY. Answers 204.`,
          querystring: DeleteFoldersQuery,
          response: { 204: Type.Null(), ...errorResponses },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canDelete' } },
      },
      async (request, reply) => {
        await folders.remove(userOf(request), request.query.ids);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/organization/v1/template-folders/:id/access',
      {
        schema: {
          tags,
          summary: 'Folder access',
          description: 'Owner only.',
          params: FolderIdParams,
          response: { 200: FolderAccessResponse, ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request) => folders.getAccess(userOf(request), request.params.id),
    );

    app.put(
      '/organization/v1/template-folders/:id/access',
      {
        schema: {
          tags,
          summary: 'Set folder access',
          description:
            'Owner only. Restricts which custom roles see the folder and everything under it (the restriction accumulates down the tree); independent of the TEMPLATES right, which members still need.',
          params: FolderIdParams,
          body: FolderAccessBody,
          response: { 200: FolderAccessResponse, ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request) => folders.putAccess(userOf(request), request.params.id, request.body),
    );
  };
}
