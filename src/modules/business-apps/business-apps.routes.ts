import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { BusinessAppService } from './business-apps.service.ts';
import {
  AppIdParams,
  AppList,
  AppResponse,
  AppStatusBody,
  RegisterAppBody,
  RegisteredAppResponse,
  RotateSecretsBody,
  RotatedSecretsResponse,
  UpdateAppBody,
  toAppMembers,
  toAppResponse,
} from './business-apps.schemas.ts';

const PERSONAL =
  "A business app (CLIENT) token is refused with 403 USER_NOT_HAVE_ACCESS; another organization's app is 404.";
const WEBHOOKS =
  'Webhooks: when a workflow of the organization (whoever created it) is sent, opened, signed, approved, declined, delegated, ' +
  'completed or voided, every enabled app receives POST callbackUrl with the JSON body {id, type (workflow.sent, workflow.opened, ' +
  'workflow.signed, workflow.approved, workflow.declined, workflow.delegated, workflow.completed, workflow.voided), createdAt, data: ' +
  '{workflowId, workflowName, workflowStatus, recipientId, recipientStatus, action, sentence}} and the headers X-Signature-256 ' +
  "(sha256=<hex HMAC-SHA256 of the raw body under webhookSecret>), X-Event-Id (the body's id), X-Event-Type, X-Delivery-Id and " +
  'X-Delivery-Attempt. Any 2xx within 5 s is success; anything else is retried after 10 s, doubling to at most 1 hour, for 24 hours, then ' +
  'dead-lettered (GET /organization/v1/webhook-deliveries, replay with POST .../replay). Delivery is at least once and not in order: ' +
  'deduplicate on X-Event-Id and order by createdAt. A decline is two events: workflow.declined, then workflow.voided. A callback whose ' +
  'deliveries have all failed for 24 hours in a row is paused at its next failure (callbackPausedAt on the app; its deliveries held as ' +
  'PAUSED, new events kept as PAUSED too; the owner is mailed once) until an edit of the app (PUT /organization/v1/apps/{appId}, a ' +
  'status change, a secret rotation) or a replay of one of its deliveries resumes it.';
const LIMIT =
  'An organization has at most 10 enabled apps (each receives callbacks; disabled ones do not count): registering an 11th enabled ' +
  'app, or enabling one, is 400 BUSINESS_APP_LIMIT_REACHED (responseBody.limit).';

export function businessAppRoutes(apps: BusinessAppService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Business apps'];
    const conflict = { 409: Type.Ref('ErrorResponse') };

    app.post(
      '/organization/v1/apps',
      {
        schema: {
          tags,
          summary: 'Register a business app',
          description:
            'Owner only. Answers 200 with the app, its clientSecret (for grant CLIENT_CREDENTIALS) and its webhookSecret (the key of ' +
            'the X-Signature-256 HMAC on webhooks), each shown only in this answer. A client id used anywhere, or an app name the organization ' +
            `already uses (ignoring case), is 409. ${LIMIT} ${PERSONAL} ${WEBHOOKS}`,
          body: RegisterAppBody,
          response: { 200: RegisteredAppResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { owner: true } },
      },
      async (request) => {
        const { app: registered, clientSecret, webhookSecret } = await apps.register(userOf(request), request.body);
        return { ...toAppMembers(registered), clientSecret, webhookSecret };
      },
    );

    app.get(
      '/organization/v1/apps',
      {
        schema: {
          tags,
          summary: "The organization's business apps",
          description: `Owner, or a member whose role grants canView on BUSINESS_APPS. Secrets are never shown. ${PERSONAL}`,
          response: { 200: AppList, ...errorResponses },
        },
        config: { auth: { module: 'BUSINESS_APPS', right: 'canView' } },
      },
      async (request) => (await apps.list(userOf(request))).map(toAppResponse),
    );

    app.get(
      '/organization/v1/apps/:appId',
      {
        schema: {
          tags,
          summary: 'One business app',
          description: `Owner, or canView on BUSINESS_APPS. ${PERSONAL}`,
          params: AppIdParams,
          response: { 200: AppResponse, ...errorResponses },
        },
        config: { auth: { module: 'BUSINESS_APPS', right: 'canView' } },
      },
      async (request) => toAppResponse(await apps.get(userOf(request), request.params.appId)),
    );

    app.put(
      '/organization/v1/apps/:appId',
      {
        schema: {
          tags,
          summary: 'Update a business app',
          description:
            'Owner only. Renames the app (unique in the organization ignoring case, else 409 BUSINESS_APP_NAME_TAKEN) or points its ' +
            "webhooks at another callbackUrl (the registration's rules, else 400 BUSINESS_APP_CALLBACK_REFUSED). Members left out stay as " +
            'they are. Any update resumes a paused callback: callbackFailingSince and callbackPausedAt are cleared and the held (PAUSED) ' +
            `deliveries are attempted again, to the callback URL as it is now. Answers the app. ${PERSONAL}`,
          params: AppIdParams,
          body: UpdateAppBody,
          response: { 200: AppResponse, ...errorResponses, ...conflict },
        },
        config: { auth: { owner: true } },
      },
      async (request) => toAppResponse(await apps.update(userOf(request), request.params.appId, request.body)),
    );

    app.put(
      '/organization/v1/apps/:appId/status',
      {
        schema: {
          tags,
          summary: 'Enable or disable a business app',
          description:
            "Owner, or canEdit on BUSINESS_APPS. Disabled, the app's access tokens stop working at once, its refresh tokens are revoked " +
            '(enabling it again needs a new sign-in), its client credentials are refused and it receives no webhooks (pending deliveries are ' +
            'dead-lettered at their next attempt). A change resumes a paused callback (disabling dead-letters its held deliveries). ' +
            `${LIMIT} Answers the app. ${PERSONAL}`,
          params: AppIdParams,
          body: AppStatusBody,
          response: { 200: AppResponse, ...errorResponses },
        },
        config: { auth: { module: 'BUSINESS_APPS', right: 'canEdit' } },
      },
      async (request) =>
        toAppResponse(await apps.setStatus(userOf(request), request.params.appId, request.body.status)),
    );

    app.post(
      '/organization/v1/apps/:appId/secrets',
      {
        schema: {
          tags,
          summary: "Rotate a business app's secrets",
          description:
            'Owner only. Replaces the client secret, the webhook secret or both, and answers the new ones (shown only now). A new client ' +
            "secret also revokes the app's refresh tokens (access tokens already issued expire within 15 minutes; disable the app to stop them at " +
            `once). A new webhook secret signs every attempt from now on, retries of earlier events included. ${PERSONAL}`,
          params: AppIdParams,
          body: RotateSecretsBody,
          response: { 200: RotatedSecretsResponse, ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request) => {
        const {
          app: rotated,
          clientSecret,
          webhookSecret,
        } = await apps.rotateSecrets(userOf(request), request.params.appId, request.body.secret);
        return {
          ...toAppMembers(rotated),
          ...(clientSecret ? { clientSecret } : {}),
          ...(webhookSecret ? { webhookSecret } : {}),
        };
      },
    );
  };
}
