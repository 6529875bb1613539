import crypto from 'node:crypto';
import type { Tx } from '../../platform/db/client.ts';
/** What an event is made of: the audit-trail row the activities module records and publishes here. */
export type PublishedActivity = {
  id: number;
  workflowId: number;
  recipientId: number | null;
  kind: string;
  status: string | null;
  action: string;
  sentence: string;
  createdAt: Date;
};
import { findEventAudience, findEventAudiences, insertDeliveries, type EventAudience } from './webhooks.repo.ts';

/** RUNTIME.md "Webhooks": a workflow was sent, opened, signed, approved, declined, delegated, completed or voided. */
export const WEBHOOK_EVENT_TYPES = [
  'workflow.sent',
  'workflow.opened',
  'workflow.signed',
  'workflow.approved',
  'workflow.declined',
  'workflow.delegated',
  'workflow.completed',
  'workflow.voided',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * Activity kinds (the audit trail's) that are webhook events. A decline voids the workflow, so it is two events,
 * declined then voided; VOIDED stands for a void recorded on its own. Other kinds (uploads, comments, consent, a
 * failed seal) are not events.
 */
const EVENT_OF_KIND: Record<string, WebhookEventType> = {
  WORKFLOW_SENT: 'workflow.sent',
  DOCUMENT_OPENED: 'workflow.opened',
  SIGNED: 'workflow.signed',
  APPROVED: 'workflow.approved',
  DECLINED: 'workflow.declined',
  DELEGATED: 'workflow.delegated',
  COMPLETED: 'workflow.completed',
  VOIDED: 'workflow.voided',
};

/** What a webhook body carries: `{id, type, createdAt, data}`. */
export type WebhookEvent = { id: string; type: WebhookEventType; createdAt: string; data: WebhookEventData };
export type WebhookEventData = {
  workflowId: number;
  workflowName: string;
  /** The workflow's status after the change: SENT, COMPLETED, APPROVED, VOID. */
  workflowStatus: string;
  /** The recipient row that acted (opened, signed, approved, declined, was delegated away), else null. */
  recipientId: number | null;
  /** That recipient's status after the change, else null. */
  recipientStatus: string | null;
  /** The history label and sentence of the audit row. */
  action: string;
  sentence: string;
};

/**
 * Called by recordActivity inside the transaction of the state change: when the activity is a webhook event,
 * one delivery row per event per app of the workflow's organization that takes webhooks, in that same transaction,
 * so an event is delivered exactly when its change commits. Every workflow of the organization counts, whoever
 * created it: an app is the organization's integration. Nothing here waits on a receiver; the dispatcher hands the
 * rows to the job queue after the commit. An app whose callback is paused still gets its rows, held (PAUSED), so
 * nothing is lost while it is paused and nothing is attempted until its owner resumes it.
 */
export async function queueWebhookEvents(tx: Tx, activity: PublishedActivity): Promise<void> {
  if (!EVENT_OF_KIND[activity.kind]) return;
  const audience = await findEventAudience(tx, activity.workflowId);
  if (!audience || audience.apps.length === 0) return;
  await insertDeliveries(tx, deliveryRows(activity, audience));
}

/** queueWebhookEvents for many activities (recordActivities): one audience query and one insert for all of them. */
export async function queueWebhookEventsForMany(tx: Tx, activities: PublishedActivity[]): Promise<void> {
  const events = activities.filter((activity) => EVENT_OF_KIND[activity.kind]);
  if (events.length === 0) return;
  const audiences = await findEventAudiences(
    tx,
    events.map((activity) => activity.workflowId),
  );
  const rows = events.flatMap((activity) => {
    const audience = audiences.get(activity.workflowId);
    return audience && audience.apps.length > 0 ? deliveryRows(activity, audience) : [];
  });
  if (rows.length > 0) await insertDeliveries(tx, rows);
}

/** One delivery row per event of `activity` per app that takes webhooks. */
function deliveryRows(activity: PublishedActivity, audience: EventAudience) {
  const first = EVENT_OF_KIND[activity.kind];
  const { workflow } = audience;
  const types: WebhookEventType[] =
    activity.kind === 'DECLINED' && workflow.status === 'VOID' ? [first, 'workflow.voided'] : [first];
  const data: WebhookEventData = {
    workflowId: workflow.workflowId,
    workflowName: workflow.name,
    workflowStatus: workflow.status,
    recipientId: activity.recipientId,
    recipientStatus: activity.recipientId === null ? null : activity.status || null,
    action: activity.action,
    sentence: activity.sentence,
  };
  return types.flatMap((type) => {
    const event: WebhookEvent = { id: crypto.randomUUID(), type, createdAt: activity.createdAt.toISOString(), data };
    const body = JSON.stringify(event);
    return audience.apps.map(({ appId, paused }) => ({
      organizationId: workflow.organizationId,
      appId,
      workflowId: workflow.workflowId,
      activityId: activity.id,
      eventId: event.id,
      eventType: type,
      body,
      ...(paused ? { status: 'PAUSED' } : {}),
    }));
  });
}
