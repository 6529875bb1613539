import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { executePrepared, keepsPlans, type DbOrTx } from '../../platform/db/client.ts';
import { intArray } from '../../platform/db/prepared.ts';
import { documents, workflows } from '../../platform/db/schema/index.ts';
import { likeContains } from '../workflows/workflow-ids.ts';

/**
 * What one list filter selects: `workflowStatus`, the workflow's own status; `action`, the action filters (Pending,
 * Signed, Viewed), which read the caller's own recipient rows of SENT workflows (their recipient statuses are
 * spelled out in migration 0020_document_list_triggers.sql, which keeps the list's read model).
 */
export type ListAction = 'PENDING' | 'SIGNED' | 'VIEWED';
export type ListFilter = { workflowStatus?: string; action?: ListAction };
/**
 * `searchProbe`: a part of `search` to ask the trigram index for instead of the whole term (search-probe.ts); every
 * name it finds is then checked for the whole term. `entries`: the caller's entries under the other filters, when
 * the caller knows them (countList), so that a search need not count them again to choose walk or index.
 */
export type ListCriteria = {
  userId: number;
  filter: ListFilter;
  folderId?: number;
  search?: string;
  searchProbe?: string;
  entries?: number;
  indexCost?: number;
  /** Only workflows of this organization: a business app's token (see inOrganization). */
  organizationId?: number;
};

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
 * Visibility (RUNTIME.md "Document list") is kept by the database in workflow_list_entries: one row per (user,
 * workflow) the user's list can show (their own workflows, and others' from SENT on where they hold a recipient
 * row), with the action flags; and the totals in the workflow_list_counts ledger (schema/document-list.ts). A page
 * is one walk of the caller's entries newest first; a total is a sum over the caller's few ledger rows.
 *
 * Until the caller's email is verified, workflows others addressed to it are reached only through their signing
 * links (RUNTIME.md "Accounts"): entries and ledger rows of workflows the caller does not own count only for a
 * verified caller. The check is one primary-key probe, evaluated once per statement.
 */
function verified(userId: number): SQL {
  return sql`exists (select 1 from users v where v.id = ${userId} and v.email_verified_at is not null)`;
}

const ACTION_COLUMN: Record<ListAction, SQL> = {
  PENDING: sql`e.pending`,
  SIGNED: sql`e.signed`,
  VIEWED: sql`e.viewed`,
};

/*
 * A business app's token lists only its organization's workflows (workflow-access.ts isWithinReach). The read model
 * keeps no organization, so such a list tests each of the caller's entries against its workflow row (a primary-key
 * probe) and counts them by walking them instead of summing the ledger: linear in the user's entries, and only for
 * partner tokens; people's lists keep the ledger (docs/lists-and-search.md "The read model").
 */
function inOrganization(organizationId: number): SQL {
  return sql`exists (select 1 from workflows o where o.id = e.workflow_id and o.organization_id = ${organizationId})`;
}

/** The caller's entries `e` a criteria selects (without the search). */
function entriesWhere(c: ListCriteria): SQL {
  const { action, workflowStatus } = c.filter;
  const parts = [sql`e.user_id = ${c.userId}`];
  if (action) parts.push(ACTION_COLUMN[action]);
  else parts.push(workflowStatus ? sql`e.status = ${workflowStatus}` : sql`e.status is not null`);
  // A folder holds only the caller's own workflows; with an action filter, survey children never (they are filed nowhere).
  if (c.folderId !== undefined)
    parts.push(
      action
        ? sql`e.owned and not e.child and e.folder_id = ${c.folderId}`
        : sql`e.owned and e.folder_id = ${c.folderId}`,
    );
  parts.push(sql`(e.owned or ${verified(c.userId)})`);
  if (c.organizationId !== undefined) parts.push(inOrganization(c.organizationId));
  return sql.join(parts, sql` and `);
}

/** The caller's ledger rows `c` whose sum is the total of a criteria without search. */
function ledgerWhere(c: ListCriteria): SQL {
  const { action, workflowStatus } = c.filter;
  const parts = [sql`c.user_id = ${c.userId}`];
  if (action) {
    parts.push(sql`c.scope = 'ACTION' and c.status = ${action}`);
    if (c.folderId !== undefined) parts.push(sql`c.owned and c.folder_id = ${c.folderId}`);
  } else {
    parts.push(
      c.folderId !== undefined
        ? sql`c.scope = 'OWNED' and c.folder_id = ${c.folderId}`
        : sql`c.scope in ('OWNED', 'RECEIVED')`,
    );
    if (workflowStatus) parts.push(sql`c.status = ${workflowStatus}`);
  }
  parts.push(sql`(c.owned or ${verified(c.userId)})`);
  return sql.join(parts, sql` and `);
}

