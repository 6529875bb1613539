import crypto from 'node:crypto';
import type { Tx } from '../../platform/db/client.ts';
import type { ActivityRow } from '../activities/activities.service.ts';
import { findEventAudience, insertDeliveries } from './webhooks.repo.ts';

/** RUNTIME.md "Webhooks": a workflow was sent, opened, signed, approved, declined, delegated, completed or voided. */
export const WEBHOOK_EVENT_TYPES = [
  'workflow.sent', 'workflow.opened', 'workflow.signed', 'workflow.approved', 'workflow.declined', 'workflow.delegated', 'workflow.completed', 'workflow.voided',
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
 * rows to the job queue after the commit.
 */
export async function queueWebhookEvents(tx: Tx, activity: ActivityRow): Promise<void> {
  const first = EVENT_OF_KIND[activity.kind];
  if (!first) return;
  const audience = await findEventAudience(tx, activity.workflowId);
  if (!audience || audience.appIds.length === 0) return;
  const { workflow } = audience;
  const types: WebhookEventType[] = activity.kind === 'DECLINED' && workflow.status === 'VOID' ? [first, 'workflow.voided'] : [first];
  const data: WebhookEventData = {
    workflowId: workflow.workflowId,
    workflowName: workflow.name,
    workflowStatus: workflow.status,
    recipientId: activity.recipientId,
    recipientStatus: activity.recipientId === null ? null : activity.status || null,
    action: activity.action,
    sentence: activity.sentence,
  };
  const rows = types.flatMap((type) => {
    const event: WebhookEvent = { id: crypto.randomUUID(), type, createdAt: activity.createdAt.toISOString(), data };
    const body = JSON.stringify(event);
    return audience.appIds.map((appId) => ({
      organizationId: workflow.organizationId, appId, workflowId: workflow.workflowId, activityId: activity.id,
      eventId: event.id, eventType: type, body,
    }));
  });
  await insertDeliveries(tx, rows);
}
