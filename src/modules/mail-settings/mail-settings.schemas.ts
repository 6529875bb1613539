import { Type, type Static } from 'typebox';
import { IdParam, NumberedPage } from '../../http/schemas.ts';
import { MAIL_PROVIDERS } from '../../platform/mail/senders/mail-sender.ts';
import {
  CONFIGURATION_LIMITS,
  PROVIDER_KEYS,
  SECRET_KEY_ENDINGS,
} from '../../platform/mail/senders/provider-settings.ts';
import type { DeliveryRow } from './mail-settings.repo.ts';

const EMAIL_MODES = ['GLOBAL', 'ORG_MANAGED'] as const;
const SOURCES = ['PLAN_CONNECTOR', 'CUSTOM'] as const;
const STEPS = ['CONFIG', 'CONNECT', 'AUTH', 'TOKEN', 'SEND'] as const;
const DELIVERY_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;

const keysTable = MAIL_PROVIDERS.map((provider) => `${provider}: ${PROVIDER_KEYS[provider].join(', ')}`).join('; ');

const { maxKeys, maxKeyLength, maxValueLength, keyPattern } = CONFIGURATION_LIMITS;
const secretEndings = SECRET_KEY_ENDINGS.join(', ');

const Configurations = Type.Record(Type.String(), Type.String({ maxLength: maxValueLength }), {
  maxProperties: maxKeys,
  propertyNames: { type: 'string', minLength: 1, maxLength: maxKeyLength, pattern: keyPattern },
  description:
    `Configuration keys, at most ${maxKeys} in all, each named by 1 to ${maxKeyLength} letters, digits, _, - or ., each value a string of at most ` +
    `${maxValueLength} characters (otherwise 400 BAD_REQUEST_BODY). Required keys of each provider: ${keysTable}. Other keys are stored as sent (the ` +
    `provider does not use them); a key whose name ends in ${secretEndings} (any case) is a credential: encrypted at rest and masked on read, like ` +
    'PASSWORD and CLIENT_SECRET. SMTP: SSL_TLS is SSL (implicit TLS), TLS or STARTTLS (STARTTLS required) or NONE; AUTHENTICATION TRUE or FALSE (FALSE: ' +
    'USER_ID and PASSWORD may be blank). CLOUD_MAIL: ACCESS_KEY is the AWS access key id, API_KEY its secret access key. OAUTH2_MAIL: OAUTH_SCOPE is usually ' +
    'https://graph.microsoft.com/.default.',
});

const Provider = Type.Enum(MAIL_PROVIDERS, {
  description:
    'SMTP (any SMTP server, through nodemailer), EMAIL_API (SendGrid Web API v3), CLOUD_MAIL (Amazon SES API v2), OAUTH2_MAIL (Microsoft Graph sendMail with an OAuth 2.0 client-credentials token)',
});

export const EmailSettingsResponse = Type.Object({
  licenseSmtpEnabled: Type.Boolean({
    description: 'whether this installation lets organizations route their own mail: always true',
  }),
  planAllowCustomSmtp: Type.Boolean({
    description: "whether the organization's plan allows custom email routing (packages.allowCustomSmtp)",
  }),
  isOwner: Type.Boolean({ description: 'always true: only the owner reads these settings' }),
  emailMode: Type.Enum(EMAIL_MODES, {
    description:
      "GLOBAL: the platform sends the organization's mail; ORG_MANAGED: the organization's own provider does (while the plan allows it)",
  }),
  source: Type.Union([Type.Enum(SOURCES), Type.Null()], { description: 'CUSTOM when ORG_MANAGED; null when GLOBAL' }),
  provider: Type.Union([Provider, Type.Null()], { description: 'null when GLOBAL' }),
  configurations: Type.Record(Type.String(), Type.String(), {
    description:
      `as saved, required keys and the others, except every key whose name ends in ${secretEndings} (any case: PASSWORD, CLIENT_SECRET, API_KEY, ` +
      'SECRET_KEY, SMTP_PASSWORD, webhook_secret ...), which reads as "********" whatever its value. The mask does not round-trip: ' +
      'a PUT that sends "********" back stores "********" as the credential, so an update must resend the real value.',
  }),
  allowedConnectors: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String(), provider: Provider }), {
    description:
      'plan connectors the organization may use instead of its own settings: this installation offers none, so always empty',
  }),
});
export type EmailSettingsResponse = Static<typeof EmailSettingsResponse>;

