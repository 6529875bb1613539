/**
 * The dashboard at /: counts per status filter, the document list (filter, search, paging, personal folders),
 * selection for moving into a folder and bulk delete, Power Survey parents with their progress. What is shown is
 * kept in the address (?status=&folder=&q=&page=&size=), so Back, reload and a shared link show the same list.
 * The first paint fetches the first page and the counts only; the rest (folder list, the counts the count
 * endpoint does not give, survey progress) follows.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { Skeleton } from '../shared/Skeleton.tsx';
import { dashboardText as text, shellText, statusText } from '../i18n/workspace/index.ts';
import { FolderDialog, FolderList } from './Folders.tsx';
import type { PageProps } from './routes.tsx';
import { Link, navigate, useLocation } from './router.tsx';
import { api, onBeforeSignIn, useMe } from './session-api.ts';
import type { DispatchProgress, Folder, ListItem, ListPage, StatusCounts, SurveyChildren } from './types.ts';
import { formatNumber } from '../i18n/language.ts';
import { ConfirmDialog, ErrorNotice, formatDateTime, useTitle } from './ui.tsx';
import { VoidDialog } from './VoidDialog.tsx';

export const FILTERS = [
  'All',
  'Draft',
  'Pending',
  'Sent',
  'Signed',
  'Completed',
  'Voided',
  'Approved',
  'Viewed',
] as const;
type Filter = (typeof FILTERS)[number];
const PAGE_SIZES = [10, 20, 50];
const SEARCH_DRAFT_KEY = 'workspace:dashboard-search';

type View = { status: Filter; folderId: number | null; q: string; page: number; size: number };

function readView(search: string): View {
  const params = new URLSearchParams(search);
  const status = FILTERS.find((f) => f.toLowerCase() === (params.get('status') ?? '').toLowerCase()) ?? 'All';
  const folder = Number(params.get('folder'));
  const page = Number(params.get('page'));
  const size = Number(params.get('size'));
  return {
    status,
    folderId: Number.isInteger(folder) && folder > 0 ? folder : null,
    q: (params.get('q') ?? '').slice(0, 255),
    page: Number.isInteger(page) && page > 1 ? page : 1,
    size: PAGE_SIZES.includes(size) ? size : 20,
  };
}

/** The address of a view (defaults left out, so the plain dashboard stays at /). */
export function viewHref(view: Partial<View>): string {
  const params = new URLSearchParams();
  if (view.status && view.status !== 'All') params.set('status', view.status);
  if (view.folderId) params.set('folder', String(view.folderId));
  if (view.q) params.set('q', view.q);
  if (view.page && view.page > 1) params.set('page', String(view.page));
  if (view.size && view.size !== 20) params.set('size', String(view.size));
  const query = params.toString();
  return query ? `/?${query}` : '/';
}

/** The count the count endpoint gives for a filter (All, Approved and Viewed it does not give). */
function countOf(counts: StatusCounts | null, filter: Filter): number | undefined {
  if (!counts) return undefined;
  switch (filter) {
    case 'Draft':
      return counts.draftDocCount;
    case 'Pending':
      return counts.pendingDocCount;
    case 'Sent':
      return counts.sentDocCount;
    case 'Signed':
      return counts.signedDocCount;
    case 'Completed':
      return counts.completedDocCount;
    case 'Voided':
      return counts.voidDocCount;
    default:
      return undefined;
  }
}

/** Where a row leads: a draft to its editor, anything else to its envelope page. */
export function envelopeHref(item: Pick<ListItem, 'workflowId' | 'status'>): string {
  return item.status === 'DRAFT' ? `/envelopes/${item.workflowId}/edit` : `/envelopes/${item.workflowId}`;
}

