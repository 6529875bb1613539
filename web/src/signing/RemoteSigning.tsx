import { useEffect, useId, useState } from 'react';
import { t } from '../i18n/signing/index.ts';
import { ApiError, type Api } from '../shared/api.ts';
import { CSC_RESULT_KEY, CSC_RETURN_KEY } from './CscCallback.tsx';
import type { CeremonyResult, Field } from './types.ts';

/** What the page keeps, in this tab, about the remote signature it sent the signer off to authorize. */
export const CSC_PENDING_KEY = 'csc:pending';

type Pending = {
  workflowId: number;
  recipientId: number;
  fieldId: number;
  hash: string;
  credentialID: string;
  qualifier: string;
  state: string | null;
};
type Key = {
  credentialID: string;
  description: string | null;
  keyAlgorithm: string;
  certificate: { subject: string; issuer: string; notBefore: string; notAfter: string };
  qualifiers: string[];
};
type Usable = { key: Key; qualifier: string };
type Prepared = { hash: string; credentialID: string; authorizeUrl: string };

type State = { kind: 'loading' } | { kind: 'off' } | { kind: 'unavailable' } | { kind: 'ready'; usable: Usable[] };

function readJson<T>(key: string): T | null {
  try {
    const raw = sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

/** The certificate's common name, for the list (the subject as a whole when it has none). */
function commonName(subject: string): string {
  return /(?:^|,\s*)CN=([^,]+)/.exec(subject)?.[1] ?? subject;
}

/**
 * "Sign with your remote signing provider" for a DIGITAL_SIGNATURE field, shown when the service has a CSC provider
 * (GET /workflow/v1/list/user/keys answers; 400 CSC_NOT_CONFIGURED hides it). Lists the signer's certificates that
 * make a kind of signature the plan offers, prepares the signature (POST .../sign/csc), remembers in this tab where
 * to come back to and what was prepared, and sends the browser to the provider's authorization page. The provider
 * returns through /csc/callback, which hands the code to CscReturn below.
 */
export function RemoteSigning({
  api,
  workflowId,
  recipientId,
  field,
}: {
  api: Api;
  workflowId: number;
  recipientId: number;
  field: Field;
}) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [choice, setChoice] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const headingId = useId();
  const selectId = useId();
  const errorId = useId();

  useEffect(() => {
    let live = true;
    Promise.all([
      api.get<Key[]>('/workflow/v1/list/user/keys?connectorName=CSC_2'),
      api.get<{ qualifiers: string[] }>('/workflow/v1/service-plan-qualifier'),
    ]).then(
      ([keys, plan]) => {
        // Each credential makes one kind of signature; only those the plan offers can be used here.
        const usable = keys.flatMap((key) => {
          const qualifier = key.qualifiers.find((q) => plan.qualifiers.includes(q));
          return qualifier ? [{ key, qualifier }] : [];
        });
        if (!live) return;
        setState({ kind: 'ready', usable });
        setChoice(usable[0]?.key.credentialID ?? '');
      },
      (failure) => {
        if (live)
          setState(
            failure instanceof ApiError && failure.code === 'CSC_NOT_CONFIGURED'
              ? { kind: 'off' }
              : { kind: 'unavailable' },
          );
      },
    );
    return () => {
      live = false;
    };
  }, [api]);

  if (state.kind === 'off') return null;

  const start = async () => {
    if (state.kind !== 'ready') return;
    const chosen = state.usable.find((u) => u.key.credentialID === choice);
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      const prepared = await api.post<Prepared>(`/workflow/v1/${workflowId}/sign/csc`, {
        id: field.id,
        connectorName: 'CSC_2',
        qualifier: chosen.qualifier,
        credentialID: chosen.key.credentialID,
      });
      const pending: Pending = {
        workflowId,
        recipientId,
        fieldId: field.id,
        hash: prepared.hash,
        credentialID: prepared.credentialID,
        qualifier: chosen.qualifier,
        state: new URL(prepared.authorizeUrl).searchParams.get('state'),
      };
      sessionStorage.setItem(CSC_RETURN_KEY, window.location.pathname);
      sessionStorage.setItem(CSC_PENDING_KEY, JSON.stringify(pending));
      sessionStorage.removeItem(CSC_RESULT_KEY);
      window.location.assign(prepared.authorizeUrl);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : t.cscUnavailable);
      setBusy(false);
    }
  };

  return (
    <section className="remote-signing" aria-labelledby={headingId}>
      <h3 id={headingId}>{t.cscHeading}</h3>
      <p className="hint">{t.cscIntro}</p>
      {state.kind === 'loading' && <p role="status">{t.cscLoading}</p>}
      {state.kind === 'unavailable' && (
        <p className="error" role="alert">
          {t.cscUnavailable}
        </p>
      )}
      {state.kind === 'ready' && state.usable.length === 0 && <p className="hint">{t.cscNoCredentials}</p>}
      {state.kind === 'ready' && state.usable.length > 0 && (
        <>
          <label className="stacked" htmlFor={selectId}>
            {t.cscCredentialLabel}
          </label>
          <select id={selectId} value={choice} onChange={(e) => setChoice(e.target.value)} disabled={busy}>
            {state.usable.map(({ key, qualifier }) => (
              <option key={key.credentialID} value={key.credentialID}>
                {t.cscCredentialOption(
                  key.description ?? commonName(key.certificate.subject),
                  t.cscQualifier[qualifier] ?? qualifier,
                )}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="primary"
            disabled={busy}
            aria-describedby={error ? errorId : undefined}
            onClick={() => void start()}
          >
            {t.cscSignButton}
          </button>
          {busy && !error && <p role="status">{t.cscRedirecting}</p>}
        </>
      )}
      {error && (
        <p className="error" id={errorId} role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/**
 * Back from the provider (through /csc/callback): when this tab sent this recipient off to authorize a remote
 * signature and the provider's answer carries the same state, completes it (POST .../signature/csc) and reports the
 * field save's answer; a refusal or failure is shown, and nothing was signed.
 */
export function CscReturn({
  api,
  workflowId,
  recipientId,
  onSigned,
}: {
  api: Api;
  workflowId: number;
  recipientId: number;
  onSigned(result: CeremonyResult): void;
}) {
  const [status, setStatus] = useState<{ kind: 'working' } | { kind: 'failed'; message: string } | null>(null);

  useEffect(() => {
    const pending = readJson<Pending>(CSC_PENDING_KEY);
    const result = readJson<{ code: string | null; state: string | null; error: string | null }>(CSC_RESULT_KEY);
    if (!pending || !result || pending.workflowId !== workflowId || pending.recipientId !== recipientId) return;
    // Used once: a reload after this must not send the code again.
    sessionStorage.removeItem(CSC_PENDING_KEY);
    sessionStorage.removeItem(CSC_RESULT_KEY);
    if (result.state !== pending.state || result.error || !result.code) {
      setStatus({ kind: 'failed', message: t.cscRefused });
      return;
    }
    setStatus({ kind: 'working' });
    api
      .post<CeremonyResult>(`/workflow/v1/${workflowId}/signature/csc`, {
        hash: pending.hash,
        code: result.code,
        connectorName: 'CSC_2',
        qualifier: pending.qualifier,
        credentialID: pending.credentialID,
      })
      .then(
        (answer) => {
          setStatus(null);
          onSigned(answer);
        },
        (failure) =>
          setStatus({
            kind: 'failed',
            message: t.cscFailed(failure instanceof ApiError ? failure.message : t.cscUnavailable),
          }),
      );
    // Once, when the page opens.
  }, []);

  if (!status) return null;
  if (status.kind === 'working')
    return (
      <p className="banner" role="status">
        {t.cscCompleting}
      </p>
    );
  return (
    <section className="banner" aria-labelledby="csc-failed-heading">
      <h2 id="csc-failed-heading">{t.cscHeading}</h2>
      <p role="alert">{status.message}</p>
    </section>
  );
}