/**
 * A list of at most this many entries (under the search's other filters) is searched by walking them, not through the
 * trigram index: the index reads every workflow's postings of the term's common trigrams ("agreement" is in all of
 * them), 3 ms for any caller over 100,000 workflows, while walking a few hundred entries reads only those
 * (bench/document-list.ts, "search, new term each time", spread layout).
 */
export const SEARCH_WALK_LIMIT = 1000;

/**
 * Entries `e` with their workflows `w`, narrowed by the search (a substring of the name, any case; wildcards literal).
 * `walk`: test each entry's name (strpos, which no index serves) instead of asking the trigram index.
 */
function searchedEntries(c: ListCriteria, walk: boolean): SQL {
  // lower() ... like: same result as ilike here, markedly cheaper per row, and what the trigram index is built on.
  const contains = sql`strpos(lower(w.name), lower(${c.search ?? ''})) > 0`;
  const matches = walk
    ? contains
    : c.searchProbe
      ? sql`lower(w.name) like lower(${likeContains(c.searchProbe)}) and ${contains}`
      : sql`lower(w.name) like lower(${likeContains(c.search ?? '')})`;
  return sql`workflow_list_entries e join workflows w on w.id = e.workflow_id where ${entriesWhere(c)} and ${matches}`;
}

/** Whether the caller's entries under the criteria's other filters are few enough to walk (one look at the ledger). */
async function searchByWalking(db: DbOrTx, c: ListCriteria, walkLimit: number): Promise<boolean> {
  return walksEntries(c.entries ?? (await countList(db, { ...c, search: undefined })), walkLimit, c.indexCost);
}

/**
 * Walk or index: a list of at most `walkLimit` entries is walked unless the index's estimated cost (`indexCost`, in
 * postings: search-probe.ts) is lower than walking them, each entry costing what an index candidate does (its row
 * fetched, its name tested). A rare part of the term ('54321' in 'agreement 54321') makes the index cheaper than
 * walking a few hundred entries (bench: spread layout, new term each request, PostgreSQL 0.41-0.45 ms per request).
 */
export function walksEntries(entries: number, walkLimit: number, indexCost?: number): boolean {
  return entries <= walkLimit && (indexCost === undefined || indexCost >= ROW_COST * entries);
}

/**
 * The cost of one row fetched and its name tested (a walked entry, or a candidate the trigram index answers), in
 * postings of the trigram index (measured: a posting ~2-3 ns, a row ~1 µs or more): the unit of search-probe.ts.
 */
export const ROW_COST = 500;

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
 * One page, newest first: the page's workflow ids from the caller's entries, then only those rows get their counts and
 * the caller's row (findListItems). Two statements, because PostgreSQL cannot reuse a plan across LIMIT/OFFSET
 * values: as one statement it planned the whole item select again on every request (0.8 ms, more than running it);
 * split, only the small id walk is planned per request and the item select keeps its generic plan.
 */
export async function findListPage(db: DbOrTx, c: ListCriteria, limit: number, offset: number): Promise<ListItemRow[]> {
  const page = await executePrepared(
    db,
    sql`select e.workflow_id as id from workflow_list_entries e where ${entriesWhere(c)}
    order by e.workflow_id desc limit ${limit} offset ${offset}`,
  );
  return findListItems(
    db,
    c.userId,
    page.rows.map((row) => Number(row.id)),
  );
}

/** The list items of the given workflows as `userId` sees them, newest first. */
export async function findListItems(db: DbOrTx, userId: number, workflowIds: number[]): Promise<ListItemRow[]> {
  if (workflowIds.length === 0) return [];
  // One array parameter, so the text (and the prepared statement) is the same for every page.
  const result = await executePrepared(
    db,
    sql`${itemSelect(userId)} where w.id = any(${intArray(workflowIds)}::int[]) order by w.id desc`,
  );
  return (result.rows as Record<string, unknown>[]).map(toItemRow);
}