export function DashboardPage(_props: PageProps) {
  const { search } = useLocation();
  const view = useMemo(() => readView(search), [search]);
  const [list, setList] = useState<ListPage | null>(null);
  const [listError, setListError] = useState<unknown>(null);
  const [counts, setCounts] = useState<StatusCounts | null>(null);
  const [extraCounts, setExtraCounts] = useState<Partial<Record<Filter, number>>>({});
  const [folders, setFolders] = useState<Folder[] | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [notice, setNotice] = useState<string | null>(null);
  const [reloadKey, setReloadKey] = useState(0);
  const folder = folders?.find((f) => f.id === view.folderId) ?? null;
  useTitle(folder ? text.folderHeading(folder.folderName) : text.title);

  // The list: refetched when the view changes or after a change made here.
  useEffect(() => {
    let live = true;
    setListError(null);
    const params = new URLSearchParams({ page: String(view.page - 1), size: String(view.size) });
    if (view.status !== 'All') params.set('status', view.status);
    if (view.folderId) params.set('folderID', String(view.folderId));
    if (view.q) params.set('searchValue', view.q);
    api.get<ListPage>(`/document/v1?${params}`).then(
      (page) => {
        if (!live) return;
        setList(page);
        // The unfiltered All list's total is the All count; no extra call needed for it.
        if (view.status === 'All' && !view.folderId && !view.q)
          setExtraCounts((c) => ({ ...c, All: page.totalElements }));
      },
      (error: unknown) => live && setListError(error),
    );
    return () => {
      live = false;
    };
  }, [view, reloadKey]);

  // The selection belongs to the rows on screen.
  useEffect(() => setSelected(new Set()), [view]);

  const refreshCounts = useCallback(() => {
    api.get<StatusCounts>('/document/v1/count/documents-status').then(setCounts, () => setCounts(null));
  }, []);
  useEffect(refreshCounts, [refreshCounts, reloadKey]);

  const refreshFolders = useCallback(() => {
    api.get<Folder[]>('/workflow/v1/user/folders').then(setFolders, () => setFolders([]));
  }, []);

  // After the first page is on screen: the folders and the totals the count endpoint does not give (one-row pages).
  const firstPainted = list !== null;
  useEffect(() => {
    if (!firstPainted) return;
    refreshFolders();
  }, [firstPainted, refreshFolders]);
  useEffect(() => {
    if (!firstPainted) return;
    let live = true;
    const wanted: Filter[] = ['Approved', 'Viewed'];
    if (view.status !== 'All' || view.folderId || view.q || reloadKey > 0) wanted.push('All');
    for (const filter of wanted) {
      const query = filter === 'All' ? 'size=1' : `status=${filter}&size=1`;
      api.get<ListPage>(`/document/v1?${query}`).then(
        (page) => live && setExtraCounts((c) => ({ ...c, [filter]: page.totalElements })),
        () => {},
      );
    }
    return () => {
      live = false;
    };
    // Once after the first paint and after each change made here (not per view: a filter's own list does not move these counts).
  }, [firstPainted, reloadKey]);

  const changed = useCallback(
    (message: string) => {
      setNotice(message);
      setSelected(new Set());
      setReloadKey((k) => k + 1);
      refreshFolders();
    },
    [refreshFolders],
  );

  const total = list?.totalElements ?? 0;
  const pages = Math.max(1, Math.ceil(total / view.size));
  const everythingEmpty = list !== null && total === 0 && view.status === 'All' && !view.folderId && !view.q;
  const heading = folder ? text.folderHeading(folder.folderName) : text.title;

  return (
    <div className="ws-page">
      <div className="ws-page-head">
        <h1>{heading}</h1>
        <Link to="/envelopes/new" className="ws-button ws-button--primary">
          {text.newEnvelope}
        </Link>
      </div>
      <div className="ws-dashboard">
        <div className="ws-sidebar">
          <StatusFilters view={view} counts={counts} extra={extraCounts} />
          <FolderList
            folders={folders}
            current={view.folderId}
            hrefOf={(folderId) => viewHref({ ...view, folderId, page: 1 })}
            onChanged={changed}
          />
        </div>
        <div>
          {folder && <FolderActions folder={folder} onChanged={changed} />}
          <SearchForm view={view} />
          <p role="status" className="ws-success-line">
            {notice ?? ''}
          </p>
          {listError !== null ? (
            <ErrorNotice error={listError}>
              {text.loadFailed}{' '}
              <button type="button" className="ws-link-button" onClick={() => setReloadKey((k) => k + 1)}>
                {text.retry}
              </button>
            </ErrorNotice>
          ) : list === null ? (
            <Skeleton shape="rows" label={shellText.loading} />
          ) : everythingEmpty ? (
            <div className="ws-empty">
              <h2>{text.emptyTitle}</h2>
              <p>{text.emptyText}</p>
              <Link to="/envelopes/new" className="ws-button ws-button--primary">
                {text.newEnvelope}
              </Link>
            </div>
          ) : (
            <>
              <BulkBar
                items={list.content.filter((item) => selected.has(item.workflowId))}
                folders={folders ?? []}
                onClear={() => setSelected(new Set())}
                onChanged={changed}
              />
              <DocumentTable view={view} list={list} selected={selected} onSelect={setSelected} onChanged={changed} />
              <Pager view={view} pages={pages} />
            </>
          )}
        </div>
      </div>
    </div>
  );
}

