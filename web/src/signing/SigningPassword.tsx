import { useId, useState, type FormEvent } from 'react';
import { t } from '../i18n/signing/index.ts';
import type { Draft, SigningKeyReset, SigningKeyStatus } from './types.ts';

type Props = {
  /** The id of the first input: the guide focuses it, and the field's error describes it. */
  inputId: string;
  signingKey: SigningKeyStatus;
  keyReset?: SigningKeyReset;
  draft: Draft | undefined;
  invalid: true | undefined;
  /** The field's error line id, when one shows. */
  errorId: string | undefined;
  onChange(draft: Draft): void;
};

/**
 * The signing password of a DIGITAL_SIGNATURE made with the signer's personal certificate. The first time it
 * creates the signer's key (a new password, typed twice); later it unlocks that key (the same password). It is
 * never stored by the page.
 */
export function SigningPassword({ inputId, signingKey, keyReset, draft, invalid, errorId, onChange }: Props) {
  const hintId = `${inputId}-hint`;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ');
  const update = (changes: Partial<Draft>) => onChange({ ...draft, value: draft?.value ?? null, ...changes });
  // The platform certifies only an address it verified: say so rather than ask for a password that cannot work.
  if (signingKey.certifiable === false) return <p className="hint signing-password">{t.signingKeyNotCertifiable}</p>;
  if (signingKey.provisioned) {
    return (
      <div className="signing-password">
        <label className="stacked" htmlFor={inputId}>
          {t.signingPasswordEnterLabel}
        </label>
        <input
          id={inputId}
          type="password"
          autoComplete="current-password"
          value={draft?.password ?? ''}
          onChange={(e) => update({ password: e.target.value })}
          aria-invalid={invalid}
          aria-describedby={describedBy}
        />
        <p className="hint" id={hintId}>
          {t.signingPasswordEnterHint}
        </p>
        {keyReset && (
          <KeyReset reset={keyReset} minLength={signingKey.minPasswordLength} onDone={() => update({ password: '' })} />
        )}
      </div>
    );
  }
  const confirmId = `${inputId}-confirm`;
  return (
    <div className="signing-password">
      <p className="hint" id={hintId}>
        {t.signingPasswordCreateHint(signingKey.minPasswordLength)}
      </p>
      <label className="stacked" htmlFor={inputId}>
        {t.signingPasswordCreateLabel}
      </label>
      <input
        id={inputId}
        type="password"
        autoComplete="new-password"
        minLength={signingKey.minPasswordLength}
        value={draft?.password ?? ''}
        onChange={(e) => update({ password: e.target.value })}
        aria-invalid={invalid}
        aria-describedby={describedBy}
      />
      <label className="stacked" htmlFor={confirmId}>
        {t.signingPasswordConfirmLabel}
      </label>
      <input
        id={confirmId}
        type="password"
        autoComplete="new-password"
        value={draft?.passwordConfirm ?? ''}
        onChange={(e) => update({ passwordConfirm: e.target.value })}
        aria-invalid={invalid}
        aria-describedby={errorId}
      />
    </div>
  );
}

/**
 * A new signing key for a locked or forgotten password: the platform mails a code to the key's address, and the
 * code with a new password (typed twice) replaces the key. Earlier signatures keep their certificate.
 */
function KeyReset({ reset, minLength, onDone }: { reset: SigningKeyReset; minLength: number; onDone(): void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [stage, setStage] = useState<'ask' | 'sending' | 'sent' | 'saving' | 'done'>('ask');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  async function sendCode() {
    setProblem(null);
    setStage('sending');
    try {
      await reset.requestCode();
      setStage('sent');
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : String(failure));
      setStage('ask');
    }
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) return setProblem(t.signingKeyResetCodeInvalid);
    if ([...password].length < minLength) return setProblem(t.signingPasswordTooShort(minLength));
    if (password !== confirm) return setProblem(t.signingPasswordMismatch);
    setProblem(null);
    setStage('saving');
    try {
      await reset.reset(code.trim(), password);
      setStage('done');
      onDone();
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : String(failure));
      setStage('sent');
    }
  }

  if (!open) {
    return (
      <button type="button" className="secondary key-reset-open" onClick={() => setOpen(true)}>
        {t.signingKeyForgot}
      </button>
    );
  }
  return (
    <section className="key-reset" aria-labelledby={`${id}-heading`}>
      <p className="key-reset-title" id={`${id}-heading`}>
        {t.signingKeyForgot}
      </p>
      {stage === 'done' ? (
        <p role="status">{t.signingKeyResetDone}</p>
      ) : (
        <>
          <p className="hint">{t.signingKeyResetIntro}</p>
          {(stage === 'ask' || stage === 'sending') && (
            <button type="button" className="secondary" disabled={stage === 'sending'} onClick={() => void sendCode()}>
              {stage === 'sending' ? t.signingKeyResetSending : t.signingKeyResetSend}
            </button>
          )}
          {(stage === 'sent' || stage === 'saving') && (
            <form onSubmit={(e) => void submit(e)} noValidate>
              <p role="status">{t.signingKeyResetSent}</p>
              <label className="stacked" htmlFor={`${id}-code`}>
                {t.signingKeyResetCode}
              </label>
              <input
                id={`${id}-code`}
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
              <label className="stacked" htmlFor={`${id}-password`}>
                {t.signingKeyResetPassword}
              </label>
              <input
                id={`${id}-password`}
                type="password"
                autoComplete="new-password"
                minLength={minLength}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
              <label className="stacked" htmlFor={`${id}-confirm`}>
                {t.signingKeyResetConfirm}
              </label>
              <input
                id={`${id}-confirm`}
                type="password"
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
              />
              <button type="submit" disabled={stage === 'saving'}>
                {t.signingKeyResetSubmit}
              </button>
            </form>
          )}
        </>
      )}
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