/**
 * The total of a criteria without search: a sum over the caller's ledger rows, however many workflows it counts; within
 * one organization, a count of the entries (inOrganization).
 */
export async function countList(db: DbOrTx, c: ListCriteria): Promise<number> {
  const result =
    c.organizationId !== undefined
      ? await executePrepared(
          db,
          sql`select count(*)::int as total from workflow_list_entries e where ${entriesWhere(c)}`,
        )
      : await executePrepared(
          db,
          sql`select coalesce(sum(c.n), 0)::int as total from workflow_list_counts c where ${ledgerWhere(c)}`,
        );
  return Number((result.rows[0] as { total: number }).total);
}

export type SearchResult = { ids: number[]; total: number; snapshot: string; verified: boolean; items: ListItemRow[] };

/**
 * A search: one page of workflow ids, their items and the total, with the snapshot they were read in and whether the
 * caller was verified then. Ids and total stay exact while `isSnapshotCurrent` holds for that snapshot
 * (document-list-search.ts). On PostgreSQL the items come back in the same statement (as JSON), one round trip less
 * for a new term; the embedded database forces no generic plan (pglite-query.ts), so there they are read only when
 * the page has ids (a new term mostly matches nothing; planning the item select anyway cost 50% more CPU per request).
 */
export async function searchList(
  db: DbOrTx,
  c: ListCriteria,
  limit: number,
  offset: number,
  walkLimit = SEARCH_WALK_LIMIT,
): Promise<SearchResult> {
  // The matches once (the total needs them all anyway), then the page from them: a walk newest first would read
  // every entry when a common term matches only old workflows.
  const oneStatement = keepsPlans(db);
  const items = oneStatement
    ? sql`, (select coalesce(json_agg(i order by i."workflowId" desc), '[]'::json) from (${itemSelect(c.userId)} where w.id = any(array(select p.workflow_id from page p))) i) as items`
    : sql``;
  const result = await executePrepared(
    db,
    sql`with matched as materialized (select e.workflow_id from ${searchedEntries(c, await searchByWalking(db, c, walkLimit))}),
      page as materialized (select m.workflow_id from matched m order by m.workflow_id desc limit ${limit} offset ${offset})
    select array(select p.workflow_id from page p order by p.workflow_id desc) as ids,
      (select count(*) from matched)::int as total, pg_current_snapshot()::text as snapshot, ${verified(c.userId)} as verified${items}`,
  );
  const row = result.rows[0] as {
    ids: number[];
    total: number;
    snapshot: string;
    verified: boolean;
    items?: Record<string, unknown>[];
  };
  const ids = row.ids.map(Number);
  return {
    ids,
    total: Number(row.total),
    snapshot: row.snapshot,
    verified: row.verified,
    items: oneStatement ? row.items!.map(toItemRow) : await findListItems(db, c.userId, ids),
  };
}

/** One page of a search's workflow ids, newest first. */
export async function findSearchIds(
  db: DbOrTx,
  c: ListCriteria,
  limit: number,
  offset: number,
  walkLimit = SEARCH_WALK_LIMIT,
): Promise<number[]> {
  const result = await executePrepared(
    db,
    sql`select e.workflow_id as id from ${searchedEntries(c, await searchByWalking(db, c, walkLimit))}
    order by e.workflow_id desc limit ${limit} offset ${offset}`,
  );
  return (result.rows as { id: number }[]).map((r) => Number(r.id));
}

/**
 * Whether the caller's list is what it was in `snapshot`: every change to which workflows a user's list holds, or
 * to their names, appends ledger rows in the writing transaction (so does a fold of the ledger), so if all the
 * user's rows were committed before the snapshot, nothing changed since. Also answers whether the caller is
 * verified now.
 */
export async function isSnapshotCurrent(
  db: DbOrTx,
  userId: number,
  snapshot: string,
): Promise<{ current: boolean; verified: boolean }> {
  const result = await executePrepared(
    db,
    sql`select not exists (select 1 from workflow_list_counts c
      where c.user_id = ${userId} and not pg_visible_in_snapshot(c.txid, ${snapshot}::pg_snapshot)) as current, ${verified(userId)} as verified`,
  );
  const row = result.rows[0] as { current: boolean; verified: boolean };
  return { current: row.current, verified: row.verified };
}

/**
 * Counts for the status tiles, in one statement over the caller's ledger rows, each equal to the list's totalElements
 * under that filter; within one organization, over the caller's entries there (inOrganization), as entriesWhere selects them.
 */
