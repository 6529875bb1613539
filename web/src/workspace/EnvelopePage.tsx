/**
 * /envelopes/:id, an envelope after sending: each recipient's status, the history timeline, comments, decline
 * reasons, delegation, downloads (each document, all as a zip, the certificate of completion), the evidence
 * report, and void (decline, for a recipient whose turn it is) or delete where the service allows them.
 * Power Survey parents list their recipients' child workflows with the survey's progress and the CSV export.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, saveFile } from '../shared/api.ts';
import { Skeleton } from '../shared/Skeleton.tsx';
import { envelopeText as text, roleText, shellText, statusText } from '../i18n/workspace/index.ts';
import type { PageProps } from './routes.tsx';
import { Link, navigate } from './router.tsx';
import { api, useMe } from './session-api.ts';
import type { Comment, DocumentDetail, History, Recipient, RejectionDetail, SurveyChildren } from './types.ts';
import { ConfirmDialog, ErrorNotice, formatDateTime, formatRecordTime, useTitle } from './ui.tsx';
import { DocumentPages } from './DocumentPages.tsx';
import { VoidDialog, type VoidKind } from './VoidDialog.tsx';

type Overview = { sealStatus: string; title: string | null; message: string | null };

type Envelope = {
  documents: DocumentDetail[];
  recipients: Recipient[];
  history: History;
  comments: Comment[];
  declines: RejectionDetail[];
  overview: Overview | null;
};

/** Recipient statuses after which the row has nothing more to do. */
const FINISHED = new Set(['SIGNED', 'APPROVED', 'DECLINED', 'DELEGATED', 'SKIPPED']);
const DELETABLE = new Set(['DRAFT', 'COMPLETED', 'VOID', 'APPROVED']);

async function loadEnvelope(id: number): Promise<Envelope> {
  const [documents, recipients, history, comments, declines, overview] = await Promise.all([
    api.get<DocumentDetail[]>(`/document/v1/docs-detail/${id}`),
    api.get<Recipient[]>(`/workflow/v1/${id}/recipients`),
    api.get<History>(`/workflow/v1/${id}/history`),
    api.get<Comment[]>(`/workflow/v1/${id}/comments`),
    api.get<RejectionDetail[]>(`/workflow/v1/${id}/reject-details`),
    api.get<Overview>(`/workflow/v1/${id}/signing/overview`).catch(() => null),
  ]);
  return { documents, recipients, history, comments, declines, overview };
}

