import { Type, type Static } from 'typebox';
import { IdParam, NumberedPage } from '../../http/schemas.ts';
import type { DeliveryRow } from './webhooks.repo.ts';
import { WEBHOOK_EVENT_TYPES } from './webhook-events.ts';

export const DELIVERY_STATUSES = ['PENDING', 'DELIVERED', 'DEAD', 'PAUSED'] as const;

export const DeliveryIdParams = Type.Object({ deliveryId: IdParam });

export const DeliveriesQuery = Type.Object({
  page: Type.Integer({ minimum: 0, maximum: 1000000, default: 0, description: 'zero-based page number' }),
  size: Type.Integer({ minimum: 1, maximum: 200, default: 20, description: 'page size' }),
  appId: Type.Optional(IdParam),
  workflowId: Type.Optional(IdParam),
  status: Type.Optional(Type.Enum(DELIVERY_STATUSES, { description: 'PENDING, DELIVERED, DEAD or PAUSED' })),
  eventType: Type.Optional(Type.Enum(WEBHOOK_EVENT_TYPES, { description: WEBHOOK_EVENT_TYPES.join(', ') })),
});
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

const nullableTime = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description });

const deliveryMembers = {
  id: Type.Integer(),
  appId: Type.Integer(),
  workflowId: Type.Integer(),
  eventId: Type.String({ description: "X-Event-Id and the body's id: the same on every attempt and on replays" }),
  eventType: Type.Enum(WEBHOOK_EVENT_TYPES),
  status: Type.Enum(DELIVERY_STATUSES, {
    description:
      'PENDING (first attempt or a retry to come), DELIVERED (a 2xx answer), DEAD (24 hours of failures, or the app was disabled), ' +
      "PAUSED (held, not attempted: the app's callback failed for 24 hours in a row; a replay or an edit of the app resumes it)",
  }),
  attempts: Type.Integer(),
  nextAttemptAt: nullableTime('while PENDING: when the next attempt is due'),
  lastAttemptAt: nullableTime('when the last attempt was made'),
  lastStatusCode: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the HTTP status of the last answer; null when there was none (timeout, refused, unreachable)',
  }),
  lastError: Type.Union([Type.String(), Type.Null()], { description: 'why the last attempt failed' }),
  deliveredAt: nullableTime('when a 2xx answer came'),
  deadAt: nullableTime('when it was dead-lettered'),
  replayOfId: Type.Union([Type.Integer(), Type.Null()], { description: 'the delivery this one replays' }),
  createdAt: Type.String({ format: 'date-time' }),
};

export const DeliveryResponse = Type.Object(deliveryMembers);
export const DeliveryDetailResponse = Type.Object({
  ...deliveryMembers,
  payload: Type.Unknown({ description: 'the JSON body sent: {id, type, createdAt, data}' }),
});

export const DeliveryPage = NumberedPage(DeliveryResponse);

const iso = (value: Date | null) => (value ? value.toISOString() : null);

export function toDeliveryResponse(row: DeliveryRow): Static<typeof DeliveryResponse> {
  return {
    id: row.id,
    appId: row.appId,
    workflowId: row.workflowId,
    eventId: row.eventId,
    eventType: row.eventType as Static<typeof DeliveryResponse>['eventType'],
    status: row.status as Static<typeof DeliveryResponse>['status'],
    attempts: row.attempts,
    nextAttemptAt: row.status === 'PENDING' ? row.nextAttemptAt.toISOString() : null,
    lastAttemptAt: iso(row.lastAttemptAt),
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    deliveredAt: iso(row.deliveredAt),
    deadAt: iso(row.deadAt),
    replayOfId: row.replayOfId,
    createdAt: row.createdAt.toISOString(),
  };
}

export function toDeliveryDetailResponse(row: DeliveryRow): Static<typeof DeliveryDetailResponse> {
  return { ...toDeliveryResponse(row), payload: JSON.parse(row.body) as unknown };
}