export async function countByStatus(db: DbOrTx, userId: number, organizationId?: number) {
  if (organizationId !== undefined) {
    const listed = (status: string) => sql`(count(*) filter (where e.status = ${status}))::int`;
    const acting = (action: ListAction) => sql`(count(*) filter (where ${ACTION_COLUMN[action]}))::int`;
    const result = await executePrepared(
      db,
      sql`select ${listed('DRAFT')} as draft, ${listed('SENT')} as sent, ${listed('COMPLETED')} as completed,
        ${listed('VOID')} as void, ${acting('PENDING')} as pending, ${acting('SIGNED')} as signed
      from workflow_list_entries e where e.user_id = ${userId} and (e.owned or ${verified(userId)}) and ${inOrganization(organizationId)}`,
    );
    return result.rows[0] as Record<'draft' | 'sent' | 'completed' | 'void' | 'pending' | 'signed', number>;
  }
  const listed = (status: string) =>
    sql`coalesce(sum(c.n) filter (where c.scope in ('OWNED', 'RECEIVED') and c.status = ${status}), 0)::int`;
  const acting = (action: ListAction) =>
    sql`coalesce(sum(c.n) filter (where c.scope = 'ACTION' and c.status = ${action}), 0)::int`;
  const result = await executePrepared(
    db,
    sql`select ${listed('DRAFT')} as draft, ${listed('SENT')} as sent, ${listed('COMPLETED')} as completed,
      ${listed('VOID')} as void, ${acting('PENDING')} as pending, ${acting('SIGNED')} as signed
    from workflow_list_counts c where c.user_id = ${userId} and (c.owned or ${verified(userId)})`,
  );
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

/** Removes documents of a DRAFT (their fields are gone already: fields.service.ts `deleteFieldsOfDocuments`). */
export async function deleteDocuments(db: DbOrTx, documentIds: number[]): Promise<void> {
  await db.delete(documents).where(inArray(documents.id, documentIds));
}

/** Soft delete: the rows stay (audit trail, files) but no read finds them again. */
export async function softDeleteWorkflows(db: DbOrTx, workflowIds: number[], at: Date): Promise<void> {
  await db
    .update(workflows)
    .set({ deletedAt: at })
    .where(and(inArray(workflows.id, workflowIds), isNull(workflows.deletedAt)));
}

/** Power Survey children of the given parents (not yet deleted). */
export async function findChildWorkflowIds(db: DbOrTx, parentIds: number[]): Promise<number[]> {
  const rows = await db
    .select({ id: workflows.id })
    .from(workflows)
    .where(and(inArray(workflows.parentWorkflowId, parentIds), isNull(workflows.deletedAt)));
  return rows.map((r) => r.id);
}

/**
 * The trigrams of about `limit` workflow names drawn at random from all of them (each row with the same chance:
 * the newest rows alone misled the choice, e.g. a sender's 2,000 newest "Incoming …" over 100,000 older "Agreement …"
 * made "agreement" look rare), as the name index holds them, with the share of the drawn names holding each, and how
 * many workflows the index covers (the planner's estimate once the table has been analysed, else a count).
 */
export async function sampleNameTrigrams(
  db: DbOrTx,
  limit: number,
): Promise<{ names: number; sampled: number; share: Map<string, number> }> {
  const counted =
    await db.execute(sql`select (select case when c.reltuples > 0 then c.reltuples::bigint else (select count(*) from workflows) end
    from pg_class c where c.oid = 'workflows'::regclass)::float8 as names`);
  const names = Number((counted.rows[0] as { names: number }).names);
  const percent = names > 0 ? Math.min(100, (100 * limit) / names) : 100;
  const result =
    await db.execute(sql`with sample as (select lower(w.name) as name from workflows w tablesample bernoulli (${percent}) limit ${limit})
    select t.trigram, count(*)::int as n, (select count(*) from sample)::int as sampled
    from sample s cross join lateral unnest(show_trgm(s.name)) as t(trigram) group by t.trigram`);
  const rows = result.rows as { trigram: string; n: number; sampled: number }[];
  const sampled = rows[0]?.sampled ?? 0;
  const share = new Map(rows.map((row) => [row.trigram, row.n / sampled]));
  return { names: Math.max(names, sampled), sampled, share };
}
