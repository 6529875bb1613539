/** The envelope's documents: their order, replacing or removing one while DRAFT, and adding more. */
import { useRef, useState } from 'react';
import { ConfirmDialog } from '../workspace/ui.tsx';
import { forgetPdf, documentUrl } from '../signing/pdf.ts';
import { errorText, removeDocument, reorderDocuments, replaceDocument } from './editor-api.ts';
import { DOCUMENT_TYPES, DropZone, Progress, type UploadProgress } from './DropZone.tsx';
import { editorText as text } from '../i18n/editor/index.ts';
import type { SaveTracker } from './saving.ts';
import type { EnvelopeDocument } from './types.ts';
import { useUploader } from './upload.ts';

type Props = {
  workflowId: number;
  documents: EnvelopeDocument[];
  tracker: SaveTracker;
  /** Reads the documents (and the fields, which a removal takes along) again. */
  onChanged(): Promise<void>;
  onDocuments(documents: EnvelopeDocument[]): void;
  announce(message: string): void;
};

export function DocumentsPanel({ workflowId, documents, tracker, onChanged, onDocuments, announce }: Props) {
  const uploader = useUploader();
  const [rowError, setRowError] = useState<{ id: number; text: string } | null>(null);
  const [replacing, setReplacing] = useState<{ id: number; progress: UploadProgress } | null>(null);
  const [removing, setRemoving] = useState<EnvelopeDocument | null>(null);
  const [busy, setBusy] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const replaceTarget = useRef<EnvelopeDocument | null>(null);
  const buttons = useRef(new Map<string, HTMLButtonElement>());

  async function move(index: number, delta: -1 | 1) {
    const order = documents.map((d) => d.id);
    const [moved] = order.splice(index, 1);
    order.splice(index + delta, 0, moved);
    setRowError(null);
    try {
      onDocuments(await tracker.track(reorderDocuments(workflowId, order)));
      announce(text.documentOrderSaved);
      // The focus stays with the moved document's button in its new place (or the other one at an end).
      window.setTimeout(() => {
        const again = buttons.current.get(`${moved}:${delta}`) ?? buttons.current.get(`${moved}:${-delta}`);
        if (again && !again.disabled) again.focus();
        else buttons.current.get(`${moved}:${-delta}`)?.focus();
      }, 0);
    } catch (error) {
      setRowError({ id: moved, text: errorText(error) });
    }
  }

  async function replace(doc: EnvelopeDocument, file: File) {
    setRowError(null);
    setReplacing({ id: doc.id, progress: { name: file.name, position: 1, total: 1, fraction: 0 } });
    try {
      await tracker.track(
        replaceDocument(doc.id, file, (fraction) =>
          setReplacing({ id: doc.id, progress: { name: file.name, position: 1, total: 1, fraction } }),
        ),
      );
      forgetPdf(documentUrl(workflowId, doc.id));
      await onChanged();
      announce(text.documentReplaced(doc.documentName));
    } catch (error) {
      setRowError({ id: doc.id, text: errorText(error) });
    } finally {
      setReplacing(null);
    }
  }

  async function confirmRemove() {
    if (!removing) return;
    setBusy(true);
    try {
      await tracker.track(removeDocument(removing.id));
      forgetPdf(documentUrl(workflowId, removing.id));
      setRemoving(null);
      await onChanged();
    } catch (error) {
      setRowError({ id: removing.id, text: errorText(error) });
      setRemoving(null);
    } finally {
      setBusy(false);
    }
  }

  async function add(files: File[]) {
    const outcome = await uploader.upload(files, { workflowId });
    if (outcome.uploaded > 0) await onChanged();
  }

  return (
    <section className="ws-card ed-documents" aria-labelledby="ed-documents-heading">
      <h3 id="ed-documents-heading">{text.documentsHeading}</h3>
      <ol className="ed-list">
        {documents.map((doc, index) => (
          <li key={doc.id} className="ed-document">
            <div className="ed-document-name">
              <strong>{doc.documentName}</strong>
              <span className="ws-muted"> · {text.documentPages(doc.pages)}</span>
            </div>
            <div className="ed-row-actions">
              {documents.length > 1 && (
                <>
                  <button
                    type="button"
                    className="ws-button ws-button--small"
                    disabled={index === 0}
                    ref={(el) => {
                      if (el) buttons.current.set(`${doc.id}:-1`, el);
                    }}
                    onClick={() => void move(index, -1)}
                    aria-label={text.documentMoveUp(doc.documentName)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="ws-button ws-button--small"
                    disabled={index === documents.length - 1}
                    ref={(el) => {
                      if (el) buttons.current.set(`${doc.id}:1`, el);
                    }}
                    onClick={() => void move(index, 1)}
                    aria-label={text.documentMoveDown(doc.documentName)}
                  >
                    ↓
                  </button>
                </>
              )}
              <button
                type="button"
                className="ws-button ws-button--small"
                disabled={replacing !== null}
                onClick={() => {
                  replaceTarget.current = doc;
                  picker.current?.click();
                }}
                aria-describedby="ed-replace-hint"
              >
                {text.documentReplace(doc.documentName)}
              </button>
              {documents.length > 1 && (
                <button
                  type="button"
                  className="ws-button ws-button--small ws-button--quiet"
                  onClick={() => setRemoving(doc)}
                >
                  {text.documentRemove(doc.documentName)}
                </button>
              )}
            </div>
            {replacing?.id === doc.id && <Progress progress={replacing.progress} />}
            {rowError?.id === doc.id && (
              <p className="ws-field-error" role="alert">
                {rowError.text}
              </p>
            )}
          </li>
        ))}
      </ol>
      <p id="ed-replace-hint" className="hint">
        {text.documentReplaceHint}
      </p>
      <input
        ref={picker}
        type="file"
        accept=".pdf,application/pdf"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file && replaceTarget.current) void replace(replaceTarget.current, file);
        }}
      />
      <DropZone
        heading={text.chooseMoreFiles}
        level={4}
        hint={text.dropHintMore}
        buttonLabel={text.chooseMoreFiles}
        accept={DOCUMENT_TYPES}
        multiple
        progress={uploader.progress}
        error={uploader.error}
        onFiles={(files) => void add(files)}
      />
      <ConfirmDialog
        open={removing !== null}
        title={text.documentRemoveTitle}
        confirmLabel={text.remove}
        cancelLabel={text.cancel}
        danger
        busy={busy}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      >
        <p>{removing ? text.documentRemoveText(removing.documentName) : ''}</p>
      </ConfirmDialog>
    </section>
  );
}