function StatusFilters({
  view,
  counts,
  extra,
}: {
  view: View;
  counts: StatusCounts | null;
  extra: Partial<Record<Filter, number>>;
}) {
  return (
    <nav aria-label={text.filtersNav}>
      <h2>{text.filtersHeading}</h2>
      <ul>
        {FILTERS.map((filter) => {
          const count = countOf(counts, filter) ?? extra[filter];
          const label = text.filters[filter];
          const hint = text.filterHints[filter];
          return (
            <li key={filter}>
              <Link
                to={viewHref({ ...view, status: filter, page: 1 })}
                className="ws-filter"
                aria-current={view.status === filter ? 'true' : undefined}
              >
                <span className="ws-filter-label">
                  {label}
                  {hint && <span className="visually-hidden"> ({hint})</span>}
                </span>{' '}
                <span className="ws-count">{count === undefined ? '' : formatNumber(count)}</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function SearchForm({ view }: { view: View }) {
  // Input typed before the session ended comes back after signing in. Read during render, forgotten once on
  // screen (a render React throws away must not lose it).
  const [value, setValue] = useState(() => {
    try {
      return sessionStorage.getItem(SEARCH_DRAFT_KEY) ?? view.q;
    } catch {
      return view.q;
    }
  });
  useEffect(() => {
    try {
      sessionStorage.removeItem(SEARCH_DRAFT_KEY);
    } catch {
      // storage unavailable
    }
  }, []);
  const latest = useRef(value);
  latest.current = value;
  useEffect(
    () =>
      onBeforeSignIn(() => {
        if (latest.current && latest.current !== view.q) sessionStorage.setItem(SEARCH_DRAFT_KEY, latest.current);
      }),
    [view.q],
  );
  // A search made elsewhere (Back, a link) shows its words; the first run keeps a restored draft.
  const mounted = useRef(false);
  useEffect(() => {
    if (mounted.current) setValue(view.q);
    mounted.current = true;
  }, [view.q]);

  function submit(event: FormEvent) {
    event.preventDefault();
    navigate(viewHref({ ...view, q: value.trim(), page: 1 }));
  }
  return (
    <form role="search" className="ws-search" onSubmit={submit}>
      <div>
        <label htmlFor="ws-search">{text.searchLabel}</label>
        <input
          id="ws-search"
          type="search"
          value={value}
          maxLength={255}
          onChange={(event) => setValue(event.target.value)}
        />
      </div>
      <button type="submit" className="ws-button">
        {text.search}
      </button>
      {view.q && (
        <Link
          to={viewHref({ ...view, q: '', page: 1 })}
          className="ws-button ws-button--quiet"
          onClick={() => setValue('')}
        >
          {text.clearSearch}
        </Link>
      )}
    </form>
  );
}

function DocumentTable({
  view,
  list,
  selected,
  onSelect,
  onChanged,
}: {
  view: View;
  list: ListPage;
  selected: Set<number>;
  onSelect: (next: Set<number>) => void;
  onChanged: (message: string) => void;
}) {
  const { me } = useMe();
  const [voiding, setVoiding] = useState<ListItem | null>(null);
  const [actionError, setActionError] = useState<unknown>(null);
  const ids = list.content.map((item) => item.workflowId);
  const all = ids.length > 0 && ids.every((id) => selected.has(id));
  const some = ids.some((id) => selected.has(id));
  const selectAll = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (selectAll.current) selectAll.current.indeterminate = some && !all;
  }, [some, all]);
  const caption =
    (view.q ? `${text.resultsFor(view.q)}. ` : '') + text.tableCaption(text.filters[view.status], list.totalElements);

  if (list.content.length === 0) {
    return (
      <>
        <p className="ws-muted" role="status">
          {caption}
        </p>
        <p className="ws-empty">{text.noMatches}</p>
      </>
    );
  }
  function toggle(id: number, on: boolean) {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    onSelect(next);
  }
  return (
    <div className="ws-table-wrap">
      {/* Said when a filter, search or page changes (the focus stays on the control that changed it). */}
      <p className="visually-hidden" role="status">
        {caption}
      </p>
      <table className="ws-table ws-table--list">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="ws-check">
              <label className="ws-check-all">
                <input
                  ref={selectAll}
                  type="checkbox"
                  aria-label={text.selectAll}
                  checked={all}
                  onChange={(event) => onSelect(event.target.checked ? new Set(ids) : new Set())}
                />
                {/* Shown only where the table is a list (a phone), which has no column headers to explain the box. */}
                <span className="ws-check-all-text" aria-hidden="true">
                  {text.selectAll}
                </span>
              </label>
            </th>
            <th scope="col">{text.columns.name}</th>
            <th scope="col">{text.columns.status}</th>
            <th scope="col">{text.columns.date}</th>
            <th scope="col">{text.columns.actions}</th>
          </tr>
        </thead>
        <tbody>
          {list.content.map((item) => (
            <tr key={item.workflowId}>
              <td className="ws-check">
                <input
                  type="checkbox"
                  aria-label={text.selectRow(item.name)}
                  checked={selected.has(item.workflowId)}
                  onChange={(event) => toggle(item.workflowId, event.target.checked)}
                />
              </td>
              <th scope="row">
                <Link to={envelopeHref(item)}>{item.name}</Link>
                <div className="ws-muted ws-row-meta">
                  {item.isPowerSurvey && <>{text.survey} · </>}
                  {item.isPowerSurveyChild && <>{text.surveyResponse} · </>}
                  {text.documents(item.documentCount)} · {text.recipients(item.recipientCount)} ·{' '}
                  {text.from(item.ownerName)}
                </div>
              </th>
              <td>
                <span className={`ws-status ws-status--${item.status}`}>{statusText[item.status] ?? item.status}</span>
                {item.isPowerSurvey && item.status !== 'DRAFT' && <SurveyProgress workflowId={item.workflowId} />}
              </td>
              <td data-label={text.columns.date}>{formatDateTime(item.dateSent ?? item.dateCreated)}</td>
              <td>
                <RowMenu
                  item={item}
                  canVoid={me !== null && item.ownerUserId === me.userId && item.status === 'SENT'}
                  onVoid={() => {
                    setActionError(null);
                    setVoiding(item);
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {actionError !== null && <ErrorNotice error={actionError} />}
      <VoidDialog
        workflowId={voiding?.workflowId ?? 0}
        kind={voiding ? 'cancel' : null}
        envelopeName={voiding?.name}
        onClose={() => setVoiding(null)}
        onDone={onChanged}
        onFailed={setActionError}
      />
    </div>
  );
}

/** A row's actions behind one disclosure button, so the list keeps its width: open it, and void where the owner may. */
function RowMenu({ item, canVoid, onVoid }: { item: ListItem; canVoid: boolean; onVoid: () => void }) {
  const menu = useRef<HTMLDetailsElement>(null);
  return (
    <details className="ws-row-menu" ref={menu}>
      <summary className="ws-button ws-button--small ws-button--quiet">
        {text.rowActions}
        <span className="visually-hidden"> {text.rowActionsFor(item.name)}</span>
      </summary>
      <div className="ws-row-menu-items">
        <Link to={envelopeHref(item)} className="ws-button ws-button--small">
          {text.open}
          <span className="visually-hidden"> {item.name}</span>
        </Link>
        {canVoid && (
          <button
            type="button"
            className="ws-button ws-button--small ws-button--danger"
            onClick={() => {
              if (menu.current) menu.current.open = false;
              onVoid();
            }}
          >
            {text.voidEnvelope}
            <span className="visually-hidden"> {item.name}</span>
          </button>
        )}
      </div>
    </details>
  );
}

/** A survey parent's responses so far (read after the row is on screen). */
function SurveyProgress({ workflowId }: { workflowId: number }) {
  const [state, setState] = useState<{ responded: number; total: number; dispatched: number } | null>(null);
  useEffect(() => {
    let live = true;
    Promise.all([
      api.get<SurveyChildren>(`/document/v1/power-survey/${workflowId}/workflows?page=0&size=1`),
      api.get<DispatchProgress>(`/document/v1/power-survey/${workflowId}/dispatch-progress`),
    ]).then(
      ([children, progress]) => {
        if (live)
          setState({
            responded: children.respondedCount,
            total: progress.totalRecipients,
            dispatched: progress.dispatchedCount,
          });
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [workflowId]);
  if (!state) return null;
  const label = text.surveyProgress(state.responded, state.total);
  return (
    <div className="ws-progress">
      <progress max={Math.max(1, state.total)} value={state.responded} aria-label={label} />
      <span className="ws-muted">
        {label}
        {state.dispatched < state.total ? ` (${text.surveyDispatching(state.dispatched, state.total)})` : ''}
      </span>
    </div>
  );
}

function BulkBar({
  items,
  folders,
  onClear,
  onChanged,
}: {
  items: ListItem[];
  folders: Folder[];
  onClear: () => void;
  onChanged: (message: string) => void;
}) {
  const [target, setTarget] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  if (items.length === 0) return null;
  const ids = items.map((item) => item.workflowId).join(',');
  const sent = items.filter((item) => item.status === 'SENT').length;

  async function move() {
    const folder = folders.find((f) => String(f.id) === target);
    if (!folder) return;
    setBusy(true);
    setError(null);
    try {
      await api.put(`/workflow/v1/user/folders/${folder.id}/workflows`, { workflowIds: ids });
      onChanged(text.moved(items.length, folder.folderName));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await api.delete('/document/v1/workflows', { workflowIds: ids });
      setConfirming(false);
      onChanged(text.deleted(items.length));
    } catch (failure) {
      setConfirming(false);
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="ws-bulk" role="group" aria-label={text.selected(items.length)}>
      <strong>{text.selected(items.length)}</strong>
      {folders.length > 0 && (
        <>
          <label htmlFor="ws-move-target" className="visually-hidden">
            {text.moveTo}
          </label>
          <select
            id="ws-move-target"
            value={target}
            onChange={(event) => setTarget(event.target.value)}
            className="ws-select"
          >
            <option value="">{text.chooseFolder}</option>
            {folders.map((f) => (
              <option key={f.id} value={f.id}>
                {f.folderName}
              </option>
            ))}
          </select>
          <button type="button" className="ws-button" onClick={move} disabled={busy || !target}>
            {text.move}
          </button>
        </>
      )}
      <button type="button" className="ws-button ws-button--danger" onClick={() => setConfirming(true)} disabled={busy}>
        {text.deleteSelected}
      </button>
      <button type="button" className="ws-link-button" onClick={onClear}>
        {text.clearSelection}
      </button>
      {error !== null && <ErrorNotice error={error} />}
      <ConfirmDialog
        open={confirming}
        title={text.deleteTitle(items.length)}
        confirmLabel={text.deleteSelected}
        cancelLabel={text.cancel}
        danger
        busy={busy}
        confirmDisabled={sent > 0}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      >
        <p>{text.deleteText}</p>
        {sent > 0 && <p className="ws-field-error">{text.deleteSentBlocked(sent)}</p>}
      </ConfirmDialog>
    </div>
  );
}

function FolderActions({ folder, onChanged }: { folder: Folder; onChanged: (message: string) => void }) {
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await api.delete(`/workflow/v1/user/folders/${folder.id}`);
      setDeleting(false);
      navigate('/');
      onChanged('');
    } catch (failure) {
      setDeleting(false);
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="ws-actions">
      <button type="button" className="ws-button ws-button--small" onClick={() => setRenaming(true)}>
        {text.renameFolder}
      </button>
      <button type="button" className="ws-button ws-button--small ws-button--danger" onClick={() => setDeleting(true)}>
        {text.deleteFolder}
      </button>
      {error !== null && <ErrorNotice error={error} />}
      <FolderDialog
        open={renaming}
        folder={folder}
        onClose={() => setRenaming(false)}
        onSaved={() => {
          setRenaming(false);
          onChanged('');
        }}
      />
      <ConfirmDialog
        open={deleting}
        title={text.deleteFolderTitle(folder.folderName)}
        confirmLabel={text.deleteFolder}
        cancelLabel={text.cancel}
        danger
        busy={busy}
        onConfirm={remove}
        onCancel={() => setDeleting(false)}
      >
        <p>{text.deleteFolderText}</p>
      </ConfirmDialog>
    </div>
  );
}

function Pager({ view, pages }: { view: View; pages: number }) {
  return (
    <nav aria-label={text.pagination} className="ws-pager">
      {view.page > 1 && (
        <Link to={viewHref({ ...view, page: view.page - 1 })} className="ws-button ws-button--small">
          {text.previous}
        </Link>
      )}
      <span>{text.pageOf(Math.min(view.page, pages), pages)}</span>
      {view.page < pages && (
        <Link to={viewHref({ ...view, page: view.page + 1 })} className="ws-button ws-button--small">
          {text.next}
        </Link>
      )}
      <label className="ws-inline-label">
        {text.rowsPerPage}{' '}
        <select
          value={view.size}
          onChange={(event) => navigate(viewHref({ ...view, size: Number(event.target.value), page: 1 }))}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}
