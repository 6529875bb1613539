import { AppError } from '../../errors.ts';
import type { Caller, UserCaller } from '../../http/authenticate.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { NotifiedCache } from '../../platform/db/notified-cache.ts';
import { unlinkCommentsOfDocuments } from '../comments/comments.service.ts';
import { deleteFieldsOfDocuments } from '../fields/fields.service.ts';
import { findOwnFolder } from '../folders/folders.service.ts';
import {
  assertOwner,
  findEditableWorkflow,
  findWorkflowForCaller,
  isAppCaller,
  type WorkflowAccess,
} from '../workflows/workflow-access.ts';
import { parseIdList } from '../workflows/workflow-ids.ts';
import {
  countByStatus,
  countList,
  deleteDocuments,
  findChildWorkflowIds,
  findDocuments,
  findListItem,
  findListItems,
  findListPage,
  setDocumentPosition,
  softDeleteWorkflows,
  type ListFilter,
  type ListItemRow,
} from './document-list.repo.ts';
import { findDocument, findDocumentsOfWorkflow } from './documents.repo.ts';
import { createListSearch } from './document-list-search.ts';
import { createSearchProbes } from './search-probe.ts';
import {
  toListItem,
  type DocumentDetail,
  type DocumentOrderEntry,
  type ListItem,
  type ListQuery,
} from './document-list.schemas.ts';

/**
 * The list's status filters (SPEC.md labels, matched ignoring case). Draft, Sent, Completed, Voided and Approved
 * are the workflow's own status. The other three read the caller's own non-CC recipient rows in a SENT workflow:
 * Pending = action required (the caller's turn: row SENT or VIEWED); Signed = waiting for others (the caller has
 * signed or approved, the workflow is still out); Viewed = the caller opened it and has not acted yet. The database
 * keeps which workflows each filter holds (migration 0020_document_list_triggers.sql).
 */
export const LIST_FILTERS: Record<string, ListFilter> = {
  ALL: {},
  DRAFT: { workflowStatus: 'DRAFT' },
  SENT: { workflowStatus: 'SENT' },
  COMPLETED: { workflowStatus: 'COMPLETED' },
  VOIDED: { workflowStatus: 'VOID' },
  VOID: { workflowStatus: 'VOID' },
  APPROVED: { workflowStatus: 'APPROVED' },
  PENDING: { action: 'PENDING' },
  SIGNED: { action: 'SIGNED' },
  VIEWED: { action: 'VIEWED' },
};

/** Statuses a workflow may be deleted in: not while it is out for signature. */
const DELETABLE_STATUSES = ['DRAFT', 'COMPLETED', 'VOID', 'APPROVED'];

function parseFilter(status: string | undefined): ListFilter {
  const key = (status ?? '').trim().toUpperCase();
  if (key === '') return LIST_FILTERS.ALL;
  const filter = LIST_FILTERS[key];
  if (!filter)
    throw new AppError(
      'BAD_REQUEST_BODY',
      `Unknown status filter "${status}"; use All, Draft, Pending, Sent, Signed, Completed, Voided, Approved or Viewed`,
    );
  return filter;
}

/** The caller's row fields come from the access check, which picks the same row the list would. */
function withCallerRow(item: ListItemRow, access: WorkflowAccess): ListItemRow {
  const row = access.recipient;
  return {
    ...item,
    recipientId: row?.id ?? null,
    recipientRole: row?.role ?? null,
    enforceIdentity: row?.enforceIdentity ?? null,
  };
}

/**
 * The organization a caller's list is confined to: a business app's token sees only its organization's workflows
 * (workflow-access.ts isWithinReach); a person's list spans every organization.
 */
function listScope(caller: UserCaller): number | undefined {
  return isAppCaller(caller) ? caller.organizationId : undefined;
}

/** A business app's token holds no recipient row (workflow-access.ts): its list items name none, as its reads do. */
function asSeenBy(caller: UserCaller, item: ListItem): ListItem {
  return isAppCaller(caller) ? { ...item, recipientId: null, recipientRole: null, enforceIdentity: null } : item;
}

/**
 * `lists` keeps each user's list pages and status counts, as answered, until the database announces a change to what
 * that user's list shows (migration 0026; docs/lists-and-search.md "Caches kept per process").
 */
