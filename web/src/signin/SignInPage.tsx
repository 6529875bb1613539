import { useEffect, useRef, useState, type FormEvent } from 'react';
import { LanguageMenu } from '../i18n/LanguageMenu.tsx';
import { signinText as text } from '../i18n/signin/index.ts';
import { useLanguage } from '../i18n/use-language.ts';
import { authorize, START_SIGNIN_URL, type Credentials, type SigninOutcome } from './signin-api.ts';
import { OtherMethods } from './OtherMethods.tsx';

type Step = 'password' | 'totp';

/**
 * The service's own sign-in page (used when no external identity provider is configured): password, then a TOTP
 * code when the account has two-factor sign-in; or a passkey or a smart card (OtherMethods.tsx). It completes like a
 * provider would: the browser is sent to the web session's callback with a code. Opened without a state, it starts a sign-in first.
 */
export function SignInPage() {
  const state = new URLSearchParams(window.location.search).get('state');
  const [step, setStep] = useState<Step>('password');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; restart?: boolean } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const heading = useRef<HTMLHeadingElement>(null);
  const signupOpen = useSignupOpen();
  const language = useLanguage();

  useEffect(() => {
    if (!state) window.location.replace(START_SIGNIN_URL);
  }, [state]);
  useEffect(() => {
    heading.current?.focus();
  }, [step]);
  useEffect(() => {
    document.title = step === 'totp' ? `${text.totpTitle} – ${text.title}` : text.title;
  }, [step, language]);

  if (!state) return null;

  async function submit(credentials: Credentials) {
    setBusy(true);
    setError(null);
    setAttempt((n) => n + 1);
    const outcome = await authorize(state!, credentials, rememberMe);
    if (outcome.kind === 'redirect') {
      window.location.assign(outcome.redirectUrl);
      return;
    }
    setBusy(false);
    if (outcome.kind === 'totp-required') {
      setStep('totp');
      return;
    }
    setError(describe(outcome));
  }

  function onPassword(event: FormEvent) {
    event.preventDefault();
    if (!email.trim() || !password) {
      setAttempt((n) => n + 1);
      return setError({ message: text.missingFields });
    }
    void submit({ grant_type: 'PASSWORD', username: email.trim(), password });
  }

  function onCode(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code)) return setError({ message: text.missingCode });
    void submit({ grant_type: 'G_AUTHENTICATOR', username: email.trim(), password, tOtp: code });
  }

  return (
    <main id="main" className="message signin">
      <LanguageMenu />
      <h1 ref={heading} tabIndex={-1}>
        {step === 'totp' ? text.totpTitle : text.title}
      </h1>
      {error && (
        <div role="alert" className="error">
          <p>{error.message}</p>
          {error.restart && (
            <p>
              <a href={START_SIGNIN_URL}>{text.startAgain}</a>
            </p>
          )}
        </div>
      )}
      {step === 'password' ? (
        <>
          <p>{text.intro}</p>
          <form onSubmit={onPassword} noValidate>
            <label className="stacked">
              {text.email}
              <input
                type="email"
                name="username"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </label>
            <label className="stacked">
              {text.password}
              <input
                type="password"
                name="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            <label className="checkbox">
              <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />
              {text.rememberMe}
            </label>
            <div className="actions">
              <button type="submit" className="primary" disabled={busy}>
                {busy ? text.submitting : text.submit}
              </button>
            </div>
          </form>
          <OtherMethods
            complete={(credentials) => void submit(credentials)}
            busy={busy}
            email={email}
            rememberMe={rememberMe}
            onStart={() => setError(null)}
            attempt={attempt}
          />
          {signupOpen && (
            <p className="signup-link">
              {text.noAccount} <a href="/signup">{text.signUp}</a>
            </p>
          )}
        </>
      ) : (
        <form onSubmit={onCode} noValidate>
          <p>{text.totpIntro}</p>
          <label className="stacked">
            {text.totpLabel}
            <input
              type="text"
              name="totp"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))}
            />
          </label>
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              {busy ? text.submitting : text.totpSubmit}
            </button>
            <button
              type="button"
              className="secondary"
              disabled={busy}
              onClick={() => {
                setStep('password');
                setCode('');
                setError(null);
              }}
            >
              {text.back}
            </button>
          </div>
        </form>
      )}
    </main>
  );
}

/** Whether the service takes sign-ups (public app settings); the link to /signup is offered only then. */
function useSignupOpen(): boolean {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    let live = true;
    fetch('/auth/v1/app_settings', { headers: { accept: 'application/json' } })
      .then((response) => (response.ok ? response.json() : null))
      .then(
        (settings: { signupEnabled?: boolean } | null) => live && setOpen(settings?.signupEnabled === true),
        () => {},
      );
    return () => {
      live = false;
    };
  }, []);
  return open;
}

function describe(outcome: Extract<SigninOutcome, { kind: 'error' }>): { message: string; restart?: boolean } {
  switch (outcome.code) {
    case 'INVALID_CREDENTIALS':
      return { message: text.wrongCredentials };
    case 'INVALID_TOTP':
      return { message: text.wrongCode };
    case 'ACCOUNT_TEMPORARILY_LOCKED':
      return { message: text.locked(Math.max(1, Math.ceil((outcome.retryAfterSeconds ?? 900) / 60))) };
    case 'LOGIN_STATE_INVALID':
      return { message: text.expired, restart: true };
    default:
      return { message: text.failed };
  }
}
