import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedStatement } from '../../platform/db/prepared.ts';
import { businessApps, organizations, webhookDeliveries, workflows } from '../../platform/db/schema/index.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewDelivery = typeof webhookDeliveries.$inferInsert;

export type EventAudience = {
  workflow: { workflowId: number; name: string; status: string; organizationId: number };
  apps: { appId: number; paused: boolean }[];
};

const audienceColumns = {
  workflowId: workflows.id,
  name: workflows.name,
  status: workflows.status,
  organizationId: workflows.organizationId,
  appId: businessApps.id,
  paused: sql<boolean>`${businessApps.callbackPausedAt} is not null`,
};

/** The apps of the workflow's organization that take webhooks: enabled, with a secret. */
const takesWebhooks = and(
  eq(businessApps.organizationId, workflows.organizationId),
  eq(businessApps.status, true),
  sql`${businessApps.webhookSecret} is not null`,
);

const eventAudience = preparedStatement('webhook_event_audience', (db) =>
  db
    .select(audienceColumns)
    .from(workflows)
    .leftJoin(businessApps, takesWebhooks)
    .where(eq(workflows.id, sql.placeholder('workflowId'))),
);

/**
 * The workflow an event is about, and the apps of its organization that take webhooks (enabled, with a secret),
 * each with whether its callback is paused: one round trip.
 */
export async function findEventAudience(db: DbOrTx, workflowId: number): Promise<EventAudience | null> {
  const rows = await eventAudience(db).execute({ workflowId });
  if (rows.length === 0) return null;
  const { appId: _first, paused: _paused, ...workflow } = rows[0];
  return {
    workflow,
    apps: rows.flatMap((row) => (row.appId === null ? [] : [{ appId: row.appId, paused: Boolean(row.paused) }])),
  };
}

