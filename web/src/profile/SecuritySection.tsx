/** Two-factor sign-in (enrol with the QR code and a code; turn off with the password and a code) and passkeys. */
import { useRef, useState } from 'react';
import { passkeysSupported } from '../signin/other-methods-api.ts';
import { formatDateTime } from '../workspace/ui.tsx';
import { ApiErrorText, StatusLine, TextField, useResource } from '../organization/kit.tsx';
import { ConfirmAction } from '../organization/MembersSection.tsx';
import { profileText as text } from '../i18n/profile/index.ts';
import { profileApi, type Passkey, type Profile } from './profile-api.ts';

const CODE = /^\d{6}$/;

export function SecuritySection({ profile, onChange }: { profile: Profile; onChange: (profile: Profile) => void }) {
  return (
    <>
      <TwoFactorCard profile={profile} onChange={onChange} />
      <PasskeysCard />
    </>
  );
}

function TwoFactorCard({ profile, onChange }: { profile: Profile; onChange: (profile: Profile) => void }) {
  const [enrolment, setEnrolment] = useState<{ otpauthUrl: string; qrCodeDataUrl: string } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [done, setDone] = useState<string | null>(null);
  const scanHeading = useRef<HTMLHeadingElement>(null);
  const secret = enrolment ? (new URL(enrolment.otpauthUrl).searchParams.get('secret') ?? '') : '';

  async function start() {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      setEnrolment(await profileApi.startTwoFactor());
      setCode('');
      setTimeout(() => scanHeading.current?.focus(), 0);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  async function confirm(enable: boolean) {
    const problems: Record<string, string> = {};
    if (!CODE.test(code.trim())) problems.code = text.codeRule;
    if (!enable && !password) problems.password = text.passwordRequired;
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      const result = await profileApi.setTwoFactor({
        twoFactorEnabled: enable,
        tOtp: code.trim(),
        ...(enable ? {} : { password }),
      });
      onChange({ ...profile, twoFactorEnabled: result.twoFactorEnabled });
      setEnrolment(null);
      setCode('');
      setPassword('');
      setDone(result.twoFactorEnabled ? text.twoFactorEnabled : text.twoFactorDisabled);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="ws-card" aria-labelledby="st-2fa-title">
      <h2 id="st-2fa-title">{text.twoFactorTitle}</h2>
      <p>{profile.twoFactorEnabled ? text.twoFactorOn : text.twoFactorOff}</p>
      {!profile.twoFactorEnabled && !enrolment && (
        <button type="button" className="ws-button ws-button--primary" onClick={start} disabled={busy}>
          {busy ? text.twoFactorStarting : text.twoFactorStart}
        </button>
      )}
      {!profile.twoFactorEnabled && enrolment && (
        <form
          className="st-enrol"
          onSubmit={(e) => {
            e.preventDefault();
            void confirm(true);
          }}
          noValidate
        >
          <h3 ref={scanHeading} tabIndex={-1}>
            {text.twoFactorScan}
          </h3>
          <img className="st-qr" src={enrolment.qrCodeDataUrl} alt={text.qrAlt} width={200} height={200} />
          <p>
            {text.manualKey}:{' '}
            <code className="st-mono st-key" data-testid="totp-secret">
              {secret}
            </code>
          </p>
          <TextField
            label={text.code}
            value={code}
            onChange={(v) => {
              setCode(v);
              setLocal((l) => ({ ...l, code: '' }));
            }}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            hint={text.codeHint}
            error={local.code}
            required
          />
          {error ? <ApiErrorText error={error} /> : null}
          <div className="ws-actions">
            <button type="submit" className="ws-button ws-button--primary" disabled={busy}>
              {busy ? text.saving : text.twoFactorConfirm}
            </button>
            <button
              type="button"
              className="ws-button"
              disabled={busy}
              onClick={() => {
                setEnrolment(null);
                setError(null);
                setLocal({});
              }}
            >
              {text.twoFactorCancel}
            </button>
          </div>
        </form>
      )}
      {profile.twoFactorEnabled && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void confirm(false);
          }}
          noValidate
        >
          <h3>{text.twoFactorDisableTitle}</h3>
          <p className="st-hint">{text.twoFactorDisableText}</p>
          <TextField
            label={text.password}
            type="password"
            value={password}
            onChange={(v) => {
              setPassword(v);
              setLocal((l) => ({ ...l, password: '' }));
            }}
            autoComplete="current-password"
            error={local.password}
            required
          />
          <TextField
            label={text.code}
            value={code}
            onChange={(v) => {
              setCode(v);
              setLocal((l) => ({ ...l, code: '' }));
            }}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            hint={text.codeHint}
            error={local.code}
            required
          />
          {error ? <ApiErrorText error={error} /> : null}
          <button type="submit" className="ws-button" disabled={busy}>
            {busy ? text.saving : text.twoFactorDisable}
          </button>
        </form>
      )}
      {!enrolment && !profile.twoFactorEnabled && error ? <ApiErrorText error={error} /> : null}
      <StatusLine message={done} />
    </section>
  );
}

