import { t } from '../i18n/i18n.ts';
import type { Draft, SigningKeyStatus } from './types.ts';

type Props = {
  /** The id of the first input: the guide focuses it, and the field's error describes it. */
  inputId: string;
  signingKey: SigningKeyStatus;
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
export function SigningPassword({ inputId, signingKey, draft, invalid, errorId, onChange }: Props) {
  const hintId = `${inputId}-hint`;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ');
  const update = (changes: Partial<Draft>) => onChange({ ...draft, value: draft?.value ?? null, ...changes });
  if (signingKey.provisioned) {
    return (
      <div className="signing-password">
        <label className="stacked" htmlFor={inputId}>{t.signingPasswordEnterLabel}</label>
        <input id={inputId} type="password" autoComplete="current-password" value={draft?.password ?? ''}
          onChange={(e) => update({ password: e.target.value })} aria-invalid={invalid} aria-describedby={describedBy} />
        <p className="hint" id={hintId}>{t.signingPasswordEnterHint}</p>
      </div>
    );
  }
  const confirmId = `${inputId}-confirm`;
  return (
    <div className="signing-password">
      <p className="hint" id={hintId}>{t.signingPasswordCreateHint(signingKey.minPasswordLength)}</p>
      <label className="stacked" htmlFor={inputId}>{t.signingPasswordCreateLabel}</label>
      <input id={inputId} type="password" autoComplete="new-password" minLength={signingKey.minPasswordLength} value={draft?.password ?? ''}
        onChange={(e) => update({ password: e.target.value })} aria-invalid={invalid} aria-describedby={describedBy} />
      <label className="stacked" htmlFor={confirmId}>{t.signingPasswordConfirmLabel}</label>
      <input id={confirmId} type="password" autoComplete="new-password" value={draft?.passwordConfirm ?? ''}
        onChange={(e) => update({ passwordConfirm: e.target.value })} aria-invalid={invalid} aria-describedby={errorId} />
    </div>
  );
}