export function EnvelopePage({ params }: PageProps) {
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0 && id <= 2147483647;
  const { me } = useMe();
  const [envelope, setEnvelope] = useState<Envelope | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const name = envelope?.history.metadata.workFlowName ?? envelope?.documents[0]?.name;
  useTitle(name ?? text.loading);

  const reload = useCallback(async () => {
    if (!valid) return;
    try {
      setEnvelope(await loadEnvelope(id));
      setError(null);
    } catch (failure) {
      setError(failure);
    }
  }, [id, valid]);
  useEffect(() => {
    void reload();
  }, [reload]);

  if (!valid || (error instanceof ApiError && (error.status === 404 || error.status === 400))) {
    return (
      <div className="ws-page">
        <h1>{shellText.notFoundTitle}</h1>
        <p>{text.notFound}</p>
        <p>
          <Link to="/">{text.backToDocuments}</Link>
        </p>
      </div>
    );
  }
  if (error !== null && !envelope) {
    return (
      <div className="ws-page">
        <h1>{shellText.pageFailedTitle}</h1>
        <ErrorNotice error={error}>{text.loadFailed}</ErrorNotice>
        <button type="button" className="ws-button" onClick={() => void reload()}>
          {shellText.reload}
        </button>
      </div>
    );
  }
  if (!envelope) {
    return (
      <div className="ws-page">
        <Skeleton shape="document" label={text.loading} />
      </div>
    );
  }

  const item = envelope.documents[0];
  const meta = envelope.history.metadata;
  const status = meta.status;
  const isOwner = me !== null && item !== undefined && item.ownerUserId === me.userId;
  const myRow = envelope.recipients.find((r) => item?.recipientId !== null && r.id === item?.recipientId) ?? null;
  const changed = (message: string) => {
    setNotice(message);
    void reload();
  };

  return (
    <div className="ws-page">
      <p>
        <Link to="/">{text.backToDocuments}</Link>
      </p>
      <div className="ws-page-head">
        <div>
          <h1>{meta.workFlowName}</h1>
          <p>
            <span className={`ws-status ws-status--${status}`}>{statusText[status] ?? status}</span>
            {item && <span className="ws-muted"> · {text.from(item.ownerName)}</span>}
            <span className="ws-muted"> · {text.sequence[meta.flowType] ?? meta.flowType}</span>
          </p>
          <p className="ws-muted">
            {text.created(formatRecordTime(meta.dateCreated))}
            {meta.dateSent && <> · {text.sent(formatRecordTime(meta.dateSent))}</>}
            {meta.statusDate && <> · {text.statusSince(formatRecordTime(meta.statusDate))}</>} (
            {text.timeZone(meta.timeZone)})
          </p>
          {status === 'SENT' && meta.holder && <p>{text.waitingFor(meta.holder)}</p>}
        </div>
        {isOwner && status === 'DRAFT' && (
          <Link to={`/envelopes/${id}/edit`} className="ws-button ws-button--primary">
            {text.edit}
          </Link>
        )}
      </div>
      <p role="status" className="ws-success-line">
        {notice ?? ''}
      </p>
      {error !== null && <ErrorNotice error={error}>{text.loadFailed}</ErrorNotice>}
      <div className="ws-envelope">
        <div>
          <Recipients
            envelope={envelope}
            workflowId={id}
            isOwner={isOwner}
            myRowId={myRow?.id ?? null}
            onChanged={changed}
          />
          {envelope.documents.length > 0 && !item?.isPowerSurvey && (
            <DocumentPages
              workflowId={id}
              status={status}
              documents={envelope.documents}
              recipients={envelope.recipients}
            />
          )}
          {item?.isPowerSurvey && isOwner && <SurveyChildrenCard workflowId={id} />}
          {envelope.declines.length > 0 && <Declines declines={envelope.declines} />}
          <Comments workflowId={id} comments={envelope.comments} canPost={status !== 'VOID'} onChanged={changed} />
          <Timeline history={envelope.history} />
        </div>
        <div>
          <Downloads workflowId={id} envelope={envelope} />
          <Actions
            workflowId={id}
            status={status}
            isOwner={isOwner}
            myRow={myRow}
            isSurveyChild={item?.isPowerSurveyChild ?? false}
            onChanged={changed}
          />
        </div>
      </div>
    </div>
  );
}

function Recipients({
  envelope,
  workflowId,
  isOwner,
  myRowId,
  onChanged,
}: {
  envelope: Envelope;
  workflowId: number;
  isOwner: boolean;
  myRowId: number | null;
  onChanged: (message: string) => void;
}) {
  const [delegating, setDelegating] = useState<Recipient | null>(null);
  const status = envelope.history.metadata.status;
  const canDelegate = (r: Recipient) =>
    status === 'SENT' &&
    envelope.history.metadata.flowType !== 'SELF' &&
    (r.recipientRole === 'SIGNER' || r.recipientRole === 'APPROVER') &&
    !FINISHED.has(r.status) &&
    (isOwner || r.id === myRowId);
  const ordered = [...envelope.recipients].sort(
    (a, b) => Number(a.recipientOrder ?? 0) - Number(b.recipientOrder ?? 0) || a.id - b.id,
  );
  return (
    <section className="ws-card" aria-labelledby="ws-recipients-heading">
      <h2 id="ws-recipients-heading">{text.recipientsHeading}</h2>
      <ul className="ws-list-plain">
        {ordered.map((r) => (
          <li key={r.id} className="ws-recipient">
            <span className="ws-swatch" style={{ background: r.recipientColor }} aria-hidden="true" />
            <div className="ws-recipient-main">
              <strong>{r.name}</strong> <span className="ws-muted">{r.emailAddress}</span>
              <div className="ws-muted">
                {envelope.history.metadata.flowType === 'ORDERED' && r.recipientOrder && (
                  <>{text.order(String(r.recipientOrder))} · </>
                )}
                {roleText[r.recipientRole] ?? r.recipientRole}
              </div>
            </div>
            <span className={`ws-status ws-status--${r.status}`}>{statusText[r.status] ?? r.status}</span>
            {canDelegate(r) && (
              <button
                type="button"
                className="ws-button ws-button--small"
                aria-label={text.delegateLabel(r.name)}
                onClick={() => setDelegating(r)}
              >
                {text.delegate}
              </button>
            )}
          </li>
        ))}
      </ul>
      {envelope.recipients.some((r) => r.status === 'DELEGATED') && <p className="ws-muted">{text.delegationsNote}</p>}
      <DelegateDialog
        workflowId={workflowId}
        recipient={delegating}
        onClose={() => setDelegating(null)}
        onDone={(message) => {
          setDelegating(null);
          onChanged(message);
        }}
      />
    </section>
  );
}

