import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** PostgreSQL's 64-bit transaction id (pg_current_xact_id()), read as text. */
const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });

/*
 * The document list's read model (docs/lists-and-search.md "The read model"). Neither table is written by application code: database triggers on `workflows` and `recipients`
 * (migration 0020_document_list_triggers.sql) keep them, in the same statement as every write to those tables,
 * whichever module or test makes it.
 */

/**
 * One row per (user, workflow) that the user's list can show: the user's own workflows (not deleted) and, from SENT
 * on, workflows where the user holds a recipient row; plus workflows that only the action filters (Pending, Signed,
 * Viewed) reach. Recomputed from the workflow and the user's recipient rows whenever either changes.
 */
export const workflowListEntries = pgTable(
  'workflow_list_entries',
  {
    userId: integer().notNull(),
    workflowId: integer().notNull(),
    /** The user owns the workflow. */
    owned: boolean().notNull(),
    /** The workflow's status when it is listed under All (and the status filters); null: only an action filter reaches it. */
    status: text(),
    /** The owner's personal folder (owned rows only). */
    folderId: integer(),
    /** A Power Survey child. */
    child: boolean().notNull(),
    /** The action filters: a SENT workflow where the user holds a non-CC row that is SENT or VIEWED / SIGNED or APPROVED / VIEWED. */
    pending: boolean().notNull(),
    signed: boolean().notNull(),
    viewed: boolean().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.workflowId] }),
    // The triggers find a workflow's entries (owner and recipients) when the workflow changes.
    index('workflow_list_entries_workflow_idx').on(t.workflowId),
    // A status filter walks one status newest first.
    index('workflow_list_entries_status_idx').on(t.userId, t.status, t.workflowId).where(sql`${t.status} is not null`),
    // The action filters walk the few entries that have an action.
    index('workflow_list_entries_action_idx')
      .on(t.userId, t.workflowId)
      .where(sql`${t.pending} or ${t.signed} or ${t.viewed}`),
    index('workflow_list_entries_folder_idx')
      .on(t.userId, t.folderId, t.workflowId)
      .where(sql`${t.folderId} is not null`),
    // A folder with an action filter: the few filed entries with an action, not every entry of the folder.
    index('workflow_list_entries_folder_action_idx')
      .on(t.userId, t.folderId, t.workflowId)
      .where(sql`${t.folderId} is not null and (${t.pending} or ${t.signed} or ${t.viewed})`),
  ],
);

/**
 * The list's totals as an append-only ledger: each change of an entry appends +1/-1 rows per (scope, status, folder,
 * owned) key, so writers never wait on each other for a counter row, and a total is the sum of a user's rows. A
 * writer now and then folds a user's rows into one per key (workflow_list_compact). `txid` is the writing
 * transaction: a cached search total taken under snapshot S stays exact while every row of the user is visible in S.
 */
export const workflowListCounts = pgTable(
  'workflow_list_counts',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer().notNull(),
    /** OWNED (the user's own workflows), RECEIVED (others' workflows the user is a recipient of), ACTION, or TOUCH (no count: a rename or a fold, for cached search totals). */
    scope: text().notNull(),
    /** The workflow status (OWNED, RECEIVED), the action filter (ACTION: PENDING, SIGNED, VIEWED), or '' (TOUCH). */
    status: text().notNull(),
    /** The owner's folder for OWNED and the owner's ACTION rows of non-survey-children; 0 otherwise. */
    folderId: integer().notNull().default(0),
    owned: boolean().notNull(),
    n: integer().notNull(),
    txid: xid8().notNull().default(sql`pg_current_xact_id()`),
  },
  (t) => [index('workflow_list_counts_user_idx').on(t.userId)],
);
