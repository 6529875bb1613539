import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { documents, fieldEvents, fields, templateInstanceFields, workflows } from '../../platform/db/schema/index.ts';

/**
 * Counts of a template's workflows by status, one index-only pass over workflows_template_idx. APPROVED counts as
 * completed (it is finished like COMPLETED, see docs/envelopes.md "Statuses").
 */
export async function countByStatus(db: DbOrTx, templateId: number) {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      completed: sql<number>`count(*) filter (where ${workflows.status} in ('COMPLETED', 'APPROVED'))::int`,
      void: sql<number>`count(*) filter (where ${workflows.status} = 'VOID')::int`,
      inProgress: sql<number>`count(*) filter (where ${workflows.status} = 'SENT')::int`,
      draft: sql<number>`count(*) filter (where ${workflows.status} = 'DRAFT')::int`,
    })
    .from(workflows)
    .where(and(eq(workflows.templateId, templateId), isNull(workflows.deletedAt)));
  return row;
}

/** Hours from sent to completed of a template's finished workflows: count, mean, median, 90th percentile and buckets. */
export async function timeToSign(db: DbOrTx, templateId: number) {
  const result = await db.execute<{
    n: number;
    avg: number | null;
    median: number | null;
    p90: number | null;
    under1h: number;
    under1d: number;
    under3d: number;
    under7d: number;
    over7d: number;
  }>(sql`select count(*)::int as n, avg(h)::float8 as avg,
      percentile_cont(0.5) within group (order by h)::float8 as median, percentile_cont(0.9) within group (order by h)::float8 as p90,
      count(*) filter (where h < 1)::int as under1h, count(*) filter (where h >= 1 and h < 24)::int as under1d,
      count(*) filter (where h >= 24 and h < 72)::int as under3d, count(*) filter (where h >= 72 and h < 168)::int as under7d,
      count(*) filter (where h >= 168)::int as over7d
    from (select extract(epoch from (w.completed_at - w.sent_at)) / 3600.0 as h from workflows w
      where w.template_id = ${templateId} and w.deleted_at is null and w.status in ('COMPLETED', 'APPROVED')
        and w.sent_at is not null and w.completed_at is not null and w.completed_at >= w.sent_at) s`);
  return result.rows[0];
}

/**
 * Per template field, over the events received since `since` (the current snapshot): sessions that reached the field (viewed, focused or
 * filled it), that filled it, and that passed over it (a glance) before filling it later. One grouped pass over
 * field_events_template_idx; a session is one (sessionId, recipient row).
 */
export async function dropOffCounts(db: DbOrTx, templateId: number, since: Date) {
  const result = await db.execute<{
    placeholder_key: string;
    reached: number;
    completed: number;
    recoveries: number;
  }>(sql`
    select placeholder_key, count(*) filter (where reached)::int as reached, count(*) filter (where completed)::int as completed,
      count(*) filter (where glanced_at < filled_at)::int as recoveries
    from (select placeholder_key, session_id, recipient_id,
        bool_or(type in ('FIELD_VIEWED', 'FIELD_FOCUSED', 'FIELD_FILLED')) as reached,
        bool_or(type = 'FIELD_FILLED') as completed,
        min(at) filter (where type = 'FIELD_GLANCED') as glanced_at,
        min(at) filter (where type = 'FIELD_FILLED') as filled_at
      from field_events
      where template_id = ${templateId} and placeholder_key is not null and received_at >= ${since.toISOString()}
      group by placeholder_key, session_id, recipient_id) s
    group by placeholder_key`);
  return result.rows;
}

export async function countSessions(db: DbOrTx, templateId: number, since: Date): Promise<number> {
  const result = await db.execute<{
    n: number;
  }>(sql`select count(*)::int as n from (select distinct session_id, recipient_id from field_events
    where template_id = ${templateId} and received_at >= ${since.toISOString()}) s`);
  return result.rows[0].n;
}

// ---------------------------------------------------------------------------------------------------------
// Field events ingestion

export type EventField = { id: number; documentId: number; recipientId: number | null; placeholderKey: string | null };

export async function findEventFields(db: DbOrTx, workflowId: number, fieldIds: number[]): Promise<EventField[]> {
  if (fieldIds.length === 0) return [];
  return db
    .select({
      id: fields.id,
      documentId: fields.documentId,
      recipientId: fields.recipientId,
      placeholderKey: templateInstanceFields.placeholderKey,
    })
    .from(fields)
    .leftJoin(templateInstanceFields, eq(templateInstanceFields.fieldId, fields.id))
    .where(and(eq(fields.workflowId, workflowId), inArray(fields.id, fieldIds)));
}

export async function isDocumentOf(db: DbOrTx, workflowId: number, documentId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(and(eq(documents.id, documentId), eq(documents.workflowId, workflowId)));
  return row !== undefined;
}

export async function countEventsOfRecipient(db: DbOrTx, recipientId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(fieldEvents)
    .where(eq(fieldEvents.recipientId, recipientId));
  return row.n;
}

export type NewFieldEvent = typeof fieldEvents.$inferInsert;

/** A repeated event of a session (same recipient row, field and type) is kept once, the first. */
export async function insertFieldEvents(db: DbOrTx, rows: NewFieldEvent[]): Promise<void> {
  if (rows.length > 0) await db.insert(fieldEvents).values(rows).onConflictDoNothing();
}
