import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { callerOf, userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { WorkflowService } from './workflows.service.ts';
import {
  ReminderBody,
  ReminderResponse,
  RenameWorkflowBody,
  SequenceBody,
  WorkflowIdParams,
  WorkflowSettingsResponse,
  toReminderResponse,
  toWorkflowSettingsResponse,
} from './workflows.schemas.ts';

const SEQUENCE_RULES =
  'Owner only (400 INVALID_WORKFLOW_OWNER for a recipient), DRAFT only (400 INVALID_WORKFLOW_STATUS). ' +
  "Into SELF: only while the workflow has no recipient or just the owner's SIGNER row (else 400 OPERATION_IS_NOT_ALLOWED); the owner's row is created when missing and reminders are switched off. " +
  'Into SURVEY: every recipient must be a SIGNER (else 400 OPERATION_IS_NOT_ALLOWED). Into ORDERED: recipients without an order, or sharing one, are numbered 1..n in their current order. ' +
  "Out of SELF: the owner's row stays as an ordinary signer. Answers the workflow settings.";

export function workflowRoutes(workflows: WorkflowService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.put(
      '/workflow/v1/rename/:workflowId',
      {
        schema: {
          tags: ['Workflows'],
          summary: 'Rename a workflow',
          description:
            'Owner only (400 INVALID_WORKFLOW_OWNER for a recipient who can see it, 404 for anyone else). Any status except VOID (read-only: 400 INVALID_WORKFLOW_STATUS). The name is stored trimmed.',
          params: WorkflowIdParams,
          body: RenameWorkflowBody,
          response: { 200: WorkflowSettingsResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        toWorkflowSettingsResponse(
          await workflows.rename(userOf(request), request.params.workflowId, request.body.name),
        ),
    );

    app.get(
      '/workflow/v1/sequence/:workflowId',
      {
        schema: {
          tags: ['Workflows'],
          summary: 'Whether the workflow is ORDERED',
          description:
            'A bare boolean: true when the sequence is ORDERED. The owner, a recipient once sent, or the signing-link token of this workflow.',
          params: WorkflowIdParams,
          response: { 200: Type.Boolean(), ...errorResponses },
        },
        config: { auth: 'participant' },
      },
      async (request) => workflows.isOrdered(callerOf(request), request.params.workflowId),
    );

    const changeSequence = {
      schema: {
        tags: ['Workflows'],
        summary: 'Change the sequence mode',
        description: SEQUENCE_RULES,
        params: WorkflowIdParams,
        body: SequenceBody,
        response: { 200: WorkflowSettingsResponse, ...errorResponses },
      },
      config: { auth: 'user' as const },
    };
    app.put('/workflow/v1/:workflowId', changeSequence, async (request) =>
      toWorkflowSettingsResponse(
        await workflows.changeSequence(userOf(request), request.params.workflowId, request.body.sequence),
      ),
    );
    app.put(
      '/document/v1/sequence/:workflowId',
      {
        ...changeSequence,
        schema: {
          ...changeSequence.schema,
          tags: ['Documents'],
          description: `Same effect as PUT /workflow/v1/{workflowId}. ${SEQUENCE_RULES}`,
        },
      },
      async (request) =>
        toWorkflowSettingsResponse(
          await workflows.changeSequence(userOf(request), request.params.workflowId, request.body.sequence),
        ),
    );

    app.put(
      '/workflow/v1/:workflowId/reminder',
      {
        schema: {
          tags: ['Workflows'],
          summary: 'Configure reminders',
          description:
            'the API specification reminder rules: owner only (400 INVALID_WORKFLOW_OWNER), DRAFT only (400 INVALID_WORKFLOW_STATUS); on a SELF workflow reminders are stored off without error; ' +
            '`enabled` false turns them off and clears both values; otherwise a valid offsetMinutes (whole number 1-1439) wins and intervalDays is stored null, ' +
            'else a valid intervalDays (whole number 1-30) is used; neither valid is 400 BAD_REQUEST_BODY. Answers the stored configuration.',
          params: WorkflowIdParams,
          body: ReminderBody,
          response: { 200: ReminderResponse, ...errorResponses },
        },
        config: { auth: 'user' },
      },
      async (request) =>
        toReminderResponse(await workflows.configureReminder(userOf(request), request.params.workflowId, request.body)),
    );
  };
}