/** findEventAudience for many workflows in one statement; a workflow that does not exist is absent from the map. */
export async function findEventAudiences(db: DbOrTx, workflowIds: number[]): Promise<Map<number, EventAudience>> {
  const audiences = new Map<number, EventAudience>();
  if (workflowIds.length === 0) return audiences;
  const rows = await db
    .select(audienceColumns)
    .from(workflows)
    .leftJoin(businessApps, takesWebhooks)
    .where(inArray(workflows.id, [...new Set(workflowIds)]));
  for (const { appId, paused, ...workflow } of rows) {
    const audience = audiences.get(workflow.workflowId) ?? { workflow, apps: [] };
    if (appId !== null) audience.apps.push({ appId, paused: Boolean(paused) });
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
 * The status is written into the text, not passed as a value: the pool plans every statement generically
 * (plan_cache_mode), and only a literal lets that plan use the partial indexes webhook_deliveries_due_idx and
 * _queued_idx. With `status = $1` each poll read the whole table: the history, and every held (PAUSED) delivery.
 */
export async function claimDeliveriesToQueue(
  db: DbOrTx,
  limit: number,
  staleBefore: Date,
): Promise<{ id: number; appId: number }[]> {
  return db
    .select({ id: webhookDeliveries.id, appId: webhookDeliveries.appId })
    .from(webhookDeliveries)
    .where(sql`${webhookDeliveries.status} = 'PENDING' and ((${webhookDeliveries.queuedAt} is null and ${webhookDeliveries.nextAttemptAt} <= now())
      or ${webhookDeliveries.queuedAt} < ${staleBefore.toISOString()}::timestamptz)`)
    .orderBy(webhookDeliveries.nextAttemptAt)
    .limit(limit)
    .for('update', { skipLocked: true });
}

export async function markQueued(db: DbOrTx, ids: number[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.update(webhookDeliveries).set({ queuedAt: at }).where(inArray(webhookDeliveries.id, ids));
}

/** Deliveries with what an attempt needs of their app (the current callback URL, secret and status, and whether its callback is paused or failing). */
export async function findDeliveriesForAttempt(db: DbOrTx, deliveryIds: number[]) {
  return db
    .select({
      delivery: webhookDeliveries,
      app: {
        id: businessApps.id,
        callbackUrl: businessApps.callbackUrl,
        webhookSecret: businessApps.webhookSecret,
        status: businessApps.status,
        failingSince: businessApps.callbackFailingSince,
        pausedAt: businessApps.callbackPausedAt,
      },
    })
    .from(webhookDeliveries)
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
  const rows = records.map(
    (
      r,
    ) => sql`(${r.id}::int, ${r.status}::text, ${r.attempts}::int, ${time(r.lastAttemptAt)}::timestamptz, ${r.lastStatusCode}::int,
    ${r.lastError}::text, ${time(r.deliveredAt)}::timestamptz, ${time(r.deadAt)}::timestamptz, ${time(r.nextAttemptAt)}::timestamptz)`,
  );
  await db.execute(sql`update webhook_deliveries d set status = v.status, attempts = v.attempts, last_attempt_at = v.last_attempt_at,
      last_status_code = v.last_status_code, last_error = v.last_error, delivered_at = v.delivered_at, dead_at = v.dead_at,
      next_attempt_at = coalesce(v.next_attempt_at, d.next_attempt_at), queued_at = null
    from (values ${sql.join(rows, sql`, `)}) as v(id, status, attempts, last_attempt_at, last_status_code, last_error, delivered_at, dead_at, next_attempt_at)
    where d.id = v.id and d.status = 'PENDING'`);
}

export type DeliveryFilter = {
  organizationId: number;
  appId?: number;
  workflowId?: number;
  status?: string;
  eventType?: string;
};

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
export async function findDeliveries(
  db: DbOrTx,
  filter: DeliveryFilter,
  page: { limit: number; offset: number },
): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(matching(filter))
    .orderBy(desc(webhookDeliveries.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countDeliveries(db: DbOrTx, filter: DeliveryFilter): Promise<number> {
  const [row] = await db.select({ n: count() }).from(webhookDeliveries).where(matching(filter));
  return row.n;
}

/** The delivery when it belongs to the organization; another organization's is null, like a missing one. */
export async function findDeliveryOfOrganization(
  db: DbOrTx,
  organizationId: number,
  deliveryId: number,
): Promise<DeliveryRow | null> {
  const [row] = await db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.organizationId, organizationId)));
  return row ?? null;
}

export async function findAppStatus(
  db: DbOrTx,
  appId: number,
): Promise<{ status: boolean; hasSecret: boolean } | null> {
  const [row] = await db
    .select({ status: businessApps.status, hasSecret: sql<boolean>`${businessApps.webhookSecret} is not null` })
    .from(businessApps)
    .where(eq(businessApps.id, appId));
  return row ?? null;
}

/** The callback state of the apps a delivery job attempted for, locked (in id order) so that concurrent jobs of one app settle it one after the other. */
export async function lockCallbackApps(tx: DbOrTx, appIds: number[]) {
  if (appIds.length === 0) return [];
  return tx
    .select({
      id: businessApps.id,
      organizationId: businessApps.organizationId,
      appName: businessApps.appName,
      callbackUrl: businessApps.callbackUrl,
      failingSince: businessApps.callbackFailingSince,
      pausedAt: businessApps.callbackPausedAt,
    })
    .from(businessApps)
    .where(inArray(businessApps.id, appIds))
    .orderBy(businessApps.id)
    .for('update');
}

/** The columns callback_failing_since and callback_paused_at are the webhooks module's state on the app row; only this module writes them. */
export async function setCallbackState(
  db: DbOrTx,
  appId: number,
  values: { failingSince?: Date | null; pausedAt?: Date | null },
): Promise<void> {
  await db
    .update(businessApps)
    .set({
      ...(values.failingSince === undefined ? {} : { callbackFailingSince: values.failingSince }),
      ...(values.pausedAt === undefined ? {} : { callbackPausedAt: values.pausedAt }),
    })
    .where(eq(businessApps.id, appId));
}

/** A delivered attempt ends the app's run of failures (unless its callback is paused: only the owner resumes it). */
export async function clearCallbackFailing(db: DbOrTx, appIds: number[]): Promise<void> {
  if (appIds.length === 0) return;
  await db
    .update(businessApps)
    .set({ callbackFailingSince: null })
    .where(
      and(
        inArray(businessApps.id, appIds),
        sql`${businessApps.callbackFailingSince} is not null`,
        sql`${businessApps.callbackPausedAt} is null`,
      ),
    );
}

/**
 * Holds the app's PENDING deliveries (status PAUSED, not queued). Both arms of the condition are the predicates of
 * the partial indexes webhook_deliveries_due_idx and _queued_idx, so only the app's pending rows are read, not its history.
 */
export async function holdPendingDeliveries(db: DbOrTx, appId: number): Promise<number> {
  const held = await db
    .update(webhookDeliveries)
    .set({ status: 'PAUSED', queuedAt: null })
    .where(
      and(
        eq(webhookDeliveries.appId, appId),
        sql`((${webhookDeliveries.status} = 'PENDING' and ${webhookDeliveries.queuedAt} is null)
      or (${webhookDeliveries.status} = 'PENDING' and ${webhookDeliveries.queuedAt} is not null))`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return held.length;
}

/** Holds these deliveries, still PENDING, of a paused app (a job found them queued after the pause). */
export async function holdDeliveries(db: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(webhookDeliveries)
    .set({ status: 'PAUSED', queuedAt: null })
    .where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.status, 'PENDING')));
}

/** Hands these PENDING deliveries back to the dispatcher (queued_at cleared): their app was resumed while their job waited. */
export async function unqueueDeliveries(db: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(webhookDeliveries)
    .set({ queuedAt: null })
    .where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.status, 'PENDING')));
}

/** Releases the app's held deliveries: PENDING again, due now (each keeps its event's retry window). Answers how many. */
export async function releaseHeldDeliveries(db: DbOrTx, appId: number, at: Date): Promise<number> {
  const released = await db
    .update(webhookDeliveries)
    .set({ status: 'PENDING', nextAttemptAt: at, queuedAt: null })
    .where(and(eq(webhookDeliveries.appId, appId), eq(webhookDeliveries.status, 'PAUSED')))
    .returning({ id: webhookDeliveries.id });
  return released.length;
}

/** The app row locked for a resume; null when it does not exist. */
export async function lockAppCallback(
  db: DbOrTx,
  appId: number,
): Promise<{ failingSince: Date | null; pausedAt: Date | null } | null> {
  const [row] = await db
    .select({ failingSince: businessApps.callbackFailingSince, pausedAt: businessApps.callbackPausedAt })
    .from(businessApps)
    .where(eq(businessApps.id, appId))
    .for('update');
  return row ?? null;
}

/** Who is mailed about an organization's webhooks: its owner. */
export async function findOrganizationOwnerId(db: DbOrTx, organizationId: number): Promise<number | null> {
  const [row] = await db
    .select({ ownerUserId: organizations.ownerUserId })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row?.ownerUserId ?? null;
}
