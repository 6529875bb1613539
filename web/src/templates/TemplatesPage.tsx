/**
 * /templates: the organization's templates by folder (?folder=<id>, 0 for those in no folder), with the folder
 * tree (create, rename, delete, role access), search, and per template: use (a draft envelope, then the editor),
 * send (the dispatch form), analytics, rename, move, copy, delete. What the member's role does not allow answers
 * 403; the API's sentence is shown next to the action.
 */
import { useState } from 'react';
import { Skeleton } from '../shared/Skeleton.tsx';
import { Link, navigate, useSearchParams } from '../workspace/router.tsx';
import type { PageProps } from '../workspace/routes.tsx';
import { useMe } from '../workspace/session-api.ts';
import { formatDateTime, useTitle } from '../workspace/ui.tsx';
import {
  ApiErrorText,
  FormDialog,
  Pager,
  SearchForm,
  StatusLine,
  TextField,
  fieldIssues,
  useResource,
} from '../organization/kit.tsx';
import { ConfirmAction } from '../organization/MembersSection.tsx';
import { orgApi } from '../organization/org-api.ts';
import { templatesText as text } from '../i18n/templates/index.ts';
import { slotOrder, templatesApi, type Folder, type Template } from './templates-api.ts';
import './templates.css';

const PAGE_SIZE = 20;

type FlatFolder = { folder: Folder; depth: number; path: string };

function flatten(folders: Folder[], depth = 0, prefix = ''): FlatFolder[] {
  return folders.flatMap((folder) => {
    const path = prefix ? `${prefix} / ${folder.name}` : folder.name;
    return [{ folder, depth, path }, ...flatten(folder.children, depth + 1, path)];
  });
}

type Dialog =
  | { kind: 'create' }
  | { kind: 'newFolder'; parent: Folder | null }
  | { kind: 'renameFolder'; folder: Folder }
  | { kind: 'deleteFolder'; folder: Folder }
  | { kind: 'access'; folder: Folder }
  | { kind: 'rename'; template: Template }
  | { kind: 'move'; template: Template }
  | { kind: 'delete'; template: Template };

