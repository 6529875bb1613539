import { and, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { comments, documents, fields, workflows } from '../../platform/db/schema/index.ts';
import { likeContains } from '../workflows/workflow-ids.ts';

/**
 * What one list filter selects. `workflowStatus` is the workflow's own status; `recipientStatuses` narrows to
 * workflows where the caller holds an action-taking (non-CC) row in one of those recipient statuses.
 */
export type ListFilter = { workflowStatus?: string; recipientStatuses?: readonly string[] };
export type ListCriteria = { userId: number; filter: ListFilter; folderId?: number; search?: string };

/** One document-list item as the queries return it (before the response mapper). */
export type ListItemRow = {
  workflowId: number;
  name: string;
  status: string;
  sequence: string;
  signType: string;
  parentWorkflowId: number | null;
  folderId: number | null;
  ownerUserId: number;
  ownerName: string;
  createdAt: Date;
  sentAt: Date | null;
  documentCount: number;
  recipientCount: number;
  anyDigitalSignature: boolean;
  recipientId: number | null;
  recipientRole: string | null;
  enforceIdentity: boolean | null;
};

export type { DocumentRow } from './documents.repo.ts';
import type { DocumentRow } from './documents.repo.ts';

/*
 * Visibility (RUNTIME.md "Document list") as disjoint branches, so each walks its own index in id order:
 *   owned:     the caller's workflows (not deleted; Power Survey children included, flagged isPowerSurveyChild),
 *   recipient: workflows past DRAFT where the caller holds a row, minus those already in `owned`.
 * A filter on the caller's own row needs only the recipient rows: such workflows are SENT, so each is visible
 * through that row, whoever owns it.
 * A branch is either a plain condition on `workflows w`, or "the caller's recipient rows (`rows`), then their
 * workflows (`where`)": that one is counted by probing each row's workflow by primary key, since a person holds
 * few rows compared with the whole table, while the planner would otherwise scan every workflow.
 */
type Branch = { rows?: SQL; where: SQL };

function ownedBranch(c: ListCriteria): Branch {
  return { where: sql`w.owner_user_id = ${c.userId} and w.deleted_at is null${extra(c)}` };
}

/**
 * The caller's recipient rows, but, until the caller's email is verified, only those of the caller's own
 * workflows: rows others addressed to an account whose address is unproven are reached only through their
 * signing links (RUNTIME.md "Accounts"). The verified check is one primary-key probe evaluated once per
 * statement; the ownership probe runs only for an unverified caller.
 */
function addressedRows(userId: number): SQL {
  return sql`r.user_id = ${userId} and (exists (select 1 from users v where v.id = ${userId} and v.email_verified_at is not null)
    or exists (select 1 from workflows o where o.id = r.workflow_id and o.owner_user_id = ${userId}))`;
}

function recipientBranch(c: ListCriteria): Branch {
  return {
    rows: addressedRows(c.userId),
    // A Power Survey parent is its owner's alone: its recipients act on their own child workflows.
    where: sql`w.status <> 'DRAFT' and w.deleted_at is null and w.owner_user_id <> ${c.userId} and not (w.sequence = 'SURVEY' and w.parent_workflow_id is null)${extra(c)}`,
  };
}

function rowFilterBranch(c: ListCriteria): Branch {
  const statuses = sql.join((c.filter.recipientStatuses ?? []).map((s) => sql`${s}`), sql`, `);
  const inFolder = c.folderId === undefined ? sql`` : sql` and w.owner_user_id = ${c.userId} and w.parent_workflow_id is null`;
  return {
    rows: sql`${addressedRows(c.userId)} and r.role <> 'CC' and r.status in (${statuses})`,
    where: sql`w.status <> 'DRAFT' and w.deleted_at is null and (w.sequence <> 'SURVEY' or w.parent_workflow_id is not null or w.owner_user_id = ${c.userId})${inFolder}${extra(c)}`,
  };
}

function extra(c: ListCriteria): SQL {
  const parts: SQL[] = [];
  if (c.filter.workflowStatus) parts.push(sql` and w.status = ${c.filter.workflowStatus}`);
  if (c.folderId !== undefined) parts.push(sql` and w.folder_id = ${c.folderId}`);
  // lower() ... like: same result as ilike here, and markedly cheaper per row.
  if (c.search) parts.push(sql` and lower(w.name) like lower(${likeContains(c.search)})`);
  return sql.join(parts, sql``);
}

/** The branches a criteria needs: a folder holds only the caller's own workflows; nobody else's DRAFT is visible. */
function branches(c: ListCriteria): Branch[] {
  if (c.filter.recipientStatuses) return [rowFilterBranch(c)];
  if (c.folderId !== undefined || c.filter.workflowStatus === 'DRAFT') return [ownedBranch(c)];
  return [ownedBranch(c), recipientBranch(c)];
}

/** `w` rows of a branch, for selecting in id order. */
function branchFrom(b: Branch): SQL {
  return b.rows ? sql`workflows w where w.id in (select r.workflow_id from recipients r where ${b.rows}) and ${b.where}` : sql`workflows w where ${b.where}`;
}

/** `w` rows of a branch, for counting or aggregating (`columns` are read from `w`). */
function branchProbe(b: Branch, columns: SQL): SQL {
  if (!b.rows) return sql`select ${columns} from workflows w where ${b.where}`;
  // limit 1 keeps the lateral subquery from being flattened into a join the planner would hash.
  return sql`select x.* from (select distinct r.workflow_id from recipients r where ${b.rows}) m
    cross join lateral (select ${columns} from workflows w where w.id = m.workflow_id and ${b.where} limit 1) x`;
}

/** The item columns for workflows `w`; `me` is the caller's own row (the one that can still act, if any). */
function itemSelect(userId: number): SQL {
  return sql`select w.id as "workflowId", w.name, w.status, w.sequence, w.sign_type as "signType",
      w.parent_workflow_id as "parentWorkflowId",
      case when w.owner_user_id = ${userId} then w.folder_id end as "folderId", w.owner_user_id as "ownerUserId",
      coalesce(u.name, '') as "ownerName", w.created_at as "createdAt", w.sent_at as "sentAt",
      (select count(*) from documents d where d.workflow_id = w.id)::int as "documentCount",
      (select count(*) from recipients r where r.workflow_id = w.id and not r.is_hidden and r.status <> 'DELEGATED')::int as "recipientCount",
      exists (select 1 from recipients r where r.workflow_id = w.id and r.use_digital_cert) as "anyDigitalSignature",
      me.id as "recipientId", me.role as "recipientRole", me.enforce_identity as "enforceIdentity"
    from workflows w
    left join users u on u.id = w.owner_user_id
    left join lateral (select r.id, r.role, r.enforce_identity from recipients r
      where r.workflow_id = w.id and r.user_id = ${userId} order by (r.status = 'DELEGATED'), r.id limit 1) me on true`;
}

function toItemRow(row: Record<string, unknown>): ListItemRow {
  return {
    ...(row as ListItemRow),
    createdAt: new Date(row.createdAt as string | Date),
    sentAt: row.sentAt === null ? null : new Date(row.sentAt as string | Date),
  };
}

/**
 * One page, newest first, in one statement: each branch yields its own top `offset + limit` ids through its
 * index, the union is cut to the page, and only the page's rows get their counts and the caller's row.
 */
export async function findListPage(db: DbOrTx, c: ListCriteria, limit: number, offset: number): Promise<ListItemRow[]> {
  const top = limit + offset;
  const parts = branches(c).map((b) => sql`(select w.id from ${branchFrom(b)} order by w.id desc limit ${top})`);
  const result = await db.execute(sql`with page as (
      select id from (${sql.join(parts, sql` union all `)}) ids order by id desc limit ${limit} offset ${offset}
    )
    ${itemSelect(c.userId)}
    where w.id in (select id from page)
    order by w.id desc`);
  return (result.rows as Record<string, unknown>[]).map(toItemRow);
}

export async function countList(db: DbOrTx, c: ListCriteria): Promise<number> {
  const parts = branches(c).map((b) => sql`(select count(*) from (${branchProbe(b, sql`1 as one`)}) b)`);
  const result = await db.execute(sql`select (${sql.join(parts, sql` + `)})::int as total`);
  return Number((result.rows[0] as { total: number }).total);
}

/** Counts for the status tiles, in one statement, each equal to the list's totalElements under that filter. */
export async function countByStatus(db: DbOrTx, userId: number, rowFilters: Record<'pending' | 'signed', ListFilter>) {
  const all: ListCriteria = { userId, filter: {} };
  const rowCount = (filter: ListFilter) => sql`(select count(*) from (${branchProbe(rowFilterBranch({ userId, filter }), sql`1 as one`)}) b)::int`;
  const result = await db.execute(sql`select
      count(*) filter (where v.status = 'DRAFT')::int as draft,
      count(*) filter (where v.status = 'SENT')::int as sent,
      count(*) filter (where v.status = 'COMPLETED')::int as completed,
      count(*) filter (where v.status = 'VOID')::int as void,
      ${rowCount(rowFilters.pending)} as pending,
      ${rowCount(rowFilters.signed)} as signed
    from (${branchProbe(ownedBranch(all), sql`w.status`)} union all ${branchProbe(recipientBranch(all), sql`w.status`)}) v`);
  return result.rows[0] as Record<'draft' | 'sent' | 'completed' | 'void' | 'pending' | 'signed', number>;
}

/** The list item of one workflow as `userId` sees it (the service replaces the caller's row from the access check). */
export async function findListItem(db: DbOrTx, userId: number, workflowId: number): Promise<ListItemRow | null> {
  const result = await db.execute(sql`${itemSelect(userId)} where w.id = ${workflowId}`);
  const row = result.rows[0] as Record<string, unknown> | undefined;
  return row ? toItemRow(row) : null;
}

export async function findDocuments(db: DbOrTx, ids: number[]): Promise<DocumentRow[]> {
  return db.select().from(documents).where(inArray(documents.id, ids));
}

/** A workflow's documents in their position order. */
export async function setDocumentPosition(db: DbOrTx, documentId: number, position: number): Promise<void> {
  await db.update(documents).set({ position }).where(eq(documents.id, documentId));
}

/** Removes documents of a DRAFT with their fields; comments that pointed at those fields keep their text, unlinked. */
export async function deleteDocuments(db: DbOrTx, documentIds: number[]): Promise<void> {
  const fieldIds = db.select({ id: fields.id }).from(fields).where(inArray(fields.documentId, documentIds));
  await db.update(comments).set({ fieldId: null }).where(inArray(comments.fieldId, fieldIds));
  await db.delete(fields).where(inArray(fields.documentId, documentIds));
  await db.delete(documents).where(inArray(documents.id, documentIds));
}

/** Soft delete: the rows stay (audit trail, files) but no read finds them again. */
export async function softDeleteWorkflows(db: DbOrTx, workflowIds: number[], at: Date): Promise<void> {
  await db.update(workflows).set({ deletedAt: at }).where(and(inArray(workflows.id, workflowIds), isNull(workflows.deletedAt)));
}

/** Power Survey children of the given parents (not yet deleted). */
export async function findChildWorkflowIds(db: DbOrTx, parentIds: number[]): Promise<number[]> {
  const rows = await db.select({ id: workflows.id }).from(workflows)
    .where(and(inArray(workflows.parentWorkflowId, parentIds), isNull(workflows.deletedAt)));
  return rows.map((r) => r.id);
}
