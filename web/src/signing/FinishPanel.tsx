import { useId, useRef, useState } from 'react';
import { t } from '../i18n/signing/index.ts';
import { ApiError, type Api, type GuestSession } from '../shared/api.ts';
import { isFilled, mustFill, saveEntry } from './field-rules.ts';
import type { CeremonyResult, DocumentItem, Draft, Field, Recipient } from './types.ts';
import { isPersonName } from '../shared/person-name.ts';

export type Outcome =
  | { kind: 'signed' }
  | { kind: 'approved' }
  | { kind: 'declined' }
  | { kind: 'delegated'; name: string; email: string };

type Props = {
  api: Api;
  session: GuestSession;
  me: Recipient;
  walk: Field[];
  drafts: Record<number, Draft>;
  /** Consent given and identity confirmed: finishing is possible. */
  ready: boolean;
  remaining: number;
  documents: DocumentItem[];
  onFinished(outcome: Outcome, result?: CeremonyResult): void;
  onIdentityLost(): void;
  onSaveErrors(errors: Record<number, string>): void;
  /** The service refused the signing password (wrong, too short, locked): the page returns to that field with `message`. */
  onSigningPasswordRejected?(message: string): void;
  reload(): Promise<void>;
};

/** The inline message for a refused signing password, or null when the failure is about something else. */
function signingPasswordProblem(failure: unknown): string | null {
  if (!(failure instanceof ApiError)) return null;
  if (failure.code === 'SIGNING_PASSWORD_INVALID') {
    const attemptsLeft = (failure.responseBody as { attemptsLeft?: unknown } | undefined)?.attemptsLeft;
    return t.signingPasswordWrong(typeof attemptsLeft === 'number' ? attemptsLeft : null);
  }
  if (failure.code === 'ACCOUNT_TEMPORARILY_LOCKED') return t.signingPasswordLocked;
  if (failure.code === 'SIGNING_PASSWORD_TOO_SHORT' || failure.code === 'SIGNING_PASSWORD_REQUIRED')
    return failure.message;
  return null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Sign or approve, and the two ways out: decline with a reason, or hand the task to someone else. */
export function FinishPanel(props: Props) {
  const { api, session, me, walk, drafts, ready, remaining } = props;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [comment, setComment] = useState('');
  const declineRef = useRef<HTMLDialogElement>(null);
  const delegateRef = useRef<HTMLDialogElement>(null);
  const errorId = useId();
  const approver = me.recipientRole === 'APPROVER';

  const fail = (failure: unknown) => {
    if (failure instanceof ApiError && failure.code === 'IDENTITY_NOT_VERIFIED') {
      props.onIdentityLost();
      return;
    }
    setError(failure instanceof ApiError ? failure.message : t.genericErrorText);
  };

  const finish = async () => {
    setError(null);
    setBusy(true);
    try {
      // Every value the signer left, and for optional fields also the ones cleared or skipped (null clears a saved value).
      const entries = walk
        .filter((f) => drafts[f.id] && (isFilled(f, drafts[f.id].value) || !mustFill(f)))
        .map((f) => saveEntry(f, drafts[f.id]));
      const documentId = props.documents[0].id;
      // One save with every value: the service checks them all and, for a signer, finishes in the same call.
      let result = await api.post<CeremonyResult>(`/workflow/v1/${documentId}/fields/save`, entries);
      if (approver)
        result = await api.post<CeremonyResult>(`/workflow/v1/${session.workflowId}/approve`, {
          comment: comment.trim() || null,
        });
      if (result.recipientStatus === 'SIGNED' || result.recipientStatus === 'APPROVED') {
        props.onFinished({ kind: approver ? 'approved' : 'signed' }, result);
      } else {
        setError(t.finishBlocked(Math.max(1, remaining)));
      }
    } catch (failure) {
      const passwordProblem = signingPasswordProblem(failure);
      if (passwordProblem) {
        // Announced here and shown again at the password field, where the signer corrects it.
        setError(passwordProblem);
        props.onSigningPasswordRejected?.(passwordProblem);
        return;
      }
      if (
        failure instanceof ApiError &&
        (failure.code === 'INVALID_FIELD_VALUE' ||
          failure.code === 'REQUIRED_FIELD_EMPTY' ||
          failure.code === 'SIGNED_FIELD_LOCKED')
      ) {
        const match = /Field (\d+)/.exec(failure.message);
        if (match) props.onSaveErrors({ [Number(match[1])]: failure.message });
      }
      fail(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="finish" aria-labelledby="finish-heading">
      <h2 id="finish-heading" tabIndex={-1} className="visually-hidden">
        {t.finishHeading}
      </h2>
      {ready && approver && (
        <label className="stacked" htmlFor="approve-comment">
          {t.approveCommentLabel}
          <textarea
            id="approve-comment"
            rows={2}
            maxLength={3000}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
        </label>
      )}
      <div className="finish-buttons">
        {ready && (
          <button
            type="button"
            className="primary finish-button"
            disabled={busy || remaining > 0}
            aria-describedby={remaining > 0 ? errorId : undefined}
            onClick={finish}
          >
            {approver ? t.finishApprove : t.finishSign}
          </button>
        )}
        <button type="button" id="open-decline" className="secondary" onClick={() => declineRef.current?.showModal()}>
          {t.decline}
        </button>
        <button type="button" className="secondary" onClick={() => delegateRef.current?.showModal()}>
          {t.delegate}
        </button>
      </div>
      {ready && remaining > 0 && (
        <p className="hint" id={errorId}>
          {t.finishBlocked(remaining)}
        </p>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <DeclineDialog
        dialogRef={declineRef}
        api={api}
        session={session}
        onDone={() => props.onFinished({ kind: 'declined' })}
        onIdentityLost={props.onIdentityLost}
      />
      <DelegateDialog
        dialogRef={delegateRef}
        api={api}
        session={session}
        onDone={(name, email) => props.onFinished({ kind: 'delegated', name, email })}
        onIdentityLost={props.onIdentityLost}
      />
    </section>
  );
}

type DialogProps = {
  dialogRef: React.RefObject<HTMLDialogElement | null>;
  api: Api;
  session: GuestSession;
  onIdentityLost(): void;
};

function DeclineDialog({ dialogRef, api, session, onDone, onIdentityLost }: DialogProps & { onDone(): void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  return (
    <dialog ref={dialogRef} aria-labelledby="decline-heading" className="dialog">
      <form
        method="dialog"
        onSubmit={async (event) => {
          event.preventDefault();
          if (!reason.trim()) return setError(t.declineReasonMissing);
          setBusy(true);
          try {
            await api.post(`/workflow/v1/${session.workflowId}/decline`, { reason: reason.trim() });
            dialogRef.current?.close();
            onDone();
          } catch (failure) {
            if (failure instanceof ApiError && failure.code === 'IDENTITY_NOT_VERIFIED') {
              dialogRef.current?.close();
              onIdentityLost();
              return;
            }
            setError(failure instanceof ApiError ? failure.message : t.genericErrorText);
          } finally {
            setBusy(false);
          }
        }}
      >
        <h2 id="decline-heading">{t.declineHeading}</h2>
        <label className="stacked" htmlFor="decline-reason">
          {t.declineReasonLabel}
        </label>
        <textarea
          id="decline-reason"
          rows={4}
          maxLength={1000}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {error && (
          <p className="error" id={errorId} role="alert">
            {error}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="danger" disabled={busy}>
            {t.declineConfirm}
          </button>
          <button type="button" className="secondary" onClick={() => dialogRef.current?.close()}>
            {t.cancel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

function DelegateDialog({
  dialogRef,
  api,
  session,
  onDone,
  onIdentityLost,
}: DialogProps & { onDone(name: string, email: string): void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ name?: string; email?: string; other?: string }>({});
  const [busy, setBusy] = useState(false);
  return (
    <dialog ref={dialogRef} aria-labelledby="delegate-heading" className="dialog">
      <form
        method="dialog"
        noValidate
        onSubmit={async (event) => {
          event.preventDefault();
          const found: typeof errors = {};
          const trimmed = name.trim().replace(/\s+/g, ' ');
          if (trimmed.length < 2 || trimmed.length > 50 || !isPersonName(trimmed.normalize('NFC')))
            found.name = t.delegateNameInvalid;
          if (!EMAIL.test(email.trim())) found.email = t.delegateEmailInvalid;
          setErrors(found);
          if (found.name || found.email) return;
          setBusy(true);
          try {
            await api.post(`/workflow/v1/${session.workflowId}/recipients/${session.recipientId}/delegate`, {
              name: trimmed,
              emailAddress: email.trim(),
            });
            dialogRef.current?.close();
            onDone(trimmed, email.trim());
          } catch (failure) {
            if (failure instanceof ApiError && failure.code === 'IDENTITY_NOT_VERIFIED') {
              dialogRef.current?.close();
              onIdentityLost();
              return;
            }
            if (failure instanceof ApiError && failure.code === 'RECIPIENT_NAME_INVALID')
              setErrors({ name: t.delegateNameInvalid });
            else setErrors({ other: failure instanceof ApiError ? failure.message : t.genericErrorText });
          } finally {
            setBusy(false);
          }
        }}
      >
        <h2 id="delegate-heading">{t.delegateHeading}</h2>
        <p>{t.delegateIntro}</p>
        <label className="stacked" htmlFor="delegate-name">
          {t.delegateName}
        </label>
        <input
          id="delegate-name"
          type="text"
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? 'delegate-name-error' : undefined}
        />
        {errors.name && (
          <p className="error" id="delegate-name-error" role="alert">
            {errors.name}
          </p>
        )}
        <label className="stacked" htmlFor="delegate-email">
          {t.delegateEmail}
        </label>
        <input
          id="delegate-email"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? 'delegate-email-error' : undefined}
        />
        {errors.email && (
          <p className="error" id="delegate-email-error" role="alert">
            {errors.email}
          </p>
        )}
        {errors.other && (
          <p className="error" role="alert">
            {errors.other}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={busy}>
            {t.delegateConfirm}
          </button>
          <button type="button" className="secondary" onClick={() => dialogRef.current?.close()}>
            {t.cancel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
