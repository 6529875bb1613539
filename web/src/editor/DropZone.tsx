/**
 * Where documents come in: dropped from the desktop or chosen with the file picker (the button is the keyboard
 * and screen-reader way; dropping is a shortcut). Shows the upload's progress and, beside it, why a file was refused.
 */
import { useId, useRef, useState, type DragEvent } from 'react';
import { editorText as text } from '../i18n/editor/index.ts';

export type UploadProgress = { name: string; position: number; total: number; fraction: number };

type Props = {
  heading: string;
  /** Its heading's level: 2 on a page of its own, deeper inside a section. */
  level?: 2 | 3 | 4;
  hint: string;
  buttonLabel: string;
  accept: string;
  multiple: boolean;
  progress: UploadProgress | null;
  error: string | null;
  onFiles(files: File[]): void;
};

export function DropZone({ heading, level = 2, hint, buttonLabel, accept, multiple, progress, error, onFiles }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const headingId = useId();
  const hintId = useId();
  const errorId = useId();
  const busy = progress !== null;
  const Heading = `h${level}` as 'h2';

  function drop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setOver(false);
    if (busy) return;
    const files = [...(event.dataTransfer?.files ?? [])];
    if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
  }

  return (
    <section
      className={`ed-dropzone${over ? ' ed-dropzone--over' : ''}`}
      aria-labelledby={headingId}
      onDragEnter={(event) => {
        event.preventDefault();
        if (!busy) setOver(true);
      }}
      onDragOver={(event) => {
        event.preventDefault();
        if (event.dataTransfer) event.dataTransfer.dropEffect = busy ? 'none' : 'copy';
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={drop}
    >
      <Heading id={headingId} className="ed-dropzone-heading">
        {heading}
      </Heading>
      <p id={hintId} className="ed-dropzone-hint">
        {over ? text.dropActive : hint}
      </p>
      <button
        type="button"
        className="ws-button ws-button--primary"
        onClick={() => input.current?.click()}
        disabled={busy}
        aria-describedby={[hintId, error ? errorId : ''].filter(Boolean).join(' ')}
      >
        {buttonLabel}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple={multiple}
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length > 0) onFiles(files);
        }}
      />
      {progress && <Progress progress={progress} />}
      {error && (
        <p id={errorId} className="ws-field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** The progress of one file: sent bytes, then the wait while the service checks (and converts) it. */
export function Progress({ progress }: { progress: UploadProgress }) {
  const id = useId();
  const sent = progress.fraction >= 1;
  const percent = Math.round(progress.fraction * 100);
  return (
    <div className="ed-progress" role="status">
      <span id={id}>
        {sent ? text.converting(progress.name) : text.uploading(progress.name, progress.position, progress.total)}
      </span>
      <progress
        aria-labelledby={id}
        max={100}
        value={sent ? undefined : percent}
        aria-valuetext={sent ? undefined : `${percent}%`}
      />
    </div>
  );
}

export const DOCUMENT_TYPES =
  '.pdf,.doc,.docx,application/pdf,application/msword,application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;