function DelegateDialog({
  workflowId,
  recipient,
  onClose,
  onDone,
}: {
  workflowId: number;
  recipient: Recipient | null;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const id = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  // A layout effect, as FolderDialog's: the cleared fields are rendered before the dialog is painted, so a second
  // delegation never shows the previous one's name, address or error for a moment.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (recipient && !element.open) {
      opener.current = document.activeElement;
      setName('');
      setEmail('');
      setError(null);
      element.showModal();
    } else if (!recipient && element.open) {
      element.close();
      if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
    }
  }, [recipient]);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!recipient) return;
    setBusy(true);
    setError(null);
    try {
      const created = await api.post<Recipient>(`/workflow/v1/${workflowId}/recipients/${recipient.id}/delegate`, {
        name: name.trim(),
        emailAddress: email.trim(),
      });
      onDone(text.delegated(recipient.name, created.name));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <dialog
      ref={dialog}
      className="ws-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
    >
      <h2 id={`${id}-title`}>{recipient ? text.delegateTitle(recipient.name) : text.delegate}</h2>
      <p>{text.delegateText}</p>
      <form className="ws-form" onSubmit={submit}>
        <label htmlFor={`${id}-name`}>{text.delegateName}</label>
        <input
          id={`${id}-name`}
          type="text"
          autoComplete="off"
          required
          value={name}
          onChange={(event) => setName(event.target.value)}
        />
        <label htmlFor={`${id}-email`}>{text.delegateEmail}</label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
        {error !== null && <ErrorNotice error={error} />}
        <div className="ws-actions">
          <button type="button" className="ws-button" onClick={onClose} disabled={busy}>
            {text.cancel}
          </button>
          <button type="submit" className="ws-button ws-button--primary" disabled={busy}>
            {text.delegateSubmit}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function Declines({ declines }: { declines: RejectionDetail[] }) {
  return (
    <section className="ws-card" aria-labelledby="ws-declines-heading">
      <h2 id="ws-declines-heading">{text.declinesHeading}</h2>
      <ul className="ws-list-plain">
        {declines.map((d) => (
          <li key={`${d.recipientId}-${d.rejectedAt}`}>
            <p className="ws-muted">
              {text.declinedBy(d.name, roleText[d.role] ?? d.role, formatDateTime(d.rejectedAt))}
            </p>
            <blockquote className="ws-quote">{d.reason}</blockquote>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Comments({
  workflowId,
  comments,
  canPost,
  onChanged,
}: {
  workflowId: number;
  comments: Comment[];
  canPost: boolean;
  onChanged: (message: string) => void;
}) {
  const id = useId();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!body.trim()) return setError(text.commentEmpty);
    setBusy(true);
    setError(null);
    try {
      await api.post(`/workflow/v1/${workflowId}/comments`, { body: body.trim() });
      setBody('');
      onChanged('');
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="ws-card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{text.commentsHeading}</h2>
      {comments.length === 0 ? (
        <p className="ws-muted">{text.noComments}</p>
      ) : (
        <ul className="ws-list-plain">
          {comments.map((c) => (
            <li key={c.id}>
              <p className="ws-muted">{text.commentBy(c.authorName, formatDateTime(c.createdAt))}</p>
              <p className="ws-comment-body">{c.body}</p>
            </li>
          ))}
        </ul>
      )}
      {canPost && (
        <form className="ws-form" onSubmit={submit} noValidate>
          <label htmlFor={`${id}-body`}>{text.commentLabel}</label>
          <textarea
            id={`${id}-body`}
            rows={3}
            maxLength={3000}
            value={body}
            aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
            aria-invalid={error ? true : undefined}
            onChange={(event) => setBody(event.target.value)}
          />
          <p id={`${id}-hint`} className="hint">
            {text.commentHint}
          </p>
          {error && (
            <p id={`${id}-error`} className="ws-field-error" role="alert">
              {error}
            </p>
          )}
          <div className="ws-actions">
            <button type="submit" className="ws-button" disabled={busy}>
              {text.commentSubmit}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

function Timeline({ history }: { history: History }) {
  return (
    <section className="ws-card" aria-labelledby="ws-history-heading">
      <h2 id="ws-history-heading">{text.historyHeading}</h2>
      <p className="ws-muted">{text.timeZone(history.metadata.timeZone)}</p>
      {history.activities.length === 0 ? (
        <p className="ws-muted">{text.noHistory}</p>
      ) : (
        <ol className="ws-timeline">
          {history.activities.map((a, index) => (
            <li key={index}>
              <strong>{a.action}</strong> <time className="ws-muted">{formatRecordTime(a.time)}</time>
              <div>{a.activity}</div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Downloads({ workflowId, envelope }: { workflowId: number; envelope: Envelope }) {
  const [state, setState] = useState<{ busy: boolean; message: string | null; error: unknown }>({
    busy: false,
    message: null,
    error: null,
  });
  const status = envelope.history.metadata.status;
  const completed = status === 'COMPLETED';
  async function download(query: string) {
    setState({ busy: true, message: text.downloading, error: null });
    try {
      const file = await api.download(`/document/v1/download/${workflowId}?${query}`);
      saveFile(file.blob, file.filename);
      setState({ busy: false, message: text.downloaded(file.filename), error: null });
    } catch (failure) {
      setState({ busy: false, message: null, error: failure });
    }
  }
  return (
    <section className="ws-card" aria-labelledby="ws-downloads-heading">
      <h2 id="ws-downloads-heading">{text.downloadsHeading}</h2>
      {completed && envelope.overview?.sealStatus === 'PENDING' && <p className="ws-muted">{text.sealPending}</p>}
      <ul className="ws-list-plain">
        {envelope.documents.map((d) => (
          <li key={d.id}>
            <button
              type="button"
              className="ws-link-button"
              disabled={state.busy}
              onClick={() => download(`selectedOption=downloadDocument&documentId=${d.id}`)}
            >
              {text.downloadDocument(d.documentName)}
            </button>
          </li>
        ))}
        <li>
          <button
            type="button"
            className="ws-link-button"
            disabled={state.busy}
            onClick={() => download('selectedOption=downloadAll')}
          >
            {text.downloadAll}
          </button>
        </li>
        {completed && (
          <>
            <li>
              <button
                type="button"
                className="ws-link-button"
                disabled={state.busy}
                onClick={() => download('selectedOption=downloadCoc')}
              >
                {text.downloadCertificate}
              </button>
            </li>
            <li>
              {/* A plain link: the report is an HTML page the session cookie opens, in its own tab. */}
              <a href={`/workflow/v1/evidence-report/${workflowId}`} target="_blank" rel="noopener">
                {text.evidenceReport} <span className="ws-muted">{text.evidenceReportHint}</span>
              </a>
            </li>
          </>
        )}
      </ul>
      <p role="status" className="ws-muted">
        {state.message ?? ''}
      </p>
      {state.error !== null && <ErrorNotice error={state.error} />}
    </section>
  );
}

function Actions({
  workflowId,
  status,
  isOwner,
  myRow,
  isSurveyChild,
  onChanged,
}: {
  workflowId: number;
  status: string;
  isOwner: boolean;
  myRow: Recipient | null;
  isSurveyChild: boolean;
  onChanged: (message: string) => void;
}) {
  const id = useId();
  // 'decline': a recipient whose turn it is declines, which voids it; 'cancel': the owner voids it.
  const [dialog, setDialog] = useState<VoidKind | 'delete' | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const canVoid =
    status === 'SENT' &&
    myRow !== null &&
    (myRow.recipientRole === 'SIGNER' || myRow.recipientRole === 'APPROVER') &&
    (myRow.status === 'SENT' || myRow.status === 'VIEWED');
  const canCancel = isOwner && status === 'SENT';
  const canDelete = isOwner && DELETABLE.has(status) && !isSurveyChild;
  if (!canVoid && !canDelete && !canCancel) return null;

  function openReasonDialog(kind: VoidKind) {
    setError(null);
    setDialog(kind);
  }
  async function deleteIt() {
    setBusy(true);
    setError(null);
    try {
      await api.delete(`/document/v1/${workflowId}`);
      setDialog(null);
      navigate('/');
    } catch (failure) {
      setError(failure);
      setDialog(null);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="ws-card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{text.actionsHeading}</h2>
      <div className="ws-actions">
        {canCancel && (
          <button type="button" className="ws-button ws-button--danger" onClick={() => openReasonDialog('cancel')}>
            {text.cancelEnvelope}
          </button>
        )}
        {canVoid && (
          <button type="button" className="ws-button ws-button--danger" onClick={() => openReasonDialog('decline')}>
            {text.void}
          </button>
        )}
        {canDelete && (
          <button type="button" className="ws-button ws-button--danger" onClick={() => setDialog('delete')}>
            {text.delete}
          </button>
        )}
      </div>
      {error !== null && <ErrorNotice error={error} />}
      <VoidDialog
        workflowId={workflowId}
        kind={dialog === 'delete' ? null : dialog}
        onClose={() => setDialog(null)}
        onDone={onChanged}
        onFailed={setError}
      />
      <ConfirmDialog
        open={dialog === 'delete'}
        title={text.deleteTitle}
        confirmLabel={text.delete}
        cancelLabel={text.cancel}
        danger
        busy={busy}
        onConfirm={deleteIt}
        onCancel={() => setDialog(null)}
      >
        <p>{text.deleteText}</p>
      </ConfirmDialog>
    </section>
  );
}

function SurveyChildrenCard({ workflowId }: { workflowId: number }) {
  const [page, setPage] = useState(0);
  const [data, setData] = useState<SurveyChildren | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const size = 20;
  useEffect(() => {
    let live = true;
    api.get<SurveyChildren>(`/document/v1/power-survey/${workflowId}/workflows?page=${page}&size=${size}`).then(
      (d) => live && setData(d),
      (e: unknown) => live && setError(e),
    );
    api.get<{ totalRecipients: number }>(`/document/v1/power-survey/${workflowId}/dispatch-progress`).then(
      (p) => live && setTotal(p.totalRecipients),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [workflowId, page]);
  async function exportCsv(includeFields: boolean) {
    setBusy(true);
    setError(null);
    try {
      const file = await api.download(
        `/document/v1/power-survey/${workflowId}/export.csv?includeFields=${includeFields}`,
      );
      saveFile(file.blob, file.filename === 'download' ? `survey-${workflowId}.csv` : file.filename);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  const pages = data ? Math.max(1, Math.ceil(data.totalElements / size)) : 1;
  return (
    <section className="ws-card" aria-labelledby="ws-survey-heading">
      <h2 id="ws-survey-heading">{text.surveyHeading}</h2>
      {data && (
        <>
          <p>{text.surveySummary(data.respondedCount, data.completedCount, total ?? data.dispatchedCount)}</p>
          <progress
            max={Math.max(1, total ?? data.dispatchedCount)}
            value={data.respondedCount}
            aria-label={text.surveySummary(data.respondedCount, data.completedCount, total ?? data.dispatchedCount)}
          />
          <div className="ws-table-wrap">
            <table className="ws-table ws-table--list">
              <caption>{text.surveyCaption}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.surveyColumns.name}</th>
                  <th scope="col">{text.surveyColumns.email}</th>
                  <th scope="col">{text.surveyColumns.status}</th>
                </tr>
              </thead>
              <tbody>
                {data.content.map((child) => (
                  <tr key={child.workflowId}>
                    <td>
                      <Link to={`/envelopes/${child.workflowId}`}>{child.recipientName}</Link>
                    </td>
                    <td>{child.recipientEmail}</td>
                    <td>
                      <span className={`ws-status ws-status--${child.status}`}>
                        {statusText[child.status] ?? child.status}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 && (
            <nav aria-label={text.surveyPages} className="ws-pager">
              {page > 0 && (
                <button type="button" className="ws-button ws-button--small" onClick={() => setPage(page - 1)}>
                  {text.previous}
                </button>
              )}
              <span>{text.pageOf(page + 1, pages)}</span>
              {page + 1 < pages && (
                <button type="button" className="ws-button ws-button--small" onClick={() => setPage(page + 1)}>
                  {text.next}
                </button>
              )}
            </nav>
          )}
        </>
      )}
      <div className="ws-actions">
        <button type="button" className="ws-button ws-button--small" disabled={busy} onClick={() => exportCsv(false)}>
          {text.exportCsv}
        </button>
        <button type="button" className="ws-button ws-button--small" disabled={busy} onClick={() => exportCsv(true)}>
          {text.exportCsvFields}
        </button>
      </div>
      {error !== null && <ErrorNotice error={error} />}
    </section>
  );
}
