import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf, userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { RecipientService } from './recipients.service.ts';
import {
  AddRecipientsBody,
  RecipientList,
  RecipientParams,
  RecipientResponse,
  UpdateRecipientsBody,
  WorkflowIdParams,
  toRecipientResponse,
} from './recipients.schemas.ts';

const WRITE_RULES =
  'Owner only (400 INVALID_WORKFLOW_OWNER for a recipient who can see the workflow, 404 for anyone else; a signing-link token is 403), ' +
  'DRAFT only (400 INVALID_WORKFLOW_STATUS). The whole array is validated before anything is written: one bad entry rejects the call ' +
  'and `responseBody.index` names it. An empty array is 400.';
const READ_RULES =
  'The owner, a registered recipient once the workflow has left DRAFT, or the signing-link token of this workflow; anyone else 404. ' +
  'Hidden assistant rows show only to the owner and to the person holding the row. recipientPassword is never returned.';

export function recipientRoutes(recipients: RecipientService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Recipients'];

    app.get(
      '/workflow/v1/:workflowId/recipients',
      {
        schema: {
          tags,
          summary: 'Recipients of a workflow',
          description: `${READ_RULES} In signing order (rows without an order last, then by id).`,
          params: WorkflowIdParams,
          response: { 200: RecipientList, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => (await recipients.list(callerOf(request), request.params.workflowId)).map(toRecipientResponse),
    );

    app.get(
      '/workflow/v1/:workflowId/recipients/:recipientId',
      {
        schema: {
          tags,
          summary: 'One recipient',
          description: READ_RULES,
          params: RecipientParams,
          response: { 200: RecipientResponse, ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) =>
        toRecipientResponse(
          await recipients.get(callerOf(request), request.params.workflowId, request.params.recipientId),
        ),
    );

    app.post(
      '/workflow/v1/:workflowId/recipients',
      {
        schema: {
          tags,
          summary: 'Add recipients',
          description:
            `${WRITE_RULES} A SELF workflow takes none (400 OPERATION_IS_NOT_ALLOWED: its only row is its owner's). ` +
            'A Power Survey (SURVEY) accepts only SIGNER (400 OPERATION_IS_NOT_ALLOWED). Under ORDERED every entry needs recipientOrder (400 INVALID_RECIPIENT) ' +
            'and no order or email may repeat, among the entries or against the rows already stored (400 DUPLICATE_RECIPIENT). ' +
            'An email no user holds gets a guest user. Answers 200 with the created recipients, in request order.',
          params: WorkflowIdParams,
          body: AddRecipientsBody,
          response: { 200: RecipientList, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        (await recipients.add(userOf(request), request.params.workflowId, request.body)).map(toRecipientResponse),
    );

    app.put(
      '/workflow/v1/:workflowId/recipients',
      {
        schema: {
          tags,
          summary: 'Update recipients',
          description:
            `${WRITE_RULES} Each entry names a recipient of this workflow by id (404 otherwise; an id twice is 400 INVALID_REQUEST_BODY) and replaces its attributes; ` +
            "same rules as add. On a SELF workflow the owner's row may change, but its email must stay the owner's and its role SIGNER (400 OPERATION_IS_NOT_ALLOWED). " +
            'A changed email moves the row to the user holding that email (a new guest user if none). A row that has fields cannot become CC (400 INVALID_RECIPIENT). ' +
            'Answers 200 with the updated recipients, in request order.',
          params: WorkflowIdParams,
          body: UpdateRecipientsBody,
          response: { 200: RecipientList, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        (await recipients.update(userOf(request), request.params.workflowId, request.body)).map(toRecipientResponse),
    );

    app.delete(
      '/workflow/v1/:workflowId/recipients/:recipientId',
      {
        schema: {
          tags,
          summary: 'Remove a recipient',
          description:
            "Owner only, DRAFT only (as for add). The fields assigned to the recipient are deleted with it. The owner's row of a SELF workflow cannot be removed " +
            '(400 OPERATION_IS_NOT_ALLOWED). Other recipients keep their order numbers (gaps are allowed). Answers 204.',
          params: RecipientParams,
          response: { 204: Type.Null(), ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request, reply) => {
        await recipients.remove(userOf(request), request.params.workflowId, request.params.recipientId);
        return reply.status(204).send(null);
      },
    );
  };
}