function PasskeysCard() {
  const passkeys = useResource(() => profileApi.passkeys(), []);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Passkey | null>(null);
  const supported = passkeysSupported() && typeof navigator.credentials?.create === 'function';

  async function add() {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const added = await profileApi.registerPasskey(name.trim());
      setName('');
      setDone(text.passkeyAdded(added.name));
      passkeys.reload();
    } catch (failure) {
      const domName = (failure as { name?: string })?.name;
      setError(
        domName === 'NotAllowedError' || domName === 'AbortError'
          ? new Error(text.passkeyCancelled)
          : failure instanceof DOMException
            ? new Error(`${text.passkeyFailed} ${failure.message}`)
            : failure,
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="ws-card" aria-labelledby="st-passkeys-title">
      <h2 id="st-passkeys-title">{text.passkeysTitle}</h2>
      <p className="ws-muted">{text.passkeysIntro}</p>
      {supported ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
          className="st-inline-form"
        >
          <TextField
            label={text.passkeyName}
            value={name}
            onChange={setName}
            maxLength={64}
            hint={text.passkeyNameHint}
          />
          <button type="submit" className="ws-button ws-button--primary" disabled={busy}>
            {busy ? text.addingPasskey : text.addPasskey}
          </button>
        </form>
      ) : (
        <p className="st-notice">{text.passkeysUnsupported}</p>
      )}
      {error ? <ApiErrorText error={error} /> : null}
      <StatusLine message={done} />
      {passkeys.error ? <ApiErrorText error={passkeys.error} /> : null}
      {passkeys.data &&
        (passkeys.data.length === 0 ? (
          <p className="ws-empty">{text.noPasskeys}</p>
        ) : (
          <div className="ws-table-wrap">
            <table className="ws-table">
              <caption>{text.passkeysCaption(passkeys.data.length)}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.name}</th>
                  <th scope="col">{text.added}</th>
                  <th scope="col">{text.lastUsed}</th>
                  <th scope="col">{text.synced}</th>
                  <th scope="col">{text.actions}</th>
                </tr>
              </thead>
              <tbody>
                {passkeys.data.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">{p.name}</th>
                    <td>{formatDateTime(p.createdAt)}</td>
                    <td>{p.lastUsedAt ? formatDateTime(p.lastUsedAt) : text.never}</td>
                    <td>{p.backedUp ? text.syncedYes : text.syncedNo}</td>
                    <td>
                      <button
                        type="button"
                        className="ws-button ws-button--small ws-button--quiet"
                        aria-label={text.deletePasskeyOf(p.name)}
                        onClick={() => setDeleting(p)}
                      >
                        {text.delete}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
      {deleting && (
        <ConfirmAction
          title={text.deletePasskeyTitle(deleting.name)}
          description={text.deletePasskeyText}
          submitLabel={text.delete}
          run={() => profileApi.deletePasskey(deleting.id)}
          onClose={() => setDeleting(null)}
          onDone={() => {
            setDone(text.passkeyDeleted(deleting.name));
            setDeleting(null);
            passkeys.reload();
          }}
        />
      )}
    </section>
  );
}
