import { useEffect, useId, useRef, useState } from 'react';
import { formattingLocale } from '../i18n/language.ts';
import { t } from '../i18n/signing/index.ts';
import { ApiError, type Api } from '../shared/api.ts';
import type { Disclosure } from './types.ts';

/** Moves focus to a step's heading when it appears, so a screen reader starts reading there. */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return ref;
}

export function ConsentStep({
  disclosure,
  onAgree,
  onDecline,
}: {
  disclosure: Disclosure;
  onAgree(): void;
  onDecline(): void;
}) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section className="step" aria-labelledby="consent-heading">
      <h2 id="consent-heading" ref={heading} tabIndex={-1}>
        {t.consentHeading}
      </h2>
      <p>{t.consentIntro}</p>
      {/* The service's text, in English whatever the page's language (it is recorded verbatim with its hash). */}
      <blockquote className="disclosure" lang={disclosure.lang} data-sha256={disclosure.textHash}>
        {disclosure.text}
      </blockquote>
      <div className="actions">
        <button type="button" className="primary" onClick={onAgree}>
          {t.consentAgree}
        </button>
        <button type="button" className="secondary" onClick={onDecline}>
          {t.consentDecline}
        </button>
      </div>
    </section>
  );
}

export function PasswordStep({ api, workflowId, onVerified }: { api: Api; workflowId: number; onVerified(): void }) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  return (
    <section className="step narrow" aria-labelledby="password-heading">
      <h1 id="password-heading" ref={heading} tabIndex={-1}>
        {t.passwordHeading}
      </h1>
      <p>{t.passwordIntro}</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          setBusy(true);
          try {
            await api.post(`/workflow/v1/${workflowId}/identity/verify-password`, { password });
            onVerified();
          } catch (failure) {
            setError(failure instanceof ApiError && failure.status === 400 ? t.passwordWrong : t.passwordLocked);
          } finally {
            setBusy(false);
          }
        }}
      >
        <label className="stacked" htmlFor="recipient-password">
          {t.passwordLabel}
        </label>
        <input
          id="recipient-password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        {error && (
          <p className="error" id={errorId} role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {t.passwordSubmit}
        </button>
      </form>
    </section>
  );
}

export function OtpStep({
  api,
  workflowId,
  email,
  onVerified,
}: {
  api: Api;
  workflowId: number;
  email: string;
  onVerified(): void;
}) {
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const [sent, setSent] = useState<{ expiresAt: string; resendAt: number } | null>(null);
  const [now, setNow] = useState(Date.now());
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const hintId = useId();

  useEffect(() => {
    if (!sent) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [sent]);

  const send = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await api.post<{ expiresAt: string; resendAfterSeconds: number }>(
        `/workflow/v1/${workflowId}/identity/send-otp`,
      );
      setSent({ expiresAt: answer.expiresAt, resendAt: Date.now() + answer.resendAfterSeconds * 1000 });
      setNow(Date.now());
      setCode('');
      setTimeout(() => codeRef.current?.focus(), 0);
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'OTP_RESEND_TOO_SOON') {
        const seconds = Number(
          (failure.responseBody as { resendAfterSeconds?: number } | undefined)?.resendAfterSeconds ?? 30,
        );
        setError(t.otpTooSoon(seconds));
      } else {
        setError(t.genericErrorText);
      }
    } finally {
      setBusy(false);
    }
  };

  const verify = async (event: React.FormEvent) => {
    event.preventDefault();
    const digits = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(digits)) return setError(t.otpFormat);
    setBusy(true);
    try {
      await api.post(`/workflow/v1/${workflowId}/identity/verify-otp`, { code: digits });
      onVerified();
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'OTP_INVALID') {
        const left = Number((failure.responseBody as { attemptsLeft?: number } | undefined)?.attemptsLeft ?? 0);
        setError(t.otpWrong(left));
      } else {
        setError(t.genericErrorText);
      }
    } finally {
      setBusy(false);
    }
  };

  const wait = sent ? Math.max(0, Math.ceil((sent.resendAt - now) / 1000)) : 0;
  const until = sent
    ? new Date(sent.expiresAt).toLocaleTimeString(formattingLocale(), { hour: '2-digit', minute: '2-digit' })
    : '';
  return (
    <section className="step" aria-labelledby="otp-heading">
      <h2 id="otp-heading" ref={heading} tabIndex={-1}>
        {t.otpHeading}
      </h2>
      <p>{t.otpIntro(email)}</p>
      {!sent ? (
        <>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <button type="button" className="primary" onClick={send} disabled={busy}>
            {t.otpSend}
          </button>
        </>
      ) : (
        <form onSubmit={verify}>
          <p role="status">{t.otpSent(until)}</p>
          <label className="stacked" htmlFor="otp-code">
            {t.otpLabel}
          </label>
          <input
            id="otp-code"
            ref={codeRef}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={[error ? errorId : '', hintId].filter(Boolean).join(' ')}
          />
          <span className="hint" id={hintId}>
            {t.otpHint}
          </span>
          {error && (
            <p className="error" id={errorId} role="alert">
              {error}
            </p>
          )}
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {t.otpVerify}
            </button>
            <button type="button" className="secondary" onClick={send} disabled={busy || wait > 0}>
              {t.otpResend}
            </button>
          </div>
          {wait > 0 && <p className="hint">{t.otpResendIn(wait)}</p>}
        </form>
      )}
    </section>
  );
}
