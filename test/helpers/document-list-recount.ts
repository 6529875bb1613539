import { sql, type SQL } from 'drizzle-orm';
import type { TestApp } from './test-app.ts';

/**
 * The document list recounted the slow way, straight from workflows and recipients, with the rules written out
 * again (RUNTIME.md "Document list"; these are the queries the list ran before it had a read model): the oracle
 * the maintained entries and totals are checked against.
 */
export const FILTERS = [
  'All',
  'Draft',
  'Sent',
  'Completed',
  'Voided',
  'Approved',
  'Pending',
  'Signed',
  'Viewed',
] as const;
export type FilterName = (typeof FILTERS)[number];

const WORKFLOW_STATUS: Partial<Record<FilterName, string>> = {
  Draft: 'DRAFT',
  Sent: 'SENT',
  Completed: 'COMPLETED',
  Voided: 'VOID',
  Approved: 'APPROVED',
};
const ROW_STATUSES: Partial<Record<FilterName, string[]>> = {
  Pending: ['SENT', 'VIEWED'],
  Signed: ['SIGNED', 'APPROVED'],
  Viewed: ['VIEWED'],
};

function addressed(userId: number): SQL {
  return sql`r.user_id = ${userId} and (exists (select 1 from users v where v.id = ${userId} and v.email_verified_at is not null)
    or exists (select 1 from workflows o where o.id = r.workflow_id and o.owner_user_id = ${userId}))`;
}

function oracle(userId: number, filter: FilterName, folderId?: number): SQL {
  const status = WORKFLOW_STATUS[filter];
  const rowStatuses = ROW_STATUSES[filter];
  const statusCond = status ? sql` and w.status = ${status}` : sql``;
  const folderCond = folderId === undefined ? sql`` : sql` and w.folder_id = ${folderId}`;
  if (rowStatuses) {
    const list = sql.join(
      rowStatuses.map((s) => sql`${s}`),
      sql`, `,
    );
    const inFolder =
      folderId === undefined ? sql`` : sql` and w.owner_user_id = ${userId} and w.parent_workflow_id is null`;
    return sql`select w.id from workflows w where w.id in (select r.workflow_id from recipients r where ${addressed(userId)} and r.role <> 'CC' and r.status in (${list}))
      and w.status = 'SENT' and w.deleted_at is null and (w.sequence <> 'SURVEY' or w.parent_workflow_id is not null or w.owner_user_id = ${userId})${inFolder}${folderCond}`;
  }
  const owned = sql`select w.id from workflows w where w.owner_user_id = ${userId} and w.deleted_at is null${statusCond}${folderCond}`;
  if (folderId !== undefined || status === 'DRAFT') return owned;
  return sql`${owned} union all select w.id from workflows w where w.id in (select r.workflow_id from recipients r where ${addressed(userId)})
    and w.status <> 'DRAFT' and w.deleted_at is null and w.owner_user_id <> ${userId} and not (w.sequence = 'SURVEY' and w.parent_workflow_id is null)${statusCond}`;
}

/** The workflow ids the caller's list holds under a filter (and folder, and name search), newest first. */
export async function recountIds(
  t: TestApp,
  userId: number,
  filter: FilterName,
  options: { folderId?: number; search?: string } = {},
): Promise<number[]> {
  const search = options.search === undefined ? sql`` : sql` and strpos(lower(w.name), lower(${options.search})) > 0`;
  const result =
    await t.platform.db.execute(sql`select x.id from (${oracle(userId, filter, options.folderId)}) x join workflows w on w.id = x.id
    where true${search} order by x.id desc`);
  return (result.rows as { id: number }[]).map((r) => Number(r.id));
}

/**
 * Every filter's list (totalElements and the first page's ids), and without folder or search the status counts, over
 * HTTP and recounted, for comparison.
 */
export async function listsAndRecounts(
  t: TestApp,
  user: { userId: number; token: string },
  options: { folderId?: number; search?: string; size?: number } = {},
) {
  const size = options.size ?? 50;
  const served: Record<string, { total: number; ids: number[] }> = {};
  const recounted: Record<string, { total: number; ids: number[] }> = {};
  for (const filter of FILTERS) {
    const params = new URLSearchParams({ status: filter, size: String(size) });
    if (options.folderId !== undefined) params.set('folderID', String(options.folderId));
    if (options.search !== undefined) params.set('searchValue', options.search);
    const res = await t.request('GET', `/document/v1?${params}`, { token: user.token });
    if (res.status !== 200) throw new Error(`list ${params}: ${res.status} ${res.raw}`);
    served[filter] = {
      total: res.body.totalElements,
      ids: res.body.content.map((i: { workflowId: number }) => i.workflowId),
    };
    const ids = await recountIds(t, user.userId, filter, options);
    recounted[filter] = { total: ids.length, ids: ids.slice(0, size) };
  }
  if (options.folderId !== undefined || options.search !== undefined) return { served, recounted };
  const counts = await t.request('GET', '/document/v1/count/documents-status', { token: user.token });
  served.counts = {
    total: 0,
    ids: [
      counts.body.draftDocCount,
      counts.body.pendingDocCount,
      counts.body.sentDocCount,
      counts.body.signedDocCount,
      counts.body.completedDocCount,
      counts.body.voidDocCount,
    ],
  };
  const tiles = ['Draft', 'Pending', 'Sent', 'Signed', 'Completed', 'Voided'] as const;
  recounted.counts = {
    total: 0,
    ids: await Promise.all(tiles.map(async (f) => (await recountIds(t, user.userId, f)).length)),
  };
  return { served, recounted };
}