export function createDocumentListService({ db, lists }: { db: Db; lists: NotifiedCache }) {
  const listSearch = createListSearch(db);
  const searchProbes = createSearchProbes(db);
  return {
    list,
    countStatuses,
    documentDetail,
    workflowDocuments,
    deleteDocumentsById,
    deleteWorkflows,
    deleteWorkflowList,
    changeDocumentOrder,
  };

  async function list(caller: UserCaller, query: ListQuery): Promise<{ content: ListItem[]; total: number }> {
    const filter = parseFilter(query.status);
    const folderId = query.folderID ?? query.folderId;
    const organizationId = listScope(caller);
    const criteria = {
      userId: caller.userId,
      filter,
      folderId,
      search: query.searchValue?.trim() || undefined,
      organizationId,
    };
    // Every value the answer depends on besides the user's rows; the search last, so any text in it is unambiguous.
    const filterKey = `${filter.workflowStatus ?? ''} ${filter.action ?? ''} ${folderId ?? 'any'} ${organizationId ?? 'all'}`;
    const key = `list ${filterKey} ${query.page} ${query.size} ${criteria.search ?? ''}`;
    return lists.read(
      caller.userId,
      key,
      async () => {
        if (folderId !== undefined && !(await findOwnFolder(db, caller.userId, folderId)))
          throw new AppError('NOT_FOUND', 'Folder not found');
        if (criteria.search) {
          // How many entries the search would walk decides walk or index: kept like the pages, one statement less per new term.
          const entries = await lists.read(caller.userId, `entries ${filterKey}`, () =>
            countList(db, { ...criteria, search: undefined }),
          );
          const estimate = searchProbes.estimate(criteria.search);
          const searched = { ...criteria, searchProbe: estimate?.probe, indexCost: estimate?.cost, entries };
          const found = await listSearch.find(searched, query.size, query.page * query.size);
          return {
            content: (found.items ?? (await findListItems(db, caller.userId, found.ids))).map((row) =>
              asSeenBy(caller, toListItem(row)),
            ),
            total: found.total,
          };
        }
        const [rows, total] = await Promise.all([
          findListPage(db, criteria, query.size, query.page * query.size),
          countList(db, criteria),
        ]);
        return { content: rows.map((row) => asSeenBy(caller, toListItem(row))), total };
      },
      (answer) => answer.content.length,
    );
  }

  async function countStatuses(caller: UserCaller) {
    const organizationId = listScope(caller);
    return lists.read(caller.userId, `counts ${organizationId ?? 'all'}`, () =>
      countByStatus(db, caller.userId, organizationId),
    );
  }

  async function itemFor(tx: DbOrTx, caller: Caller, access: WorkflowAccess): Promise<ListItemRow> {
    const item = await findListItem(tx, caller.userId, access.workflow.id);
    if (!item) throw new AppError('NOT_FOUND', 'Workflow not found');
    return withCallerRow(item, access);
  }

  async function documentDetail(caller: Caller, documentId: number): Promise<DocumentDetail> {
    const document = await findDocument(db, documentId);
    if (!document) throw new AppError('NOT_FOUND', 'Document not found');
    const access = await findWorkflowForCaller(db, caller, document.workflowId).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'NOT_FOUND'
        ? new AppError('NOT_FOUND', 'Document not found')
        : error;
    });
    return { ...(await itemFor(db, caller, access)), document };
  }

  async function workflowDocuments(caller: Caller, workflowId: number, tx: DbOrTx = db): Promise<DocumentDetail[]> {
    const access = await findWorkflowForCaller(tx, caller, workflowId);
    const item = await itemFor(tx, caller, access);
    return (await findDocumentsOfWorkflow(tx, workflowId)).map((document) => ({ ...item, document }));
  }

  /**
   * Removes documents (ids are document ids) from DRAFT workflows the caller owns, all or nothing. A DRAFT left
   * without documents has nothing to send, so it is deleted with its last document.
   */
  async function deleteDocumentsById(caller: UserCaller, ids: number[]) {
    const documentIds = [...new Set(ids)];
    return db.transaction(async (tx) => {
      const found = await findDocuments(tx, documentIds);
      const workflowIds = [...new Set(found.map((d) => d.workflowId))].sort((a, b) => a - b);
      // Lock in id order so two overlapping calls cannot deadlock.
      for (const workflowId of workflowIds) {
        const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true }).catch((error: unknown) => {
          throw error instanceof AppError && error.code === 'NOT_FOUND'
            ? new AppError('NOT_FOUND', 'Document not found')
            : error;
        });
        assertOwner(access);
        if (access.workflow.status !== 'DRAFT') {
          throw new AppError(
            'INVALID_WORKFLOW_STATUS',
            `Workflow ${workflowId} is ${access.workflow.status}; documents can be removed only from a DRAFT (delete the workflow instead)`,
          );
        }
      }
      const present = new Set((await findDocuments(tx, documentIds)).map((d) => d.id));
      const missing = documentIds.filter((id) => !present.has(id));
      if (missing.length > 0) throw new AppError('NOT_FOUND', `Document ${missing.join(', ')} not found`);
      await unlinkCommentsOfDocuments(tx, documentIds);
      await deleteFieldsOfDocuments(tx, documentIds);
      await deleteDocuments(tx, documentIds);
      const emptied: number[] = [];
      for (const workflowId of workflowIds) {
        if ((await findDocumentsOfWorkflow(tx, workflowId)).length === 0) emptied.push(workflowId);
      }
      if (emptied.length > 0) await softDeleteWorkflows(tx, emptied, new Date());
      return { deletedDocumentIds: documentIds, deletedWorkflowIds: emptied };
    });
  }

  /**
   * Soft-deletes whole workflows the caller owns, all or nothing. Allowed in DRAFT, COMPLETED, VOID and APPROVED;
   * a SENT workflow is out for signature (INVALID_WORKFLOW_STATUS). A Power Survey parent takes its children
   * along; a child alone cannot be deleted (OPERATION_IS_NOT_ALLOWED). Recipients lose sight of it too.
   */
  async function deleteWorkflows(caller: UserCaller, ids: number[]) {
    const workflowIds = [...new Set(ids)].sort((a, b) => a - b);
    return db.transaction(async (tx) => {
      for (const workflowId of workflowIds) {
        const access = await findWorkflowForCaller(tx, caller, workflowId, { lock: true });
        assertOwner(access);
        const { workflow } = access;
        if (workflow.parentWorkflowId !== null) {
          throw new AppError(
            'OPERATION_IS_NOT_ALLOWED',
            `Workflow ${workflowId} belongs to Power Survey ${workflow.parentWorkflowId}; delete the survey instead`,
          );
        }
        if (!DELETABLE_STATUSES.includes(workflow.status)) {
          throw new AppError(
            'INVALID_WORKFLOW_STATUS',
            `Workflow ${workflowId} is ${workflow.status} (out for signature); it can be deleted once it is COMPLETED or VOID`,
          );
        }
      }
      const children = await findChildWorkflowIds(tx, workflowIds);
      await softDeleteWorkflows(tx, [...workflowIds, ...children], new Date());
      return { deletedDocumentIds: [] as number[], deletedWorkflowIds: workflowIds };
    });
  }

  async function deleteWorkflowList(caller: UserCaller, idList: string) {
    return deleteWorkflows(caller, parseIdList(idList));
  }

  /** Owner, DRAFT; the body must name every document of the workflow exactly once, with distinct orders. */
  async function changeDocumentOrder(
    caller: UserCaller,
    workflowId: number,
    entries: DocumentOrderEntry[],
  ): Promise<DocumentDetail[]> {
    return db.transaction(async (tx) => {
      await findEditableWorkflow(tx, caller, workflowId);
      const current = await findDocumentsOfWorkflow(tx, workflowId);
      const named = entries.map((e) => e.documentId);
      const complete =
        new Set(named).size === named.length &&
        named.length === current.length &&
        current.every((d) => named.includes(d.id));
      if (!complete)
        throw new AppError(
          'INVALID_REQUEST_BODY',
          `List every document of the workflow exactly once: ${current.map((d) => d.id).join(', ')}`,
        );
      if (new Set(entries.map((e) => e.order)).size !== entries.length)
        throw new AppError('INVALID_REQUEST_BODY', 'Two documents have the same order');
      const sorted = [...entries].sort((a, b) => a.order - b.order);
      for (const [position, entry] of sorted.entries()) {
        if (current.find((d) => d.id === entry.documentId)!.position !== position)
          await setDocumentPosition(tx, entry.documentId, position);
      }
      return workflowDocuments(caller, workflowId, tx);
    });
  }
}

export type DocumentListService = ReturnType<typeof createDocumentListService>;
