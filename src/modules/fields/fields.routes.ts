import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf, userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { FieldService } from './fields.service.ts';
import {
  DocumentFieldParams,
  DocumentIdParams,
  FieldBody,
  FieldList,
  FieldListBody,
  FieldResponse,
  RequiredBody,
  WorkflowFieldParams,
  WorkflowIdParams,
  toFieldResponse,
} from './fields.schemas.ts';

const WRITE_RULES =
  'Owner only (400 INVALID_WORKFLOW_OWNER for a recipient who can see the workflow, 404 for anyone else; a signing-link token is 403), ' +
  'DRAFT only (400 INVALID_WORKFLOW_STATUS).';
const FIELD_RULES =
  'pageNo names a page of the document and box lies entirely inside it (points, origin top-left, the page as displayed); ' +
  'recipientId is a SIGNER or APPROVER of the same workflow (optional only on a Power Survey); DROPDOWN needs options; ' +
  'a rule broken is 400 INVALID_FIELD, with `responseBody.field` (and `index` in a list) naming the place. Values are not written here (fields/save).';
const READ_RULES =
  'The owner, a registered recipient once the workflow has left DRAFT, or the signing-link token of this workflow; anyone else 404. ' +
  'signatureAssetId is returned only to the recipient the field belongs to; everyone else, the owner included, gets null.';

export function fieldRoutes(fields: FieldService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Fields'];

    app.post(
      '/workflow/v1/fields/list',
      {
        schema: {
          tags,
          summary: 'Add several fields',
          description:
            `${WRITE_RULES} Each entry names its documentId; all documents must belong to one workflow (400 INVALID_REQUEST_BODY otherwise), an unknown one is 404. ` +
            `${FIELD_RULES} All or nothing. Answers 200 with the created fields in request order.`,
          body: FieldListBody,
          response: { 200: FieldList, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) => (await fields.addFields(userOf(request), request.body)).map(toFieldResponse),
    );

    app.post(
      '/workflow/v1/:documentId/fields',
      {
        schema: {
          tags,
          summary: 'Add one field to a document',
          description: `${WRITE_RULES} ${FIELD_RULES} styling is accepted here too. Answers 200 with the field.`,
          params: DocumentIdParams,
          body: FieldBody,
          response: { 200: FieldResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        toFieldResponse(await fields.addField(userOf(request), request.params.documentId, request.body)),
    );

    app.put(
      '/workflow/v1/:documentId/fields/:fieldId',
      {
        schema: {
          tags,
          summary: 'Update a field, styling included',
          description:
            `${WRITE_RULES} The field must be on this document (404 otherwise). ${FIELD_RULES} pageNo, box and fieldType are required; ` +
            'other members left out keep their stored value, null clears label, styling and options (and recipientId on a Power Survey). ' +
            'signatureAssetId null, 0 or negative leaves the stored link unchanged. Changing fieldType clears a value already saved. Answers 200 with the field.',
          params: DocumentFieldParams,
          body: FieldBody,
          response: { 200: FieldResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        toFieldResponse(
          await fields.updateFieldPlacement(
            userOf(request),
            request.params.documentId,
            request.params.fieldId,
            request.body,
          ),
        ),
    );

    app.patch(
      '/workflow/v1/:documentId/fields/:fieldId/required',
      {
        schema: {
          tags,
          summary: 'Set whether a field is required, and its styling',
          description: `${WRITE_RULES} Changes fieldRequired and, when given, styling; nothing else. Answers 200 with the field.`,
          params: DocumentFieldParams,
          body: RequiredBody,
          response: { 200: FieldResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        toFieldResponse(
          await fields.setRequired(userOf(request), request.params.documentId, request.params.fieldId, request.body),
        ),
    );

    app.get(
      '/workflow/v1/:workflowId/fields',
      {
        schema: {
          tags,
          summary: "The caller's fields of a workflow",
          description: `${READ_RULES} The owner gets every field; a recipient gets the fields assigned to its own row(s) plus unassigned ones (Power Survey). In creation order.`,
          params: WorkflowIdParams,
          response: { 200: FieldList, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        (await fields.listFields(callerOf(request), request.params.workflowId, { all: false })).map(toFieldResponse),
    );

    app.get(
      '/workflow/v1/:workflowId/all-fields',
      {
        schema: {
          tags,
          summary: 'Every field of a workflow',
          description: `${READ_RULES} Every field, whoever it belongs to, in creation order.`,
          params: WorkflowIdParams,
          response: { 200: FieldList, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        (await fields.listFields(callerOf(request), request.params.workflowId, { all: true })).map(toFieldResponse),
    );

    app.get(
      '/workflow/v1/:workflowId/fields/:fieldId',
      {
        schema: {
          tags,
          summary: 'One field',
          description: READ_RULES,
          params: WorkflowFieldParams,
          response: { 200: FieldResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        toFieldResponse(await fields.getField(callerOf(request), request.params.workflowId, request.params.fieldId)),
    );

    app.delete(
      '/workflow/v1/:workflowId/fields/:fieldId',
      {
        schema: {
          tags,
          summary: 'Remove a field',
          description: `${WRITE_RULES} The field must belong to this workflow (404 otherwise). Answers 204.`,
          params: WorkflowFieldParams,
          response: { 204: Type.Null(), ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request, reply) => {
        await fields.removeField(userOf(request), request.params.workflowId, request.params.fieldId);
        return reply.status(204).send(null);
      },
    );
  };
}
