import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../http/authenticate.ts';
import { requestContext } from '../../http/request-context.ts';
import { errorResponses } from '../../http/schemas.ts';
import { contentDisposition } from '../downloads/downloads.schemas.ts';
import type { TemplateService } from './templates.service.ts';
import {
  AllTemplatesQuery,
  CloneTemplateBody,
  CreateTemplateBody,
  DeleteTemplatesQuery,
  IdParams,
  MoveTemplatesBody,
  NewWorkflowResponse,
  OverridesBody,
  RecipientSlots,
  RenameTemplateBody,
  TemplateIdParams,
  TemplateNames,
  TemplatePage,
  TemplateResponse,
  TempIdParams,
  TemplatesPageQuery,
  UpdateTemplateBody,
  toTemplateResponse,
} from './templates.schemas.ts';

const VISIBLE =
  "Templates of the caller's organization outside folders that folder access hides from the caller; any other id is 404.";
const OVERRIDES =
  'Body: an array of overrides of the recipient slots (the API specification rules; see the schema). Errors: index out of range, repeated, or more ' +
  'overrides than slots: 400 BAD_REQUEST_BODY; a bad name, email or colour: 400 INVALID_FIELD_VALUE; a placeholder without name and email: ' +
  '400 REQUIRED_FIELD_EMPTY; two recipients with one email: 400 DUPLICATE_RECIPIENT. A role without allowDocUseTemplates: 403 ROLE_TEMPLATES_NOT_ALLOWED.';

