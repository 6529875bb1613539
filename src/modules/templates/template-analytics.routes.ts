import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { callerOf, userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { FieldEventService } from './field-events.service.ts';
import type { TemplateAnalyticsService } from './template-analytics.service.ts';
import {
  CompletionResponse,
  DropOffResponse,
  FieldEventsBody,
  FieldEventsResponse,
  FullAnalyticsResponse,
  TemplateIdParams,
  TimeToSignResponse,
} from './template-analytics.schemas.ts';

const VISIBLE = "A template of the caller's organization that folder access lets the caller see; any other id is 404.";

export function templateAnalyticsRoutes(
  analytics: TemplateAnalyticsService,
  events: FieldEventService,
): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Template analytics'];
    const view = { module: 'TEMPLATES', right: 'canView' } as const;

    app.get(
      '/organization/v1/templates/:templateId/analytics',
      {
        schema: {
          tags,
          summary: "Completion of a template's workflows",
          description: VISIBLE,
          params: TemplateIdParams,
          response: { 200: CompletionResponse, ...errorResponses },
        },
        config: { auth: view },
      },
      async (request) => analytics.completion(userOf(request), request.params.templateId),
    );

    app.get(
      '/organization/v1/templates/:templateId/analytics/full',
      {
        schema: {
          tags,
          summary: 'Completion plus time to sign',
          description: VISIBLE,
          params: TemplateIdParams,
          response: { 200: FullAnalyticsResponse, ...errorResponses },
        },
        config: { auth: view },
      },
      async (request) => analytics.full(userOf(request), request.params.templateId),
    );

    app.get(
      '/organization/v1/templates/:templateId/time-to-sign',
      {
        schema: {
          tags,
          summary: 'Time from sending to completion',
          description: VISIBLE,
          params: TemplateIdParams,
          response: { 200: TimeToSignResponse, ...errorResponses },
        },
        config: { auth: view },
      },
      async (request) => analytics.timeToSign(userOf(request), request.params.templateId),
    );

    app.get(
      '/workflow/v1/templates/:templateId/field-drop-off',
      {
        schema: {
          tags,
          summary: 'Where signers stop, per template field',
          description: VISIBLE,
          params: TemplateIdParams,
          response: { 200: DropOffResponse, ...errorResponses },
        },
        config: { auth: view },
      },
      async (request) => analytics.dropOff(userOf(request), request.params.templateId),
    );

    app.post(
      '/workflow/v1/field-events',
      {
        schema: {
          tags,
          summary: 'Signing telemetry',
          description:
            "A signing-link (guest) token, or a user holding a row of the workflow: events count for the caller's own recipient row. " +
            'Always 202 for a well-formed envelope: malformed or foreign events are skipped one by one (wrong type, unknown field or one of another recipient or document, ' +
            'a timestamp not in UTC, in the future or before the workflow existed), and every event is skipped for a workflow the caller holds no row of, may not read (as every other call: ' +
            "the recipient password not entered, an unverified account, a Power Survey parent, another organization than a business app's; a business app's token holds no row) or that is still DRAFT, " +
            'the same answer as for an id that does not exist. ' +
            'A repeated event (same session, row, field and type) is stored once. A body that is not the documented object ingests nothing; ' +
            'events past the first 1,000 count as skipped.',
          body: FieldEventsBody,
          response: { 202: FieldEventsResponse, ...errorResponses },
        },
        // The body schema documents the envelope; the service reads it, because SPEC.md answers 202 for every body.
        validatorCompiler: () => () => true,
        config: { auth: 'participant' },
      },
      async (request, reply) => reply.status(202).send(await events.ingest(callerOf(request), request.body as unknown)),
    );
  };
}
