import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { WebhookService } from './webhooks.service.ts';
import {
  DeliveriesQuery,
  DeliveryDetailResponse,
  DeliveryIdParams,
  DeliveryPage,
  DeliveryResponse,
  toDeliveryDetailResponse,
  toDeliveryResponse,
} from './webhooks.schemas.ts';

const OWNER =
  "Owner only; a business app (CLIENT) token is refused with 403 USER_NOT_HAVE_ACCESS; another organization's delivery is 404.";

export function webhookRoutes(webhooks: WebhookService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Webhooks'];

    app.get(
      '/organization/v1/webhook-deliveries',
      {
        schema: {
          tags,
          summary: 'Webhook deliveries of the organization',
          description:
            'Newest first, filtered by app, workflow, status or event type. Each row is one event for one app: its attempts, the last ' +
            "answer or error, and when the next attempt is due. PAUSED rows are held for an app whose callback is paused (see the app's " +
            `callbackPausedAt). ${OWNER}`,
          querystring: DeliveriesQuery,
          response: { 200: DeliveryPage, ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request) => {
        const page = await webhooks.list(userOf(request), request.query);
        return {
          content: page.rows.map(toDeliveryResponse),
          totalElements: page.total,
          totalPages: page.totalPages,
          number: page.number,
          size: page.size,
        };
      },
    );

    app.get(
      '/organization/v1/webhook-deliveries/:deliveryId',
      {
        schema: {
          tags,
          summary: 'One webhook delivery, with the body it sends',
          description: OWNER,
          params: DeliveryIdParams,
          response: { 200: DeliveryDetailResponse, ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request) => toDeliveryDetailResponse(await webhooks.get(userOf(request), request.params.deliveryId)),
    );

    app.post(
      '/organization/v1/webhook-deliveries/:deliveryId/replay',
      {
        schema: {
          tags,
          summary: 'Replay a webhook delivery',
          description:
            "Sends a DELIVERED or DEAD delivery's event again, as a new delivery (same event id and body, replayOfId set, a fresh " +
            "24-hour retry window), to the app's current callback URL under its current webhook secret. Answers the new delivery. A replay " +
            'resumes the app when its callback is paused (it failed for 24 hours in a row): its PAUSED deliveries are attempted again (one whose ' +
            'event is over 24 hours old is dead-lettered if that attempt fails); replaying a PAUSED delivery answers that delivery, released (PENDING), not a copy. A ' +
            `delivery still PENDING is 400 WEBHOOK_DELIVERY_PENDING; a disabled app is 400 BUSINESS_APP_DISABLED. ${OWNER}`,
          params: DeliveryIdParams,
          response: { 200: DeliveryResponse, ...errorResponses },
        },
        config: { auth: { owner: true } },
      },
      async (request) => toDeliveryResponse(await webhooks.replay(userOf(request), request.params.deliveryId)),
    );
  };
}