export const EmailSettingsBody = Type.Object({
  emailMode: Type.Enum(EMAIL_MODES),
  source: Type.Optional(
    Type.Enum(SOURCES, {
      description: 'CUSTOM (the default); PLAN_CONNECTOR is refused with 400 MAIL_CONNECTOR_UNAVAILABLE',
    }),
  ),
  provider: Type.Optional(Provider),
  configurations: Type.Optional(Configurations),
});
export type EmailSettingsBody = Static<typeof EmailSettingsBody>;

export const EmailSettingsTestBody = Type.Object({
  connectorId: Type.Optional(
    Type.Union([IdParam, Type.Null()], {
      description: 'a plan connector to test: none exist, so a value is 400 MAIL_CONNECTOR_UNAVAILABLE; omit or null',
    }),
  ),
  provider: Provider,
  configurations: Configurations,
  testRecipient: Type.String({ format: 'email', maxLength: 255, description: 'where the test mail goes' }),
});
export type EmailSettingsTestBody = Static<typeof EmailSettingsTestBody>;

export const EmailSettingsTestResponse = Type.Object({
  success: Type.Boolean({ description: 'true when the provider accepted the test mail' }),
  provider: Provider,
  step: Type.Union([Type.Enum(STEPS), Type.Null()], {
    description:
      'null on success; on failure where it failed: CONFIG (missing, unknown or invalid keys, or an SMTP server on a refused address), CONNECT (the provider ' +
      'could not be reached), AUTH (the provider refused the credentials), TOKEN (OAUTH2_MAIL: the token request was refused), SEND (the provider refused the message)',
  }),
  message: Type.String({ description: "what happened, with the provider's own words on failure" }),
});
export type EmailSettingsTestResponse = Static<typeof EmailSettingsTestResponse>;

export const DeliveriesQuery = Type.Object({
  page: Type.Integer({ minimum: 0, maximum: 1000000, default: 0, description: 'zero-based page number' }),
  size: Type.Integer({ minimum: 1, maximum: 200, default: 20, description: 'page size' }),
  status: Type.Optional(Type.Enum(DELIVERY_STATUSES, { description: 'PENDING, SENT or FAILED' })),
});
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

export const DeliveryIdParams = Type.Object({ deliveryId: IdParam });

const nullableTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const DeliveryResponse = Type.Object({
  id: Type.Integer(),
  kind: Type.String({
    description: 'what the mail is: COMMENCE, CC_NOTIFICATION, OTP, REMINDER, COMPLETED, DECLINED, ...',
  }),
  to: Type.String({ description: "the recipient's address" }),
  subject: Type.String(),
  workflowId: Type.Union([Type.Integer(), Type.Null()], { description: 'the workflow the mail is about, if any' }),
  provider: Provider,
  status: Type.Enum(DELIVERY_STATUSES, {
    description: 'PENDING (a retry is to come), SENT (the provider accepted it), FAILED (every attempt failed)',
  }),
  attempts: Type.Integer({ description: 'attempts made so far' }),
  lastError: Type.Union([Type.String(), Type.Null()], {
    description:
      'why the last attempt failed, prefixed with its step, e.g. "[AUTH] SendGrid refused the API key: 401 ..."; null once sent',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  sentAt: nullableTime('when the provider accepted it'),
});

export const DeliveryPage = NumberedPage(DeliveryResponse);

export function toDeliveryResponse(row: DeliveryRow): Static<typeof DeliveryResponse> {
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    workflowId: row.workflowId,
    provider: row.route as Static<typeof DeliveryResponse>['provider'],
    status: row.status as Static<typeof DeliveryResponse>['status'],
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
  };
}
