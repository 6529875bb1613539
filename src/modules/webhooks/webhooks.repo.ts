import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { businessApps, webhookDeliveries, workflows } from '../../platform/db/schema/index.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDelivery = typeof webhookDeliveries.$inferInsert;

const eventAudience = preparedStatement('webhook_event_audience', (db) => db.select({
  workflowId: workflows.id, name: workflows.name, status: workflows.status, organizationId: workflows.organizationId, appId: businessApps.id,
}).from(workflows)
  .leftJoin(businessApps, and(eq(businessApps.organizationId, workflows.organizationId), eq(businessApps.status, true), sql`${businessApps.webhookSecret} is not null`))
  .where(eq(workflows.id, sql.placeholder('workflowId'))));

/** The workflow an event is about, and the apps of its organization that take webhooks (enabled, with a secret): one round trip. */
export async function findEventAudience(db: DbOrTx, workflowId: number) {
  const rows = await eventAudience(db).execute({ workflowId });
  if (rows.length === 0) return null;
  const { appId: _first, ...workflow } = rows[0];
  return { workflow, appIds: rows.flatMap((row) => (row.appId === null ? [] : [row.appId])) };
}

/** findEventAudience for many workflows in one statement; a workflow that does not exist is absent from the map. */
export async function findEventAudiences(db: DbOrTx, workflowIds: number[]) {
  const audiences = new Map<number, { workflow: { workflowId: number; name: string; status: string; organizationId: number }; appIds: number[] }>();
  if (workflowIds.length === 0) return audiences;
  const rows = await db.select({
    workflowId: workflows.id, name: workflows.name, status: workflows.status, organizationId: workflows.organizationId, appId: businessApps.id,
  }).from(workflows)
    .leftJoin(businessApps, and(eq(businessApps.organizationId, workflows.organizationId), eq(businessApps.status, true), sql`${businessApps.webhookSecret} is not null`))
    .where(inArray(workflows.id, [...new Set(workflowIds)]));
  for (const { appId, ...workflow } of rows) {
    const audience = audiences.get(workflow.workflowId) ?? { workflow, appIds: [] };
    if (appId !== null) audience.appIds.push(appId);
    audiences.set(workflow.workflowId, audience);
  }
  return audiences;
}

export async function insertDeliveries(db: DbOrTx, rows: NewDelivery[]): Promise<DeliveryRow[]> {
  if (rows.length === 0) return [];
  return db.insert(webhookDeliveries).values(rows).returning();
}

/**
 * Takes up to `limit` deliveries that need a job: due and not queued, or queued before `staleBefore` and never
 * reported back (their job was lost). Locked with SKIP LOCKED, so instances polling together take different rows.
 */
export async function claimDeliveriesToQueue(db: DbOrTx, limit: number, staleBefore: Date): Promise<{ id: number; appId: number }[]> {
  return db.select({ id: webhookDeliveries.id, appId: webhookDeliveries.appId }).from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'PENDING'), sql`((${webhookDeliveries.queuedAt} is null and ${webhookDeliveries.nextAttemptAt} <= now())
      or ${webhookDeliveries.queuedAt} < ${staleBefore.toISOString()}::timestamptz)`))
    .orderBy(webhookDeliveries.nextAttemptAt).limit(limit).for('update', { skipLocked: true });
}

export async function markQueued(db: DbOrTx, ids: number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.update(webhookDeliveries).set({ queuedAt: at }).where(inArray(webhookDeliveries.id, ids));
}

/** Deliveries with what an attempt needs of their app (the current callback URL, secret and status). */
export async function findDeliveriesForAttempt(db: DbOrTx, deliveryIds: number[]) {
  return db.select({
    delivery: webhookDeliveries,
    app: { callbackUrl: businessApps.callbackUrl, webhookSecret: businessApps.webhookSecret, status: businessApps.status },
  }).from(webhookDeliveries)
    .innerJoin(businessApps, eq(businessApps.id, webhookDeliveries.appId))
    .where(inArray(webhookDeliveries.id, deliveryIds));
}

/** What one attempt leaves on its delivery; `nextAttemptAt` null keeps the current one. */
export type AttemptRecord = {
  id: number;
  status: 'PENDING' | 'DELIVERED' | 'DEAD';
  attempts: number;
  lastAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  deadAt: Date | null;
  nextAttemptAt: Date | null;
};

/**
 * Records attempts in one statement and clears queued_at, only on deliveries still PENDING: a second run of the
 * same job changes nothing that was recorded.
 */
export async function recordAttempts(db: DbOrTx, records: AttemptRecord[]): Promise<void> {
  if (records.length === 0) return;
  const time = (value: Date | null) => (value ? value.toISOString() : null);
  const rows = records.map((r) => sql`(${r.id}::int, ${r.status}::text, ${r.attempts}::int, ${time(r.lastAttemptAt)}::timestamptz, ${r.lastStatusCode}::int,
    ${r.lastError}::text, ${time(r.deliveredAt)}::timestamptz, ${time(r.deadAt)}::timestamptz, ${time(r.nextAttemptAt)}::timestamptz)`);
  await db.execute(sql`update webhook_deliveries d set status = v.status, attempts = v.attempts, last_attempt_at = v.last_attempt_at,
      last_status_code = v.last_status_code, last_error = v.last_error, delivered_at = v.delivered_at, dead_at = v.dead_at,
      next_attempt_at = coalesce(v.next_attempt_at, d.next_attempt_at), queued_at = null
    from (values ${sql.join(rows, sql`, `)}) as v(id, status, attempts, last_attempt_at, last_status_code, last_error, delivered_at, dead_at, next_attempt_at)
    where d.id = v.id and d.status = 'PENDING'`);
}

export type DeliveryFilter = { organizationId: number; appId?: number; workflowId?: number; status?: string; eventType?: string };

function matching(filter: DeliveryFilter): SQL | undefined {
  return and(
    eq(webhookDeliveries.organizationId, filter.organizationId),
    filter.appId === undefined ? undefined : eq(webhookDeliveries.appId, filter.appId),
    filter.workflowId === undefined ? undefined : eq(webhookDeliveries.workflowId, filter.workflowId),
    filter.status === undefined ? undefined : eq(webhookDeliveries.status, filter.status),
    filter.eventType === undefined ? undefined : eq(webhookDeliveries.eventType, filter.eventType),
  );
}

/** Newest first. */
export async function findDeliveries(db: DbOrTx, filter: DeliveryFilter, page: { limit: number; offset: number }): Promise<DeliveryRow[]> {
  return db.select().from(webhookDeliveries).where(matching(filter)).orderBy(desc(webhookDeliveries.id)).limit(page.limit).offset(page.offset);
}

export async function countDeliveries(db: DbOrTx, filter: DeliveryFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookDeliveries).where(matching(filter));
  return row.n;
}

/** The delivery when it belongs to the organization; another organization's is null, like a missing one. */
export async function findDeliveryOfOrganization(db: DbOrTx, organizationId: number, deliveryId: number): Promise<DeliveryRow | null> {
  const [row] = await db.select().from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.organizationId, organizationId)));
  return row ?? null;
}

export async function findAppStatus(db: DbOrTx, appId: number): Promise<{ status: boolean; hasSecret: boolean } | null> {
  const [row] = await db.select({ status: businessApps.status, hasSecret: sql<boolean>`${businessApps.webhookSecret} is not null` })
    .from(businessApps).where(eq(businessApps.id, appId));
  return row ?? null;
}
