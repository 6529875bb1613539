/**
 * Business apps: register one (the client secret and the webhook secret are shown once, with copy buttons, and
 * never again), enable or disable, edit, rotate secrets (shown once too). An app whose webhooks are paused (its
 * webhook URL failed for 24 hours in a row) is named above the table with what to do, and can be resumed here.
 */
import { useRef, useState } from 'react';
import { formatDateTime } from '../workspace/ui.tsx';
import { Link } from '../workspace/router.tsx';
import { ApiErrorText, FormDialog, SecretField, StatusLine, TextField, fieldIssues, useResource } from './kit.tsx';
import { ConfirmAction } from './MembersSection.tsx';
import { orgText as text } from '../i18n/organization/index.ts';
import { orgApi, type BusinessApp } from './org-api.ts';

type Secrets = { appName: string; clientId: string; clientSecret?: string; webhookSecret?: string; rotated: boolean };

export function AppsSection({ isOwner }: { isOwner: boolean }) {
  const apps = useResource(() => orgApi.apps(), []);
  const [registering, setRegistering] = useState(false);
  const [rotating, setRotating] = useState<BusinessApp | null>(null);
  const [editing, setEditing] = useState<BusinessApp | null>(null);
  const [secrets, setSecrets] = useState<Secrets | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [rowError, setRowError] = useState<{ appId: number; error: unknown } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const secretsHeading = useRef<HTMLHeadingElement>(null);

  function showSecrets(value: Secrets) {
    setSecrets(value);
    // The secrets are what the person must act on now: the heading takes the focus (announced by screen readers).
    setTimeout(() => secretsHeading.current?.focus(), 0);
  }

  function replaceApp(updated: BusinessApp) {
    apps.setData((list) => (list ?? []).map((a) => (a.id === updated.id ? updated : a)));
  }

  /** An update that changes nothing resumes paused webhooks (the API's rule for any edit of the app). */
  async function resume(app: BusinessApp) {
    setBusy(app.id);
    setRowError(null);
    try {
      replaceApp(await orgApi.updateApp(app.id, {}));
      setDone(text.resumed(app.appName));
    } catch (failure) {
      setRowError({ appId: app.id, error: failure });
    } finally {
      setBusy(null);
    }
  }

  async function setStatus(app: BusinessApp, status: boolean) {
    setBusy(app.id);
    setRowError(null);
    try {
      replaceApp(await orgApi.setAppStatus(app.id, status));
      setDone(status ? text.appEnabled(app.appName) : text.appDisabled(app.appName));
    } catch (failure) {
      setRowError({ appId: app.id, error: failure });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="st-section-title">
      <div className="ws-page-head">
        <h2 id="st-section-title">{text.sectionTitles.apps}</h2>
        {isOwner && (
          <button type="button" className="ws-button ws-button--primary" onClick={() => setRegistering(true)}>
            {text.registerApp}
          </button>
        )}
      </div>
      <p className="ws-muted">{text.appsIntro}</p>
      {secrets && (
        <div className="ws-card st-secrets" role="region" aria-labelledby="st-secrets-title">
          <h3 id="st-secrets-title" ref={secretsHeading} tabIndex={-1}>
            {secrets.rotated ? text.newSecretsTitle(secrets.appName) : text.secretsTitle(secrets.appName)}
          </h3>
          <p>
            <strong>{text.secretsOnce}</strong>
          </p>
          <p>{text.clientIdIs(secrets.clientId)}</p>
          {secrets.clientSecret && <SecretField label={text.clientSecret} value={secrets.clientSecret} />}
          {secrets.webhookSecret && <SecretField label={text.webhookSecret} value={secrets.webhookSecret} />}
          <button
            type="button"
            className="ws-button"
            onClick={() => {
              setSecrets(null);
              setDone(text.secretsHidden);
            }}
          >
            {text.secretsSaved}
          </button>
        </div>
      )}
      <StatusLine message={done} />
      {apps.error ? <ApiErrorText error={apps.error} /> : null}
      {(apps.data ?? [])
        .filter((app) => app.callbackPausedAt)
        .map((app) => (
          <div key={app.id} className="ws-card st-notice" role="region" aria-labelledby={`st-paused-${app.id}`}>
            <h3 id={`st-paused-${app.id}`}>{text.pausedTitle(app.appName)}</h3>
            <p>{text.pausedText(formatDateTime(app.callbackFailingSince ?? app.callbackPausedAt))}</p>
            {isOwner && (
              <div className="st-row-actions">
                <button
                  type="button"
                  className="ws-button ws-button--primary ws-button--small"
                  disabled={busy === app.id}
                  onClick={() => resume(app)}
                >
                  {text.resumeOf(app.appName)}
                </button>
                <Link to="/organization/webhooks" className="ws-button ws-button--small">
                  {text.seeDeliveries}
                </Link>
              </div>
            )}
          </div>
        ))}
      {apps.data && (
        <>
          <div className="ws-table-wrap">
            <table className="ws-table">
              <caption>{text.appsCaption(apps.data.length)}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.appName}</th>
                  <th scope="col">{text.clientId}</th>
                  <th scope="col">{text.callbackUrl}</th>
                  <th scope="col">{text.status}</th>
                  <th scope="col">{text.registered}</th>
                  <th scope="col">{text.actions}</th>
                </tr>
              </thead>
              <tbody>
                {apps.data.map((app) => (
                  <tr key={app.id}>
                    <th scope="row">{app.appName}</th>
                    <td className="st-mono st-wrap">{app.clientId}</td>
                    <td className="st-wrap">{app.callbackUrl}</td>
                    <td>
                      <span className={`ws-status ws-status--${app.status ? 'COMPLETED' : 'DRAFT'}`}>
                        {app.status ? text.enabled : text.disabled}
                      </span>
                      {app.callbackPausedAt && (
                        <span className="ws-status ws-status--DECLINED st-block">{text.webhooksPaused}</span>
                      )}
                      {app.callbackFailingSince && !app.callbackPausedAt && (
                        <span className="ws-muted st-block">
                          {text.failingSince(formatDateTime(app.callbackFailingSince))}
                        </span>
                      )}
                    </td>
                    <td>{formatDateTime(app.createdAt)}</td>
                    <td>
                      <div className="st-row-actions">
                        <button
                          type="button"
                          className="ws-button ws-button--small"
                          disabled={busy === app.id}
                          aria-label={(app.status ? text.disableOf : text.enableOf)(app.appName)}
                          onClick={() => setStatus(app, !app.status)}
                        >
                          {app.status ? text.disable : text.enable}
                        </button>
                        {isOwner && (
                          <button
                            type="button"
                            className="ws-button ws-button--small ws-button--quiet"
                            aria-label={text.editOf(app.appName)}
                            onClick={() => setEditing(app)}
                          >
                            {text.edit}
                          </button>
                        )}
                        {isOwner && (
                          <button
                            type="button"
                            className="ws-button ws-button--small ws-button--quiet"
                            aria-label={text.rotateOf(app.appName)}
                            onClick={() => setRotating(app)}
                          >
                            {text.rotate}
                          </button>
                        )}
                      </div>
                      {rowError?.appId === app.id && <ApiErrorText error={rowError.error} />}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {apps.data.length === 0 && <p className="ws-empty">{text.noApps}</p>}
        </>
      )}
      {registering && (
        <RegisterDialog
          onClose={() => setRegistering(false)}
          onDone={(registered) => {
            setRegistering(false);
            showSecrets({ ...registered, rotated: false });
            apps.reload();
          }}
        />
      )}
      {editing && (
        <EditDialog
          app={editing}
          onClose={() => setEditing(null)}
          onDone={(updated) => {
            setEditing(null);
            replaceApp(updated);
            setDone(editing.callbackPausedAt ? text.resumed(updated.appName) : text.appSaved(updated.appName));
          }}
        />
      )}
      {rotating && (
        <ConfirmAction
          title={text.rotateTitle(rotating.appName)}
          description={text.rotateText}
          submitLabel={text.rotate}
          run={async () => {
            const rotated = await orgApi.rotateSecrets(rotating.id, 'BOTH');
            setRotating(null);
            showSecrets({ ...rotated, rotated: true });
          }}
          onClose={() => setRotating(null)}
          onDone={() => {}}
        />
      )}
    </section>
  );
}

function RegisterDialog({
  onClose,
  onDone,
}: {
  onClose: () => void;
  onDone: (app: { appName: string; clientId: string; clientSecret: string; webhookSecret: string }) => void;
}) {
  const [clientId, setClientId] = useState('');
  const [appName, setAppName] = useState('');
  const [callbackUrl, setCallbackUrl] = useState('https://');
  const [enabled, setEnabled] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const issues = { ...fieldIssues(error), ...local };
  // The callback URL's refusals (https only, no private address) come as BUSINESS_APP_CALLBACK_REFUSED: shown on that field.
  const callbackRefused =
    error && (error as { code?: string }).code === 'BUSINESS_APP_CALLBACK_REFUSED' ? (error as Error).message : null;

  async function submit() {
    const problems: Record<string, string> = {};
    if (!/^[A-Za-z0-9][A-Za-z0-9._~-]{2,99}$/.test(clientId.trim())) problems.clientId = text.clientIdRule;
    if (!appName.trim()) problems.appName = text.appNameRequired;
    if (!/^https:\/\/.+/.test(callbackUrl.trim())) problems.callbackUrl = text.callbackRule;
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      onDone(
        await orgApi.registerApp({
          clientId: clientId.trim(),
          appName: appName.trim(),
          callbackUrl: callbackUrl.trim(),
          status: enabled,
        }),
      );
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open
      title={text.registerTitle}
      description={
        <p>
          {text.registerText} {text.appsLimit}
        </p>
      }
      submitLabel={text.register}
      busy={busy}
      error={callbackRefused ? null : error}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label={text.appName}
        value={appName}
        onChange={(v) => {
          setAppName(v);
          setLocal((l) => ({ ...l, appName: '' }));
        }}
        required
        maxLength={100}
        error={issues.appName}
      />
      <TextField
        label={text.clientId}
        value={clientId}
        onChange={(v) => {
          setClientId(v);
          setLocal((l) => ({ ...l, clientId: '' }));
        }}
        required
        maxLength={100}
        hint={text.clientIdRule}
        error={issues.clientId}
      />
      <TextField
        label={text.callbackUrl}
        type="url"
        inputMode="url"
        value={callbackUrl}
        onChange={(v) => {
          setCallbackUrl(v);
          setLocal((l) => ({ ...l, callbackUrl: '' }));
        }}
        required
        maxLength={2048}
        hint={text.callbackRule}
        error={callbackRefused ?? issues.callbackUrl}
      />
      <label className="checkbox">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} /> {text.enableNow}
      </label>
    </FormDialog>
  );
}

/** Rename the app or move its webhook URL; saving (even unchanged) resumes paused webhooks. */
function EditDialog({
  app,
  onClose,
  onDone,
}: {
  app: BusinessApp;
  onClose: () => void;
  onDone: (app: BusinessApp) => void;
}) {
  const [appName, setAppName] = useState(app.appName);
  const [callbackUrl, setCallbackUrl] = useState(app.callbackUrl);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [local, setLocal] = useState<Record<string, string>>({});
  const issues = { ...fieldIssues(error), ...local };
  const callbackRefused =
    error && (error as { code?: string }).code === 'BUSINESS_APP_CALLBACK_REFUSED' ? (error as Error).message : null;

  async function submit() {
    const problems: Record<string, string> = {};
    if (!appName.trim()) problems.appName = text.appNameRequired;
    if (!/^https:\/\/.+/.test(callbackUrl.trim())) problems.callbackUrl = text.callbackRule;
    setLocal(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      onDone(await orgApi.updateApp(app.id, { appName: appName.trim(), callbackUrl: callbackUrl.trim() }));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <FormDialog
      open
      title={text.editTitle(app.appName)}
      description={<p>{text.editText}</p>}
      submitLabel={text.save}
      busy={busy}
      error={callbackRefused ? null : error}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextField
        label={text.appName}
        value={appName}
        onChange={(v) => {
          setAppName(v);
          setLocal((l) => ({ ...l, appName: '' }));
        }}
        required
        maxLength={100}
        error={issues.appName}
      />
      <TextField
        label={text.callbackUrl}
        type="url"
        inputMode="url"
        value={callbackUrl}
        onChange={(v) => {
          setCallbackUrl(v);
          setLocal((l) => ({ ...l, callbackUrl: '' }));
        }}
        required
        maxLength={2048}
        hint={text.callbackRule}
        error={callbackRefused ?? issues.callbackUrl}
      />
    </FormDialog>
  );
}