export function TemplatesPage(_props: PageProps) {
  useTitle(text.title);
  const searchParams = useSearchParams();
  const folderParam = searchParams.get('folder');
  const selected = folderParam === null ? null : Number(folderParam);
  const [page, setPage] = useState(0);
  const [search, setSearch] = useState('');
  const tree = useResource(() => templatesApi.tree(), []);
  const list = useResource(
    () =>
      templatesApi.list({ page, size: PAGE_SIZE, folderId: selected ?? undefined, searchValue: search || undefined }),
    [page, selected, search],
  );
  const [dialog, setDialog] = useState<Dialog | null>(null);
  // A template saved from the editor comes back here with its name (?created=), said once.
  const [done, setDone] = useState<string | null>(() => {
    const created = searchParams.get('created');
    return created ? text.created(created) : null;
  });
  const [rowError, setRowError] = useState<{ id: number; error: unknown } | null>(null);
  const [using, setUsing] = useState<number | null>(null);

  const flat = flatten(tree.data ?? []);
  const current = selected ? (flat.find((f) => f.folder.id === selected) ?? null) : null;
  const where = selected === null ? text.allTemplates : selected === 0 ? text.rootFolder : (current?.path ?? '');
  const folderPath = (id: number | null) =>
    id === null ? text.rootFolder : (flat.find((f) => f.folder.id === id)?.path ?? '');

  function openFolder(id: number | null) {
    setPage(0);
    navigate(id === null ? '/templates' : `/templates?folder=${id}`);
  }
  function onSearch(term: string) {
    setPage(0);
    setSearch(term);
  }
  function finished(message: string, reloadTree = false) {
    setDialog(null);
    setDone(message);
    list.reload();
    if (reloadTree) tree.reload();
  }

  async function use(template: Template) {
    setUsing(template.id);
    setRowError(null);
    try {
      const created = await templatesApi.use(template.id);
      navigate(`/envelopes/${created.id}/edit`);
    } catch (failure) {
      setRowError({ id: template.id, error: failure });
      setUsing(null);
    }
  }

  async function copy(template: Template) {
    setRowError(null);
    try {
      const copied = await templatesApi.clone(template.id);
      finished(text.copied(copied.name));
    } catch (failure) {
      setRowError({ id: template.id, error: failure });
    }
  }

  return (
    <div className="ws-page">
      <div className="ws-page-head">
        <h1>{text.title}</h1>
        <div className="ws-actions">
          <Link to="/templates/new" className="ws-button ws-button--primary">
            {text.newTemplate}
          </Link>
          <button type="button" className="ws-button" onClick={() => setDialog({ kind: 'create' })}>
            {text.newFromEnvelope}
          </button>
        </div>
      </div>
      <div className="tp-layout">
        <aside className="tp-sidebar" aria-labelledby="tp-folders-title">
          <h2 id="tp-folders-title">{text.foldersTitle}</h2>
          <nav aria-label={text.foldersNav}>
            <ul className="tp-folders">
              <li>
                <FolderLink
                  label={text.allTemplates}
                  active={selected === null}
                  onOpen={() => openFolder(null)}
                  href="/templates"
                />
              </li>
              <li>
                <FolderLink
                  label={text.rootFolder}
                  active={selected === 0}
                  onOpen={() => openFolder(0)}
                  href="/templates?folder=0"
                />
              </li>
              {flat.map(({ folder, depth }) => (
                <li key={folder.id} style={{ paddingLeft: `${depth * 1}rem` }}>
                  <FolderLink
                    label={folder.name}
                    active={selected === folder.id}
                    onOpen={() => openFolder(folder.id)}
                    href={`/templates?folder=${folder.id}`}
                  />
                </li>
              ))}
            </ul>
          </nav>
          {tree.error ? <ApiErrorText error={tree.error} /> : null}
          <button
            type="button"
            className="ws-button ws-button--small"
            onClick={() => setDialog({ kind: 'newFolder', parent: current?.folder ?? null })}
          >
            {current ? text.newSubfolder : text.newFolder}
          </button>
        </aside>
        <div className="tp-main">
          {current && (
            <div className="tp-folder-head">
              <h2>{current.path}</h2>
              <div className="st-row-actions">
                <button
                  type="button"
                  className="ws-button ws-button--small"
                  aria-label={text.renameFolderOf(current.folder.name)}
                  onClick={() => setDialog({ kind: 'renameFolder', folder: current.folder })}
                >
                  {text.rename}
                </button>
                <button
                  type="button"
                  className="ws-button ws-button--small"
                  aria-label={text.accessOf(current.folder.name)}
                  onClick={() => setDialog({ kind: 'access', folder: current.folder })}
                >
                  {text.access}
                </button>
                <button
                  type="button"
                  className="ws-button ws-button--small ws-button--quiet"
                  aria-label={text.deleteFolderOf(current.folder.name)}
                  onClick={() => setDialog({ kind: 'deleteFolder', folder: current.folder })}
                >
                  {text.delete}
                </button>
              </div>
            </div>
          )}
          <SearchForm
            id="tp-search"
            label={text.searchTemplates}
            buttonLabel={text.search}
            toolbar
            onSearch={onSearch}
          />
          <StatusLine message={done} />
          {list.error ? <ApiErrorText error={list.error} /> : null}
          {list.loading && !list.data && <Skeleton shape="rows" label={text.loading} />}
          {list.data && (
            <>
              <div className="ws-table-wrap">
                <table className="ws-table ws-table--list">
                  <caption>{text.templatesCaption(list.data.totalElements, where)}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{text.name}</th>
                      <th scope="col">{text.placeholders}</th>
                      <th scope="col">{text.folder}</th>
                      <th scope="col">{text.updated}</th>
                      <th scope="col">{text.actions}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.data.content.map((template) => (
                      <tr key={template.id}>
                        <th scope="row">
                          {template.name}
                          {template.description && <span className="ws-muted st-block">{template.description}</span>}
                        </th>
                        <td data-label={text.placeholders}>
                          {template.recipientLabels.length === 0
                            ? text.noPlaceholders
                            : template.recipientLabels.map((l) => l.label).join(', ')}
                        </td>
                        <td data-label={text.folder}>{folderPath(template.folderId)}</td>
                        <td data-label={text.updated}>{formatDateTime(template.updatedAt)}</td>
                        <td>
                          <div className="st-row-actions">
                            <button
                              type="button"
                              className="ws-button ws-button--small ws-button--primary"
                              disabled={using !== null}
                              aria-label={text.useOf(template.name)}
                              onClick={() => use(template)}
                            >
                              {using === template.id ? text.using : text.use}
                            </button>
                            <Link
                              to={`/templates/${template.id}/dispatch`}
                              className="ws-button ws-button--small"
                              aria-label={text.sendOf(template.name)}
                            >
                              {text.send}
                            </Link>
                            <Link
                              to={`/templates/${template.id}/analytics`}
                              className="ws-button ws-button--small"
                              aria-label={text.analyticsOf(template.name)}
                            >
                              {text.analytics}
                            </Link>
                            <details className="tp-more">
                              <summary className="ws-button ws-button--small ws-button--quiet">
                                {text.more}
                                <span className="visually-hidden">{text.moreFor(template.name)}</span>
                              </summary>
                              <div className="tp-more-menu">
                                <button
                                  type="button"
                                  className="ws-button ws-button--small"
                                  aria-label={text.renameOf(template.name)}
                                  onClick={() => setDialog({ kind: 'rename', template })}
                                >
                                  {text.rename}
                                </button>
                                <button
                                  type="button"
                                  className="ws-button ws-button--small"
                                  aria-label={text.moveOf(template.name)}
                                  onClick={() => setDialog({ kind: 'move', template })}
                                >
                                  {text.move}
                                </button>
                                <button
                                  type="button"
                                  className="ws-button ws-button--small"
                                  aria-label={text.copyOf(template.name)}
                                  onClick={() => copy(template)}
                                >
                                  {text.copy}
                                </button>
                                <button
                                  type="button"
                                  className="ws-button ws-button--small ws-button--quiet"
                                  aria-label={text.deleteOf(template.name)}
                                  onClick={() => setDialog({ kind: 'delete', template })}
                                >
                                  {text.delete}
                                </button>
                              </div>
                            </details>
                          </div>
                          {rowError?.id === template.id && <ApiErrorText error={rowError.error} />}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {list.data.content.length === 0 && (
                <p className="ws-empty">{search ? text.noTemplatesMatch : text.noTemplates}</p>
              )}
              <Pager
                page={page}
                size={PAGE_SIZE}
                total={list.data.totalElements}
                onPage={setPage}
                label={text.templatesPages}
              />
            </>
          )}
        </div>
      </div>

      {dialog?.kind === 'create' && (
        <CreateTemplateDialog
          folders={flat}
          initialFolder={selected && selected > 0 ? selected : null}
          onClose={() => setDialog(null)}
          onDone={(t) => finished(text.created(t.name))}
        />
      )}
      {dialog?.kind === 'newFolder' && (
        <NameDialog
          title={text.newFolderTitle(dialog.parent?.name ?? null)}
          label={text.folderName}
          hint={text.folderNameRule}
          initial=""
          submitLabel={text.createFolder}
          run={(name) => templatesApi.createFolder(name, dialog.parent?.id ?? null)}
          onClose={() => setDialog(null)}
          onDone={(folder) => {
            finished(text.folderCreated(folder.name), true);
            openFolder(folder.id);
          }}
        />
      )}
      {dialog?.kind === 'renameFolder' && (
        <NameDialog
          title={text.renameFolderTitle(dialog.folder.name)}
          label={text.folderName}
          hint={text.folderNameRule}
          initial={dialog.folder.name}
          submitLabel={text.rename}
          run={(name) => templatesApi.renameFolder(dialog.folder.id, name)}
          onClose={() => setDialog(null)}
          onDone={(folder) => finished(text.folderRenamed(folder.name), true)}
        />
      )}
      {dialog?.kind === 'deleteFolder' && (
        <ConfirmAction
          title={text.deleteFolderTitle(dialog.folder.name)}
          description={text.deleteFolderText}
          submitLabel={text.delete}
          run={() => templatesApi.deleteFolder(dialog.folder.id)}
          onClose={() => setDialog(null)}
          onDone={() => {
            finished(text.folderDeleted(dialog.folder.name), true);
            openFolder(dialog.folder.parentFolderId);
          }}
        />
      )}
      {dialog?.kind === 'access' && (
        <AccessDialog
          folder={dialog.folder}
          onClose={() => setDialog(null)}
          onDone={() => finished(text.accessSaved(dialog.folder.name), true)}
        />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={text.renameTitle(dialog.template.name)}
          label={text.templateName}
          hint={text.templateNameRule}
          initial={dialog.template.name}
          submitLabel={text.rename}
          run={(name) => templatesApi.rename(dialog.template.id, name)}
          onClose={() => setDialog(null)}
          onDone={(t) => finished(text.renamed(t.name))}
        />
      )}
      {dialog?.kind === 'move' && (
        <MoveDialog
          template={dialog.template}
          folders={flat}
          onClose={() => setDialog(null)}
          onDone={(folderId) => finished(text.moved(dialog.template.name, folderPath(folderId)))}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmAction
          title={text.deleteTitle(dialog.template.name)}
          description={text.deleteText}
          submitLabel={text.delete}
          run={() => templatesApi.remove([dialog.template.id])}
          onClose={() => setDialog(null)}
          onDone={() => finished(text.deleted(dialog.template.name))}
        />
      )}
    </div>
  );
}

function FolderLink({
  label,
  active,
  onOpen,
  href,
}: {
  label: string;
  active: boolean;
  onOpen: () => void;
  href: string;
}) {
  return (
    <a
      href={href}
      className="tp-folder"
      aria-current={active ? 'page' : undefined}
      onClick={(e) => {
        if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        onOpen();
      }}
    >
      {label}
    </a>
  );
}

/** One name, typed and submitted; the API's refusal (409 name taken, 400 rule) is shown on the field. */
function NameDialog<T>({
  title,
  label,
  hint,
  initial,
  submitLabel,
  run,
  onClose,
  onDone,
}: {
  title: string;
  label: string;
  hint: string;
  initial: string;
  submitLabel: string;
  run: (name: string) => Promise<T>;
  onClose: () => void;
  onDone: (result: T) => void;
}) {
  const [name, setName] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<string | null>(null);
  async function submit() {
    if (!name.trim()) return setLocal(hint);
    setLocal(null);
    setBusy(true);
    setError(null);
    try {
      onDone(await run(name.trim()));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }
  return (
    <FormDialog open title={title} submitLabel={submitLabel} busy={busy} onSubmit={submit} onClose={onClose}>
      <TextField
        label={label}
        value={name}
        onChange={(v) => {
          setName(v);
          setLocal(null);
        }}
        required
        maxLength={50}
        hint={hint}
        error={local ?? (error ? (error as Error).message : null)}
      />
      {error ? (
        <p role="alert" className="visually-hidden">
          {(error as Error).message}
        </p>
      ) : null}
    </FormDialog>
  );
}

function MoveDialog({
  template,
  folders,
  onClose,
  onDone,
}: {
  template: Template;
  folders: FlatFolder[];
  onClose: () => void;
  onDone: (folderId: number | null) => void;
}) {
  const [target, setTarget] = useState(template.folderId === null ? '' : String(template.folderId));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  async function submit() {
    setBusy(true);
    setError(null);
    try {
      const folderId = target ? Number(target) : null;
      await templatesApi.move([template.id], folderId);
      onDone(folderId);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }
  return (
    <FormDialog
      open
      title={text.moveTitle(template.name)}
      submitLabel={text.move}
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <FolderSelect id="tp-move-folder" label={text.moveTo} value={target} onChange={setTarget} folders={folders} />
    </FormDialog>
  );
}

function FolderSelect({
  id,
  label,
  value,
  onChange,
  folders,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  folders: FlatFolder[];
}) {
  return (
    <div className="st-field">
      <label htmlFor={id} className="st-label">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{text.rootFolder}</option>
        {folders.map(({ folder, path }) => (
          <option key={folder.id} value={folder.id}>
            {path}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Owner only (the API answers 403 otherwise, shown here): which custom roles see the folder. */
function AccessDialog({ folder, onClose, onDone }: { folder: Folder; onClose: () => void; onDone: () => void }) {
  const loaded = useResource(async () => {
    const [access, roles] = await Promise.all([templatesApi.folderAccess(folder.id), orgApi.availableRoles()]);
    return { access, roles };
  }, [folder.id]);
  const [override, setOverride] = useState<boolean | null>(null);
  const [roleIds, setRoleIds] = useState<number[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const restricted = override ?? loaded.data?.access.overrideEnabled ?? false;
  const chosen = roleIds ?? loaded.data?.access.roleIds ?? [];
  async function submit() {
    if (!loaded.data) return;
    setBusy(true);
    setError(null);
    try {
      await templatesApi.setFolderAccess(folder.id, { overrideEnabled: restricted, roleIds: chosen });
      onDone();
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }
  return (
    <FormDialog
      open
      title={text.accessTitle(folder.name)}
      description={<p>{text.accessText}</p>}
      submitLabel={text.saveAccess}
      busy={busy}
      error={error ?? loaded.error}
      onSubmit={submit}
      onClose={onClose}
    >
      {!loaded.data && !loaded.error && <Skeleton shape="rows" label={text.loading} withHeading={false} />}
      {loaded.data && (
        <>
          <label className="checkbox">
            <input type="checkbox" checked={restricted} onChange={(e) => setOverride(e.target.checked)} />{' '}
            {text.restrict}
          </label>
          <fieldset className="st-fieldset" disabled={!restricted}>
            <legend>{text.rolesLegend}</legend>
            {loaded.data.roles.length === 0 && <p className="ws-muted">{text.noRolesYet}</p>}
            {loaded.data.roles.map((role) => (
              <label key={role.roleId} className="checkbox">
                <input
                  type="checkbox"
                  checked={chosen.includes(role.roleId)}
                  onChange={(e) =>
                    setRoleIds(e.target.checked ? [...chosen, role.roleId] : chosen.filter((id) => id !== role.roleId))
                  }
                />{' '}
                {role.roleName}
              </label>
            ))}
          </fieldset>
        </>
      )}
    </FormDialog>
  );
}

function CreateTemplateDialog({
  folders,
  initialFolder,
  onClose,
  onDone,
}: {
  folders: FlatFolder[];
  initialFolder: number | null;
  onClose: () => void;
  onDone: (template: Template) => void;
}) {
  const { me } = useMe();
  const [sourceSearch, setSourceSearch] = useState('');
  const [sourceQuery, setSourceQuery] = useState('');
  const sources = useResource(() => templatesApi.workflows(sourceQuery), [sourceQuery]);
  const [workflowId, setWorkflowId] = useState('');
  const recipients = useResource(
    () => (workflowId ? templatesApi.workflowRecipients(Number(workflowId)).then(slotOrder) : Promise.resolve([])),
    [workflowId],
  );
  const [labels, setLabels] = useState<Record<number, string>>({});
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [folder, setFolder] = useState(initialFolder === null ? '' : String(initialFolder));
  const [reminders, setReminders] = useState(false);
  const [days, setDays] = useState('3');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const issues = { ...fieldIssues(error), ...local };

  const usable = (sources.data?.content ?? []).filter(
    (w) =>
      (!me || w.ownerUserId === me.userId) &&
      w.sequence !== 'SELF' &&
      w.sequence !== 'SURVEY' &&
      !w.isPowerSurvey &&
      !w.isPowerSurveyChild &&
      w.recipientCount > 0 &&
      w.documentCount > 0,
  );

  function pick(value: string) {
    setWorkflowId(value);
    setLabels({});
    const picked = usable.find((w) => String(w.workflowId) === value);
    if (picked && !name) setName(picked.name.slice(0, 50));
  }

  async function submit() {
    const problems: Record<string, string> = {};
    if (!workflowId) problems.workflowId = text.sourceRequired;
    if (!name.trim()) problems.name = text.nameRequired;
    const interval = Number(days);
    if (reminders && !(Number.isInteger(interval) && interval >= 1 && interval <= 30))
      problems.reminderIntervalDays = text.reminderDaysRule;
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      const order = recipients.data ?? [];
      onDone(
        await templatesApi.create({
          name: name.trim(),
          description: description.trim(),
          workflowId: Number(workflowId),
          folderId: folder ? Number(folder) : null,
          recipientLabels: order
            .map((r, i) => ({ order: i + 1, label: (labels[r.id] ?? '').trim() }))
            .filter((l) => l.label),
          reminderEnabled: reminders,
          reminderIntervalDays: reminders ? interval : null,
        }),
      );
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open
      wide
      title={text.createTitle}
      description={<p>{text.createText}</p>}
      submitLabel={text.create}
      busy={busy}
      error={error}
      onSubmit={submit}
      onClose={onClose}
    >
      <div className="tp-source-search">
        <TextField label={text.sourceSearch} type="search" value={sourceSearch} onChange={setSourceSearch} />
        <button type="button" className="ws-button" onClick={() => setSourceQuery(sourceSearch.trim())}>
          {text.search}
        </button>
      </div>
      {sources.error ? <ApiErrorText error={sources.error} /> : null}
      <div className="st-field">
        <label htmlFor="tp-source" className="st-label">
          {text.source}
          <span aria-hidden="true"> *</span>
        </label>
        <select
          id="tp-source"
          value={workflowId}
          onChange={(e) => {
            pick(e.target.value);
            setLocal((l) => ({ ...l, workflowId: '' }));
          }}
          aria-required="true"
          aria-invalid={issues.workflowId ? true : undefined}
          aria-describedby={`tp-source-hint${issues.workflowId ? ' tp-source-error' : ''}`}
        >
          <option value="">{text.sourceNone}</option>
          {usable.map((w) => (
            <option key={w.workflowId} value={w.workflowId}>
              {text.sourceOption(w.name, w.status, w.recipientCount)}
            </option>
          ))}
        </select>
        <p id="tp-source-hint" className="st-hint">
          {sources.data && usable.length === 0 ? text.noSources : text.sourceHint}
        </p>
        {issues.workflowId && (
          <p id="tp-source-error" className="ws-field-error">
            {issues.workflowId}
          </p>
        )}
      </div>
      {workflowId && recipients.data && recipients.data.length > 0 && (
        <fieldset className="st-fieldset">
          <legend>{text.slotsLegend}</legend>
          <p className="st-hint">{text.slotsHint}</p>
          {recipients.data.map((r, i) => (
            <TextField
              key={r.id}
              label={text.slotLabel(i + 1, r.name, text.roles[r.recipientRole] ?? r.recipientRole)}
              value={labels[r.id] ?? ''}
              onChange={(v) => setLabels((all) => ({ ...all, [r.id]: v }))}
              maxLength={50}
            />
          ))}
        </fieldset>
      )}
      {recipients.error ? <ApiErrorText error={recipients.error} /> : null}
      <TextField
        label={text.templateName}
        value={name}
        onChange={(v) => {
          setName(v);
          setLocal((l) => ({ ...l, name: '' }));
        }}
        required
        maxLength={50}
        hint={text.templateNameRule}
        error={issues.name}
      />
      <div className="st-field">
        <label htmlFor="tp-description" className="st-label">
          {text.description}
        </label>
        <textarea
          id="tp-description"
          value={description}
          maxLength={500}
          rows={2}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <FolderSelect id="tp-create-folder" label={text.folder} value={folder} onChange={setFolder} folders={folders} />
      <label className="checkbox">
        <input type="checkbox" checked={reminders} onChange={(e) => setReminders(e.target.checked)} /> {text.reminders}
      </label>
      {reminders && (
        <TextField
          label={text.reminderDays}
          type="number"
          inputMode="numeric"
          value={days}
          onChange={(v) => {
            setDays(v);
            setLocal((l) => ({ ...l, reminderIntervalDays: '' }));
          }}
          hint={text.reminderDaysRule}
          error={issues.reminderIntervalDays}
        />
      )}
    </FormDialog>
  );
}
