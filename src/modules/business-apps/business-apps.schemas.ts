import { Type, type Static } from 'typebox';
import { IdParam } from '../../http/schemas.ts';
import type { BusinessAppRow } from './business-apps.repo.ts';
import { CALLBACK_URL_MAX } from './callback-url.ts';

export const AppIdParams = Type.Object({ appId: IdParam });

export const RegisterAppBody = Type.Object({
  clientId: Type.String({
    minLength: 3,
    maxLength: 100,
    pattern: '^[A-Za-z0-9][A-Za-z0-9._~-]*$',
    description:
      '3-100 characters: letters, digits and . _ ~ - (starting with a letter or digit); unique across the service (409)',
  }),
  appName: Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      '1-100 characters, not whitespace-only; stored trimmed; unique in the organization ignoring case (409)',
  }),
  callbackUrl: Type.String({
    minLength: 1,
    maxLength: CALLBACK_URL_MAX,
    description:
      'https URL that receives the webhooks; no user name or password; not a private, loopback, link-local, reserved or cloud metadata address (400 BUSINESS_APP_CALLBACK_REFUSED)',
  }),
  status: Type.Optional(Type.Boolean({ default: true, description: 'enabled (true, the default) or disabled' })),
});
export type RegisterAppBody = Static<typeof RegisterAppBody>;

export const AppStatusBody = Type.Object({
  status: Type.Boolean({ description: 'true enables the app, false disables it' }),
});

export const UpdateAppBody = Type.Object(
  {
    appName: Type.Optional(RegisterAppBody.properties.appName),
    callbackUrl: Type.Optional(RegisterAppBody.properties.callbackUrl),
  },
  {
    description:
      'what to change; members left out stay as they are (an empty object changes nothing but still resumes a paused callback)',
  },
);
export type UpdateAppBody = Static<typeof UpdateAppBody>;

export const ROTATABLE_SECRETS = ['CLIENT', 'WEBHOOK', 'BOTH'] as const;
export const RotateSecretsBody = Type.Object({
  secret: Type.Enum(ROTATABLE_SECRETS, {
    description: 'CLIENT (the client-credentials secret), WEBHOOK (the webhook signing secret) or BOTH',
  }),
});
export type RotatableSecret = (typeof ROTATABLE_SECRETS)[number];

const appMembers = {
  id: Type.Integer(),
  clientId: Type.String(),
  appName: Type.String(),
  callbackUrl: Type.String(),
  status: Type.Boolean({
    description: 'true: enabled; false: disabled (its tokens stop working and it receives no webhooks)',
  }),
};

const nullableTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

export const AppResponse = Type.Object({
  ...appMembers,
  webhooksEnabled: Type.Boolean({
    description: 'whether the app has a webhook secret (apps registered through this API always do)',
  }),
  callbackFailingSince: nullableTime(
    'the first failed webhook delivery of the current run of failures; null while the callback answers',
  ),
  callbackPausedAt: nullableTime(
    'when webhook deliveries were paused, the callback having failed for 24 hours in a row; null: not paused. ' +
      'While paused, deliveries are held (status PAUSED) and new events are kept; an edit of the app or a replay resumes it',
  ),
  createdAt: Type.String({ format: 'date-time' }),
});
export const AppList = Type.Array(AppResponse, { description: "the organization's business apps, oldest first" });

export const RegisteredAppResponse = Type.Object({
  ...appMembers,
  clientSecret: Type.String({ description: 'shown only now; the service keeps its SHA-256 digest' }),
  webhookSecret: Type.String({ description: 'shown only now; the key of the X-Signature-256 HMAC on every webhook' }),
});

export const RotatedSecretsResponse = Type.Object({
  ...appMembers,
  clientSecret: Type.Optional(Type.String({ description: 'the new client secret (CLIENT or BOTH), shown only now' })),
  webhookSecret: Type.Optional(
    Type.String({ description: 'the new webhook secret (WEBHOOK or BOTH), shown only now' }),
  ),
});

export function toAppResponse(row: BusinessAppRow): Static<typeof AppResponse> {
  return {
    id: row.id,
    clientId: row.clientId,
    appName: row.appName,
    callbackUrl: row.callbackUrl,
    status: row.status,
    webhooksEnabled: row.webhookSecret !== null,
    callbackFailingSince: row.callbackFailingSince?.toISOString() ?? null,
    callbackPausedAt: row.callbackPausedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toAppMembers(row: BusinessAppRow) {
  return { id: row.id, clientId: row.clientId, appName: row.appName, callbackUrl: row.callbackUrl, status: row.status };
}
