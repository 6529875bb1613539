import { and, asc, eq, gt, inArray, isNull, notExists, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { documents, fields, recipients, workflows } from '../../platform/db/schema/index.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';

/*
 * The Power Survey's queries. Like signing, the survey co-writes the envelope tables: the status columns of a
 * survey parent and of its children (children are created through workflows/workflow-core.ts), always under the
 * parent's row lock.
 */

export type SurveyField = { id: number; fieldType: string; recipientId: number | null; label: string | null };

/**
 * The parent under a row lock; null when gone. The outcome and the decline take it FOR UPDATE; dispatch batches
 * FOR SHARE, so several run at once while a decline waits for them (and they for it).
 */
export async function lockSurvey(
  tx: DbOrTx,
  workflowId: number,
  mode: 'update' | 'share' = 'update',
): Promise<WorkflowRow | null> {
  const [row] = await tx
    .select()
    .from(workflows)
    .where(and(eq(workflows.id, workflowId), isNull(workflows.deletedAt)))
    .for(mode);
  return row ?? null;
}

export async function countSurveyDocuments(db: DbOrTx, workflowId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(documents)
    .where(eq(documents.workflowId, workflowId));
  return row.n;
}

export async function findSurveyFields(db: DbOrTx, workflowId: number): Promise<SurveyField[]> {
  return db
    .select({ id: fields.id, fieldType: fields.fieldType, recipientId: fields.recipientId, label: fields.label })
    .from(fields)
    .where(eq(fields.workflowId, workflowId))
    .orderBy(asc(fields.id));
}

export async function findSurveyRecipientRoles(
  db: DbOrTx,
  workflowId: number,
): Promise<{ id: number; role: string }[]> {
  return db
    .select({ id: recipients.id, role: recipients.role })
    .from(recipients)
    .where(eq(recipients.workflowId, workflowId));
}

/**
 * The next `limit` recipients of the survey that have no child yet, in id order (one dispatch batch), locked:
 * batches running at once skip each other's rows, so each takes a disjoint set.
 */
export async function findRecipientsWithoutChild(tx: DbOrTx, parentId: number, limit: number): Promise<RecipientRow[]> {
  const child = tx
    .select({ one: sql`1` })
    .from(workflows)
    .where(and(eq(workflows.parentWorkflowId, parentId), eq(workflows.parentRecipientId, recipients.id)));
  return tx
    .select()
    .from(recipients)
    .where(and(eq(recipients.workflowId, parentId), notExists(child)))
    .orderBy(asc(recipients.id))
    .limit(limit)
    .for('update', { skipLocked: true });
}

/**
 * Which of `recipientIds` have a child now. Asked after locking them: the locking query's snapshot predates a batch
 * that committed while it waited, so it can pick rows whose child that batch has just made; this statement sees it.
 */
export async function findRecipientsWithChild(
  tx: DbOrTx,
  parentId: number,
  recipientIds: number[],
): Promise<Set<number>> {
  if (recipientIds.length === 0) return new Set();
  const rows = await tx
    .select({ id: workflows.parentRecipientId })
    .from(workflows)
    .where(and(eq(workflows.parentWorkflowId, parentId), inArray(workflows.parentRecipientId, recipientIds)));
  return new Set(rows.map((row) => row.id!));
}

export type SurveyCounts = { totalRecipients: number; dispatched: number; completed: number; voided: number };

/** Whole-survey aggregates: one pass over the parent's recipients and one over its children (workflows_parent_idx). */
export async function countSurvey(db: DbOrTx, parentId: number): Promise<SurveyCounts> {
  const result = await db.execute(sql`select
      (select count(*) from recipients r where r.workflow_id = ${parentId})::int as "totalRecipients",
      count(*)::int as dispatched,
      (count(*) filter (where c.status = 'COMPLETED'))::int as completed,
      (count(*) filter (where c.status = 'VOID'))::int as voided
    from workflows c where c.parent_workflow_id = ${parentId}`);
  const row = result.rows[0] as Record<string, unknown>;
  return {
    totalRecipients: Number(row.totalRecipients),
    dispatched: Number(row.dispatched),
    completed: Number(row.completed),
    voided: Number(row.voided),
  };
}

export type ChildRow = {
  workflowId: number;
  status: string;
  recipientName: string;
  recipientEmail: string;
  recipientStatus: string;
  respondedAt: Date | null;
  declineReason: string | null;
};

/**
 * Children in id order with the row that answered for each: the child's acting recipient (its delegate after a
 * delegation), the survey's own recipient row until then.
 */
function childSelect(db: DbOrTx) {
  return db
    .select({
      workflowId: workflows.id,
      status: workflows.status,
      recipientName: recipients.name,
      recipientEmail: recipients.email,
      recipientStatus: recipients.status,
      respondedAt: recipients.actedAt,
      declineReason: recipients.declineReason,
    })
    .from(workflows)
    .innerJoin(
      recipients,
      sql`${recipients.id} = (select r.id from recipients r where r.workflow_id = ${workflows.id} order by (r.status = 'DELEGATED'), r.id desc limit 1)`,
    );
}

export async function findChildrenPage(
  db: DbOrTx,
  parentId: number,
  limit: number,
  offset: number,
): Promise<ChildRow[]> {
  return childSelect(db)
    .where(eq(workflows.parentWorkflowId, parentId))
    .orderBy(asc(workflows.id))
    .limit(limit)
    .offset(offset);
}

/** The children after `afterId`, keyset-paged (the CSV export's chunks). */
export async function findChildrenAfter(
  db: DbOrTx,
  parentId: number,
  afterId: number,
  limit: number,
): Promise<ChildRow[]> {
  return childSelect(db)
    .where(and(eq(workflows.parentWorkflowId, parentId), gt(workflows.id, afterId)))
    .orderBy(asc(workflows.id))
    .limit(limit);
}

/** Filled values of labelled fields of the given children (the CSV's field columns). */
export async function findFilledLabelledValues(
  db: DbOrTx,
  workflowIds: number[],
): Promise<{ workflowId: number; label: string; value: string }[]> {
  if (workflowIds.length === 0) return [];
  const rows = await db
    .select({ workflowId: fields.workflowId, label: fields.label, value: fields.value })
    .from(fields)
    .where(
      and(inArray(fields.workflowId, workflowIds), sql`${fields.label} is not null and ${fields.value} is not null`),
    )
    .orderBy(asc(fields.id));
  return rows as { workflowId: number; label: string; value: string }[];
}
