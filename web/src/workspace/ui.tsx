/** Small building blocks every workspace page shares (title, headings, errors, confirmation dialog). */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { ApiError } from '../shared/api.ts';
import { formattingLocale } from '../i18n/language.ts';
import { shellText } from '../i18n/workspace/index.ts';

/** Sets the tab's title to "<page> – <app>". */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} – ${shellText.appName}`;
  }, [title]);
}

/** A failed call, said plainly, with the request id support can look up. */
export function ErrorNotice({ error, children }: { error: unknown; children?: ReactNode }) {
  const reference = error instanceof ApiError ? error.requestId : undefined;
  const message = error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error);
  return (
    <div role="alert" className="ws-error">
      <p>{children ?? message}</p>
      {children !== undefined && message && <p className="ws-muted">{message}</p>}
      {reference && <p className="ws-muted">{shellText.requestReference(reference)}</p>}
    </div>
  );
}

/**
 * A modal confirmation (the native <dialog>: focus is trapped inside and Escape cancels; focus returns to
 * what opened it when it closes).
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel,
  danger,
  busy,
  confirmDisabled,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  busy?: boolean;
  /** The action is not possible now (the dialog says why); Cancel still works. */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
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
  const titleId = useId();
  return (
    <dialog
      ref={dialog}
      className="ws-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onCancel();
      }}
    >
      <h2 id={titleId}>{title}</h2>
      {children}
      <div className="ws-actions">
        <button type="button" className="ws-button" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </button>
        <button
          type="button"
          className={danger ? 'ws-button ws-button--danger' : 'ws-button ws-button--primary'}
          onClick={onConfirm}
          disabled={busy || confirmDisabled}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** A date-time as the page's language writes it (formattingLocale: the browser's region when it names that language). */
export function formatDateTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleString(formattingLocale(), { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A record time the service gives as "YYYY-MM-DD HH:MM:SS" wall-clock time in the envelope's own time zone (the page
 * names the zone), written the way the page's language writes dates; the wall-clock time stays as it is.
 */
export function formatRecordTime(value: string | null | undefined): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value ?? '');
  if (!parts) return value ?? '';
  const [year, month, day, hour, minute, second] = parts.slice(1).map(Number);
  const wall = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return wall.toLocaleString(formattingLocale(), { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' });
}