export function templateRoutes(templates: TemplateService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Templates'];
    const conflict = { 409: Type.Ref('ErrorResponse') };
    const view = { module: 'TEMPLATES', right: 'canView' } as const;

    app.get(
      '/organization/v1/templates',
      {
        schema: {
          tags,
          summary: 'Templates, one page',
          description: `Newest first. ${VISIBLE}`,
          querystring: TemplatesPageQuery,
          response: { 200: TemplatePage, ...errorResponses },
        },
        config: { auth: view },
      },
      async (request) => templates.list(userOf(request), request.query),
    );

    app.get(
      '/organization/v1/templates/all',
      {
        schema: {
          tags,
          summary: 'Every visible template, id and name',
          description: `By name. ${VISIBLE}`,
          querystring: AllTemplatesQuery,
          response: { 200: TemplateNames, ...errorResponses },
        },
        config: { auth: view },
      },
      async (request) => templates.names(userOf(request), request.query.folderId),
    );

    app.get(
      '/organization/v1/templates/:templateId',
      {
        schema: {
          tags,
          summary: 'One template',
          description: VISIBLE,
          params: TemplateIdParams,
          response: { 200: TemplateResponse, ...errorResponses },
        },
        config: { auth: view },
      },
      async (request) => toTemplateResponse(await templates.get(userOf(request), request.params.templateId)),
    );

    app.get(
      '/organization/v1/templates/:tempId/use',
      {
        schema: {
          tags,
          summary: 'Make a DRAFT workflow from a template',
          description: `The caller's new DRAFT workflow with the template's documents, recipients and fields; answers its id. ${VISIBLE} With the web session cookie it needs X-CSRF-Token (a GET that writes).`,
          params: TempIdParams,
          response: { 200: NewWorkflowResponse, ...errorResponses },
        },
        config: { auth: view, writes: true },
      },
      async (request) => ({
        id: await templates.use(
          userOf(request),
          request.params.tempId,
          { mode: 'use', overrides: [] },
          requestContext(request),
        ),
      }),
    );

    app.post(
      '/organization/v1/templates',
      {
        schema: {
          tags,
          summary: 'Create a template from a workflow',
          description:
            "A snapshot of the caller's workflow: documents, recipients as slots, fields with styling, and the template's reminder settings. Answers 200 with the template.",
          body: CreateTemplateBody,
          response: { 200: TemplateResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canAdd' } },
      },
      async (request) => toTemplateResponse(await templates.create(userOf(request), request.body)),
    );

    app.put(
      '/organization/v1/templates',
      {
        schema: {
          tags,
          summary: 'Update a template in place',
          description: `See overwrite. ${VISIBLE}`,
          body: UpdateTemplateBody,
          response: { 200: TemplateResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canEdit' } },
      },
      async (request) => toTemplateResponse(await templates.update(userOf(request), request.body)),
    );

    app.put(
      '/organization/v1/rename/templates',
      {
        schema: {
          tags,
          summary: 'Rename a template',
          description: VISIBLE,
          body: RenameTemplateBody,
          response: { 200: TemplateResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canEdit' } },
      },
      async (request) =>
        toTemplateResponse(await templates.rename(userOf(request), request.body.id, request.body.name)),
    );

    app.put(
      '/organization/v1/templates/move',
      {
        schema: {
          tags,
          summary: 'Move templates to a folder',
          description: `All or nothing. ${VISIBLE} A name taken in the target folder: 409.`,
          body: MoveTemplatesBody,
          response: { 200: Type.Array(TemplateResponse), ...errorResponses, ...conflict },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canEdit' } },
      },
      async (request) =>
        (await templates.move(userOf(request), request.body.ids, request.body.folderId)).map(toTemplateResponse),
    );

    app.post(
      '/organization/v1/templates/:id/clone',
      {
        schema: {
          tags,
          summary: 'Clone a template',
          description: `A new template with its own copy of the snapshot, in the same folder unless folderId is given, named "Copy of <name>" (numbered while taken) unless name is given. Body: optional {name, folderId}, both optional; no body is {}. ${VISIBLE}`,
          params: IdParams,
          body: CloneTemplateBody,
          response: { 200: TemplateResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canAdd' } },
      },
      async (request) => toTemplateResponse(await templates.clone(userOf(request), request.params.id, request.body)),
    );

    app.delete(
      '/organization/v1/templates',
      {
        schema: {
          tags,
          summary: 'Delete templates',
          description: `All or nothing; answers 204. ${VISIBLE} Workflows made from them are unchanged.`,
          querystring: DeleteTemplatesQuery,
          response: { 204: Type.Null(), ...errorResponses },
        },
        config: { auth: { module: 'TEMPLATES', right: 'canDelete' } },
      },
      async (request, reply) => {
        await templates.remove(userOf(request), request.query.ids);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/organization/v1/templates/download/:id',
      {
        schema: {
          tags,
          summary: "Download the template's source document",
          description: `The first document of the snapshot, as uploaded. ${VISIBLE}`,
          params: IdParams,
          produces: ['application/pdf'],
          response: { 200: Type.String({ description: 'PDF bytes' }), ...errorResponses },
        },
        config: { auth: view },
      },
      async (request, reply) => {
        const file = await templates.download(userOf(request), request.params.id);
        return reply
          .type('application/pdf')
          .header('content-disposition', contentDisposition(file.filename))
          .header('x-content-type-options', 'nosniff')
          .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
      },
    );

    app.get(
      '/workflow/v1/templates/:templateId/recipients',
      {
        schema: {
          tags,
          summary: "The template's recipient slots",
          description: VISIBLE,
          params: TemplateIdParams,
          response: { 200: RecipientSlots, ...errorResponses },
        },
        config: { auth: view },
      },
      async (request) => templates.slots(userOf(request), request.params.templateId),
    );

    app.post(
      '/workflow/v1/templates/:templateId/dispatch',
      {
        schema: {
          tags,
          summary: 'Make a workflow from a template and send it',
          description: `One transaction: the workflow exists and is sent, or nothing is (sending checks apply: plan, credits, signing fields). ${OVERRIDES} ${VISIBLE}`,
          params: TemplateIdParams,
          body: OverridesBody,
          response: { 200: NewWorkflowResponse, ...errorResponses },
        },
        config: { auth: view },
      },
      async (request) => ({
        id: await templates.use(
          userOf(request),
          request.params.templateId,
          { mode: 'dispatch', overrides: request.body },
          requestContext(request),
        ),
      }),
    );

    app.post(
      '/workflow/v1/templates/:templateId/apply',
      {
        schema: {
          tags,
          summary: 'Make a DRAFT workflow from a template (partners)',
          description: `As dispatch, but the workflow stays DRAFT and no mail is sent; what business apps call with a CLIENT token. ${OVERRIDES} ${VISIBLE}`,
          params: TemplateIdParams,
          body: OverridesBody,
          response: { 200: NewWorkflowResponse, ...errorResponses },
        },
        config: { auth: view },
      },
      async (request) => ({
        id: await templates.use(
          userOf(request),
          request.params.templateId,
          { mode: 'apply', overrides: request.body },
          requestContext(request),
        ),
      }),
    );
  };
}
