/**
 * Building blocks the templates, organization and profile screens share on top of the workspace's own
 * (workspace/ui.tsx): loading a resource, a modal form, a section navigation, a secret shown once with a copy
 * button, and the API's 400 issues mapped onto the fields that caused them.
 */
import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../shared/api.ts';
import { Link, useLocation } from '../workspace/router.tsx';
import { kitText } from '../i18n/organization/index.ts';
import './screens.css';

export type Resource<T> = {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload: () => void;
  setData: (update: T | ((current: T | null) => T)) => void;
};

/**
 * `load` run now and whenever `deps` change (and on reload); the latest answer wins, so a slow earlier call
 * never overwrites a newer one.
 */
export function useResource<T>(load: () => Promise<T>, deps: unknown[]): Resource<T> {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const [tick, setTick] = useState(0);
  const serial = useRef(0);
  useEffect(() => {
    const mine = ++serial.current;
    setState((current) => ({ ...current, loading: true }));
    load().then(
      (data) => mine === serial.current && setState({ data, error: null, loading: false }),
      (error: unknown) => mine === serial.current && setState({ data: null, error, loading: false }),
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  const setData = useCallback((update: T | ((current: T | null) => T)) => {
    setState((current) => ({
      ...current,
      data: typeof update === 'function' ? (update as (c: T | null) => T)(current.data) : update,
    }));
  }, []);
  return { ...state, reload, setData };
}

/** True for an answer the caller's role does not allow (the API decides; the screen hides or disables). */
export function isForbidden(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403;
}

/**
 * The fields a 400 names: the service's validation issues (`responseBody` [{path: "/name", message}]) or
 * the keys a mail-settings error lists. Keys are the first path segment ("name", "emailAddress").
 */
export function fieldIssues(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !Array.isArray(error.responseBody)) return {};
  const issues: Record<string, string> = {};
  for (const issue of error.responseBody as { path?: unknown; message?: unknown }[]) {
    if (typeof issue?.path !== 'string') continue;
    const key = issue.path.replace(/^\//, '').split('/')[0];
    if (key && !issues[key]) issues[key] = typeof issue.message === 'string' ? issue.message : error.message;
  }
  return issues;
}

/**
 * A modal form in the native <dialog> (focus kept inside, Escape closes, focus back on the opener). The
 * submit button is the form's; `error` shows under the fields, announced.
 */
export function FormDialog({
  open,
  title,
  description,
  submitLabel,
  busy,
  error,
  onSubmit,
  onClose,
  children,
  wide,
  noCancel,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  submitLabel: string;
  busy?: boolean;
  error?: unknown;
  onSubmit: () => void;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
  /** A dialog that only shows something: one button, which closes it. */
  noCancel?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();
  const descriptionId = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      opener.current = document.activeElement;
      element.showModal();
    } else if (!open && element.open) {
      element.close();
      if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
    }
  }, [open]);
  // Most screens unmount the dialog rather than close it: focus still goes back to what opened it.
  useEffect(
    () => () => {
      const back = opener.current;
      if (back instanceof HTMLElement && back.isConnected) setTimeout(() => back.focus(), 0);
    },
    [],
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!busy) onSubmit();
  }
  return (
    <dialog
      ref={dialog}
      className={wide ? 'ws-dialog st-dialog st-dialog--wide' : 'ws-dialog st-dialog'}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      {open && (
        <form onSubmit={submit} noValidate>
          <h2 id={titleId}>{title}</h2>
          {description && (
            <div id={descriptionId} className="st-hint">
              {description}
            </div>
          )}
          {children}
          {error ? <ApiErrorText error={error} /> : null}
          <div className="ws-actions st-actions">
            {!noCancel && (
              <button type="button" className="ws-button" onClick={onClose} disabled={busy}>
                {kitText.cancel}
              </button>
            )}
            <button type="submit" className="ws-button ws-button--primary" disabled={busy} aria-disabled={busy}>
              {busy ? kitText.working : submitLabel}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}

/** The API's own sentence for a failed call (its errorDescription), announced; the request id for support. */
export function ApiErrorText({ error, id }: { error: unknown; id?: string }) {
  const message = error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
  const reference = error instanceof ApiError ? error.requestId : undefined;
  return (
    <div role="alert" className="st-error" id={id}>
      <p>{message}</p>
      {reference && <p className="st-hint">{kitText.reference(reference)}</p>}
    </div>
  );
}

/** A polite announcement of what just happened ("Role saved."); renders an empty live region otherwise, so it is announced when it fills. */
export function StatusLine({ message }: { message: string | null }) {
  return (
    <p role="status" className="st-status">
      {message ?? ''}
    </p>
  );
}

/** A list's search box: the term is applied (trimmed) when submitted, not on every keystroke. */
export function SearchForm({
  id,
  label,
  buttonLabel,
  toolbar = false,
  onSearch,
}: {
  id: string;
  label: string;
  buttonLabel: string;
  toolbar?: boolean;
  onSearch: (term: string) => void;
}) {
  const [value, setValue] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch(value.trim());
  }
  return (
    <form role="search" className={toolbar ? 'ws-search ws-toolbar' : 'ws-search'} onSubmit={submit}>
      <div>
        <label htmlFor={id}>{label}</label>
        <input id={id} type="search" value={value} onChange={(event) => setValue(event.target.value)} />
      </div>
      <button type="submit" className="ws-button">
        {buttonLabel}
      </button>
    </form>
  );
}

/** A section navigation (Members, Roles, ...): links, the current one marked for assistive technology. */
export function SectionNav({ label, items }: { label: string; items: { to: string; label: string }[] }) {
  const { pathname } = useLocation();
  const current = items.reduce<string | null>((best, item) => {
    const matches = pathname === item.to || pathname.startsWith(`${item.to}/`);
    return matches && (!best || item.to.length > best.length) ? item.to : best;
  }, null);
  return (
    <nav aria-label={label} className="st-sections">
      <ul>
        {items.map((item) => (
          <li key={item.to}>
            <Link to={item.to} aria-current={current === item.to ? 'page' : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * A secret the service shows only now: read-only, selectable, with a copy button that says when it copied.
 * The clipboard API needs a secure context; elsewhere the text is selected for the person to copy.
 */
export function SecretField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'yes' | 'select' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('yes');
    } catch {
      input.current?.select();
      setCopied('select');
    }
  }
  return (
    <div className="st-secret">
      <label htmlFor={id} className="st-label">
        {label}
      </label>
      <div className="st-secret-row">
        <input
          id={id}
          ref={input}
          type="text"
          readOnly
          value={value}
          className="st-mono"
          spellCheck={false}
          autoComplete="off"
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" className="ws-button" onClick={copy}>
          {kitText.copy(label)}
        </button>
      </div>
      <p role="status" className="st-hint">
        {copied === 'yes' ? kitText.copied(label) : copied === 'select' ? kitText.copySelect : ''}
      </p>
    </div>
  );
}

/** A labelled text input with its hint and error wired to it (aria-describedby, aria-invalid). */
export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  type = 'text',
  required,
  autoComplete,
  maxLength,
  inputMode,
  name,
  disabled,
  list,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: string;
  type?: string;
  required?: boolean;
  autoComplete?: string;
  maxLength?: number;
  inputMode?: 'text' | 'email' | 'numeric' | 'url';
  name?: string;
  disabled?: boolean;
  list?: string;
}) {
  const id = useId();
  const hintId = useId();
  const errorId = useId();
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="st-field">
      <label htmlFor={id} className="st-label">
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        required={required}
        aria-required={required || undefined}
        autoComplete={autoComplete ?? 'off'}
        maxLength={maxLength}
        inputMode={inputMode}
        disabled={disabled}
        list={list}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint && (
        <p id={hintId} className="st-hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="ws-field-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** A page size's worth of rows and the controls to move through pages (zero-based, as the API counts). */
export function Pager({
  page,
  size,
  total,
  onPage,
  label,
}: {
  page: number;
  size: number;
  total: number;
  onPage: (page: number) => void;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / size));
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="ws-pager">
      <button type="button" className="ws-button" disabled={page <= 0} onClick={() => onPage(page - 1)}>
        {kitText.previous}
      </button>
      <span>{kitText.pageOf(page + 1, pages)}</span>
      <button type="button" className="ws-button" disabled={page >= pages - 1} onClick={() => onPage(page + 1)}>
        {kitText.next}
      </button>
    </nav>
  );
}
