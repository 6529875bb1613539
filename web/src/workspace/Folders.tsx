/** Personal folders in the dashboard's sidebar: the list (each a filter of the document list), create and rename. */
import { useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError } from '../shared/api.ts';
import { dashboardText as text } from '../i18n/workspace/index.ts';
import { Link } from './router.tsx';
import { api } from './session-api.ts';
import type { Folder } from './types.ts';

export function FolderList({
  folders,
  current,
  hrefOf,
  onChanged,
}: {
  folders: Folder[] | null;
  current: number | null;
  hrefOf: (folderId: number | null) => string;
  onChanged: (message: string) => void;
}) {
  const [creating, setCreating] = useState(false);
  return (
    <nav aria-label={text.foldersNav}>
      <h2>{text.foldersHeading}</h2>
      <ul>
        <li>
          <Link to={hrefOf(null)} className="ws-filter" aria-current={current === null ? 'true' : undefined}>
            <span className="ws-filter-label">{text.allFolders}</span>
          </Link>
        </li>
        {(folders ?? []).map((folder) => (
          <li key={folder.id}>
            <Link
              to={hrefOf(folder.id)}
              className="ws-filter"
              aria-current={current === folder.id ? 'true' : undefined}
            >
              <span className="ws-filter-label">{folder.folderName}</span>{' '}
              <span className="ws-count">{folder.documentsCount}</span>
            </Link>
          </li>
        ))}
      </ul>
      <button type="button" className="ws-button ws-button--small" onClick={() => setCreating(true)}>
        {text.newFolder}
      </button>
      <FolderDialog
        open={creating}
        folder={null}
        onClose={() => setCreating(false)}
        onSaved={() => {
          setCreating(false);
          onChanged('');
        }}
      />
    </nav>
  );
}

/** Create (folder null) or rename a folder, in a modal dialog; errors (empty, taken) shown at the field. */
export function FolderDialog({
  open,
  folder,
  onClose,
  onSaved,
}: {
  open: boolean;
  folder: Folder | null;
  onClose: () => void;
  onSaved: (saved: Folder) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  // A layout effect: the name set here is rendered before the browser paints the dialog it opens. From a plain effect
  // the dialog showed an empty field for a moment (a CI browser test read '' instead of the folder's name).
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement;
      setName(folder?.folderName ?? '');
      setError(null);
      element.showModal();
    } else if (!open && element.open) {
      element.close();
      if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
    }
  }, [open, folder]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const folderName = name.trim();
    if (!folderName) return setError(text.folderNameRequired);
    setBusy(true);
    setError(null);
    try {
      const saved = folder
        ? await api.put<Folder>(`/workflow/v1/user/folders/${folder.id}`, { folderName })
        : await api.post<Folder>('/workflow/v1/user/folders', { folderName });
      onSaved(saved);
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 409
          ? text.folderTaken
          : failure instanceof Error
            ? failure.message
            : String(failure),
      );
    } finally {
      setBusy(false);
    }
  }
  const title = folder ? text.renameFolder : text.newFolder;
  return (
    <dialog
      ref={dialog}
      className="ws-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <form className="ws-form" onSubmit={submit} noValidate>
        <label htmlFor={`${id}-name`}>{text.folderName}</label>
        <input
          id={`${id}-name`}
          type="text"
          value={name}
          maxLength={50}
          autoComplete="off"
          aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
          aria-invalid={error ? true : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <p id={`${id}-hint`} className="hint">
          {text.folderNameHint}
        </p>
        {error && (
          <p id={`${id}-error`} className="ws-field-error" role="alert">
            {error}
          </p>
        )}
        <div className="ws-actions">
          <button type="button" className="ws-button" onClick={onClose} disabled={busy}>
            {text.cancel}
          </button>
          <button type="submit" className="ws-button ws-button--primary" disabled={busy}>
            {folder ? text.save : text.create}
          </button>
        </div>
      </form>
    </dialog>
  );
}
