import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import { assertPersonalSession } from '../business-apps/business-app-caller.ts';
import {
  countDeliveries,
  findAppStatus,
  findDeliveries,
  findDeliveryOfOrganization,
  insertDeliveries,
  type DeliveryRow,
} from './webhooks.repo.ts';
import type { DeliveriesQuery } from './webhooks.schemas.ts';
import { WEBHOOK_DELIVER_JOB } from './webhooks.jobs.ts';
import { resumeCallback } from './callback-pause.ts';

/**
 * The owner's view of webhook deliveries (RUNTIME.md "Webhooks"): the organization's deliveries, newest first, and
 * replay of one that has ended (DELIVERED or DEAD) or is held (PAUSED). Another organization's delivery is 404.
 */
export function createWebhookService({ db, jobs }: { db: Db; jobs: JobQueue }) {
  return { list, get, replay };

  async function list(caller: UserCaller, query: DeliveriesQuery) {
    assertPersonalSession(caller);
    const filter = {
      organizationId: caller.organizationId,
      appId: query.appId,
      workflowId: query.workflowId,
      status: query.status,
      eventType: query.eventType,
    };
    const [rows, total] = await Promise.all([
      findDeliveries(db, filter, { limit: query.size, offset: query.page * query.size }),
      countDeliveries(db, filter),
    ]);
    return { rows, total, totalPages: Math.ceil(total / query.size), number: query.page, size: query.size };
  }

  async function get(caller: UserCaller, deliveryId: number): Promise<DeliveryRow> {
    assertPersonalSession(caller);
    const delivery = await findDeliveryOfOrganization(db, caller.organizationId, deliveryId);
    if (!delivery) throw new AppError('NOT_FOUND', 'Webhook delivery not found');
    return delivery;
  }

  /**
   * Sends the delivery's event again as a new delivery (same event id and body, so a receiver that deduplicates
   * sees the same event; signed with the app's current secret, to its current callback URL), with a fresh 24-hour
   * retry window. A delivery still PENDING is being attempted already: 400. A disabled app: 400. A replay resumes
   * the app's paused callback (its held deliveries go out again); replaying a held (PAUSED) delivery itself answers
   * that delivery, released, rather than a copy of it.
   */
  async function replay(caller: UserCaller, deliveryId: number): Promise<DeliveryRow> {
    assertPersonalSession(caller);
    const replayed = await db.transaction(async (tx) => {
      const original = await findDeliveryOfOrganization(tx, caller.organizationId, deliveryId);
      if (!original) throw new AppError('NOT_FOUND', 'Webhook delivery not found');
      if (original.status === 'PENDING')
        throw new AppError(
          'WEBHOOK_DELIVERY_PENDING',
          `Delivery ${original.id} is still being attempted (attempt ${original.attempts + 1} is due)`,
        );
      const app = await findAppStatus(tx, original.appId);
      if (!app?.status)
        throw new AppError(
          'BUSINESS_APP_DISABLED',
          'The business app is disabled; enable it before replaying its deliveries',
        );
      if (!app.hasSecret)
        throw new AppError(
          'BUSINESS_APP_DISABLED',
          'The business app has no webhook secret; rotate its WEBHOOK secret first',
        );
      await resumeCallback(tx, original.appId, new Date());
      // The dispatcher sends the released deliveries, this one among them, at its next tick.
      if (original.status === 'PAUSED')
        return (await findDeliveryOfOrganization(tx, caller.organizationId, original.id))!;
      const [row] = await insertDeliveries(tx, [
        {
          organizationId: original.organizationId,
          appId: original.appId,
          workflowId: original.workflowId,
          activityId: original.activityId,
          replayOfId: original.id,
          eventId: original.eventId,
          eventType: original.eventType,
          body: original.body,
          queuedAt: new Date(),
        },
      ]);
      await jobs.send(tx, WEBHOOK_DELIVER_JOB, { deliveryIds: [row.id] });
      return row;
    });
    jobs.notify(WEBHOOK_DELIVER_JOB);
    return replayed;
  }
}

export type WebhookService = ReturnType<typeof createWebhookService>;
