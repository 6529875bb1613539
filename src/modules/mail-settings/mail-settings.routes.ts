import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { userOf } from '../../http/authenticate.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { MailSettingsService } from './mail-settings.service.ts';
import {
  DeliveriesQuery,
  DeliveryIdParams,
  DeliveryPage,
  DeliveryResponse,
  EmailSettingsBody,
  EmailSettingsResponse,
  EmailSettingsTestBody,
  EmailSettingsTestResponse,
  toDeliveryResponse,
} from './mail-settings.schemas.ts';

const OWNER = 'Owner only (403 for members and guests). Available only when the plan allows custom email routing.';

export function mailSettingsRoutes(mailSettings: MailSettingsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Organization email settings'];
    const owner = { auth: { owner: true as const } };

    app.get(
      '/organization/v1/email-settings',
      {
        schema: {
          tags,
          summary: "The organization's email settings, secrets masked",
          description: `${OWNER} Readable on any plan (planAllowCustomSmtp says whether they can be used). Credentials read as "********".`,
          response: { 200: EmailSettingsResponse, ...errorResponses },
        },
        config: owner,
      },
      async (request) => mailSettings.get(userOf(request)),
    );

    app.put(
      '/organization/v1/email-settings',
      {
        schema: {
          tags,
          summary: "Set the organization's email settings",
          description:
            `${OWNER} ORG_MANAGED: the organization's mail goes through its own provider, which needs its required keys ` +
            '(400 MAIL_SETTINGS_KEY_MISSING names the missing ones; MAIL_SETTINGS_INVALID a bad value); other keys are stored beside them (at most 20 keys ' +
            'in all, see configurations). A plan without custom mail is 400 ' +
            "CUSTOM_MAIL_NOT_ALLOWED. GLOBAL: back to the platform's mail, forgetting the custom configuration (any plan). Credentials (every key whose name " +
            'ends in PASSWORD, SECRET, SECRET_KEY or API_KEY) are stored encrypted and read masked. ' +
            'Masked values do not round-trip: sending "********" back stores "********" as the credential. Answers the settings as GET does.',
          body: EmailSettingsBody,
          response: { 200: EmailSettingsResponse, ...errorResponses },
        },
        config: owner,
      },
      async (request) => mailSettings.update(userOf(request), request.body),
    );

    app.post(
      '/organization/v1/email-settings/test',
      {
        schema: {
          tags,
          summary: 'Send a test mail with the given settings',
          description:
            `${OWNER} Sends one mail to testRecipient through the provider with the configurations in the body (not the stored ones). ` +
            'Answers 200 {success, provider, step, message}: on failure step says where (CONFIG, CONNECT, AUTH, TOKEN, SEND). At most 20 tests per ' +
            'organization per hour (429 MAIL_SETTINGS_TEST_LIMITED with Retry-After).',
          body: EmailSettingsTestBody,
          response: { 200: EmailSettingsTestResponse, ...errorResponses, 429: Type.Ref('ErrorResponse') },
        },
        config: owner,
      },
      async (request) => mailSettings.test(userOf(request), request.body),
    );

    app.get(
      '/organization/v1/email-deliveries',
      {
        schema: {
          tags,
          summary: "Delivery log of the organization's own mail provider, one page",
          description:
            "Owner only. The mails the organization's own provider carried or tried to (not those the platform sent), newest first: what, to whom, " +
            'status, attempts and the last error with its step. A failed attempt is retried with backoff (8 retries, then FAILED). Never a mail body.',
          querystring: DeliveriesQuery,
          response: { 200: DeliveryPage, ...errorResponses },
        },
        config: owner,
      },
      async (request) => {
        const page = await mailSettings.listDeliveries(userOf(request), request.query);
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
      '/organization/v1/email-deliveries/:deliveryId',
      {
        schema: {
          tags,
          summary: "One delivery of the organization's own mail provider",
          description: 'Owner only; a mail of another organization, or one the platform sent, is 404.',
          params: DeliveryIdParams,
          response: { 200: DeliveryResponse, ...errorResponses },
        },
        config: owner,
      },
      async (request) => toDeliveryResponse(await mailSettings.getDelivery(userOf(request), request.params.deliveryId)),
    );
  };
}
