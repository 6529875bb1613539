/**
 * Mail settings (owner only): the platform's mail, or the organization's own provider in one of four kinds, each
 * with its own form; a connection test that names the step that failed; and the delivery log of the own provider.
 * Stored secrets read back masked and the mask does not round-trip, so secret fields start empty and must be typed
 * again to save or test (said next to each).
 */
import { useState } from 'react';
import { formatDateTime } from '../workspace/ui.tsx';
import { ApiError } from '../shared/api.ts';
import { Link } from '../workspace/router.tsx';
import { ApiErrorText, Pager, StatusLine, TextField, useResource } from './kit.tsx';
import { orgText as text } from '../i18n/organization/index.ts';
import { MAIL_PROVIDERS, orgApi, type EmailSettings, type MailProvider, type MailTestResult } from './org-api.ts';
import { Skeleton } from '../shared/Skeleton.tsx';

type FieldSpec = {
  key: string;
  kind: 'text' | 'number' | 'secret' | 'email' | 'select' | 'toggle';
  options?: string[];
};

/** The keys each provider needs (SPEC.md "Email settings"), in the order a person fills them. */
const FORMS: Record<MailProvider, FieldSpec[]> = {
  SMTP: [
    { key: 'SMTP_SERVER', kind: 'text' },
    { key: 'SMTP_PORT', kind: 'number' },
    { key: 'SSL_TLS', kind: 'select', options: ['STARTTLS', 'SSL', 'NONE'] },
    { key: 'AUTHENTICATION', kind: 'toggle' },
    { key: 'USER_ID', kind: 'text' },
    { key: 'PASSWORD', kind: 'secret' },
    { key: 'EMAIL_FROM', kind: 'email' },
  ],
  EMAIL_API: [
    { key: 'API_KEY', kind: 'secret' },
    { key: 'EMAIL_FROM', kind: 'email' },
  ],
  CLOUD_MAIL: [
    { key: 'ACCESS_KEY', kind: 'text' },
    { key: 'API_KEY', kind: 'secret' },
    { key: 'REGION', kind: 'text' },
    { key: 'EMAIL_FROM', kind: 'email' },
  ],
  OAUTH2_MAIL: [
    { key: 'TENANT_ID', kind: 'text' },
    { key: 'CLIENT_ID', kind: 'text' },
    { key: 'CLIENT_SECRET', kind: 'secret' },
    { key: 'OAUTH_SCOPE', kind: 'text' },
    { key: 'EMAIL_FROM', kind: 'email' },
  ],
};

const DEFAULTS: Record<MailProvider, Record<string, string>> = {
  SMTP: {
    SMTP_SERVER: '',
    SMTP_PORT: '587',
    SSL_TLS: 'STARTTLS',
    AUTHENTICATION: 'TRUE',
    USER_ID: '',
    PASSWORD: '',
    EMAIL_FROM: '',
  },
  EMAIL_API: { API_KEY: '', EMAIL_FROM: '' },
  CLOUD_MAIL: { ACCESS_KEY: '', API_KEY: '', REGION: 'eu-west-1', EMAIL_FROM: '' },
  OAUTH2_MAIL: {
    TENANT_ID: '',
    CLIENT_ID: '',
    CLIENT_SECRET: '',
    OAUTH_SCOPE: 'https://graph.microsoft.com/.default',
    EMAIL_FROM: '',
  },
};

const MASK = /^\*+$/;

export function MailSection() {
  const settings = useResource(() => orgApi.emailSettings(), []);
  return (
    <section aria-labelledby="st-section-title">
      <h2 id="st-section-title">{text.sectionTitles.mail}</h2>
      {settings.error ? <ApiErrorText error={settings.error} /> : null}
      {!settings.data && !settings.error && <Skeleton shape="form" label={text.loading} withHeading={false} />}
      {settings.data && <MailForm saved={settings.data} onSaved={(s) => settings.setData(s)} />}
      {settings.data && <DeliveryLog />}
    </section>
  );
}

function MailForm({ saved, onSaved }: { saved: EmailSettings; onSaved: (settings: EmailSettings) => void }) {
  const [mode, setMode] = useState(saved.emailMode);
  const [provider, setProvider] = useState<MailProvider>(saved.provider ?? 'SMTP');
  const [values, setValues] = useState<Record<MailProvider, Record<string, string>>>(() => {
    const start = structuredClone(DEFAULTS);
    if (saved.provider) {
      for (const [key, value] of Object.entries(saved.configurations))
        start[saved.provider][key] = MASK.test(value) ? '' : value;
    }
    return start;
  });
  const [testRecipient, setTestRecipient] = useState('');
  const [busy, setBusy] = useState<'save' | 'test' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [testResult, setTestResult] = useState<MailTestResult | null>(null);
  const [testError, setTestError] = useState<unknown>(null);
  const [testRecipientError, setTestRecipientError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const current = values[provider];
  const setValue = (key: string, value: string) =>
    setValues((all) => ({ ...all, [provider]: { ...all[provider], [key]: value } }));
  const storedSecret = (key: string) => saved.provider === provider && MASK.test(saved.configurations[key] ?? '');
  const keyErrors = keysAtFault(error) ?? keysAtFault(testError) ?? {};
  const authOff = provider === 'SMTP' && current.AUTHENTICATION === 'FALSE';

  async function save() {
    setBusy('save');
    setError(null);
    setDone(null);
    try {
      const body =
        mode === 'GLOBAL'
          ? { emailMode: mode }
          : { emailMode: mode, source: 'CUSTOM' as const, provider, configurations: { ...current } };
      onSaved(await orgApi.saveEmailSettings(body));
      setDone(mode === 'GLOBAL' ? text.mailSavedGlobal : text.mailSavedOwn(text.providers[provider]));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(null);
    }
  }

  async function test() {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(testRecipient.trim())) return setTestRecipientError(text.emailRule);
    setTestRecipientError(null);
    setBusy('test');
    setTestError(null);
    setTestResult(null);
    try {
      setTestResult(
        await orgApi.testEmailSettings({
          provider,
          configurations: { ...current },
          testRecipient: testRecipient.trim(),
        }),
      );
    } catch (failure) {
      setTestError(failure);
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className="ws-card">
      <h3>{text.mailSettingsTitle}</h3>
      <p>
        {saved.emailMode === 'GLOBAL' ? text.mailNowGlobal : text.mailNowOwn(text.providers[saved.provider ?? 'SMTP'])}
      </p>
      <p className="ws-muted">{text.mailRouteRule}</p>
      {!saved.planAllowCustomSmtp && (
        <p className="st-notice">
          {text.mailPlanNotAllowed} <Link to="/organization/billing">{text.mailSeePackages}</Link>
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
        noValidate
      >
        <fieldset className="st-fieldset st-radio-row">
          <legend>{text.mailModeLegend}</legend>
          <label className="checkbox">
            <input type="radio" name="st-mail-mode" checked={mode === 'GLOBAL'} onChange={() => setMode('GLOBAL')} />{' '}
            {text.mailModeGlobal}
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name="st-mail-mode"
              checked={mode === 'ORG_MANAGED'}
              onChange={() => setMode('ORG_MANAGED')}
              disabled={!saved.planAllowCustomSmtp}
            />{' '}
            {text.mailModeOwn}
          </label>
        </fieldset>
        {mode === 'ORG_MANAGED' && (
          <>
            <fieldset className="st-fieldset st-radio-row">
              <legend>{text.providerLegend}</legend>
              {MAIL_PROVIDERS.map((p) => (
                <label key={p} className="checkbox">
                  <input
                    type="radio"
                    name="st-mail-provider"
                    checked={provider === p}
                    onChange={() => {
                      setProvider(p);
                      setTestResult(null);
                      setTestError(null);
                      setError(null);
                    }}
                  />{' '}
                  {text.providers[p]}
                </label>
              ))}
            </fieldset>
            <fieldset className="st-fieldset">
              <legend>{text.providerSettings(text.providers[provider])}</legend>
              {FORMS[provider].map((field) => {
                const label = text.mailKeys[field.key] ?? field.key;
                const fault = keyErrors[field.key];
                if (field.kind === 'toggle') {
                  return (
                    <label key={field.key} className="checkbox">
                      <input
                        type="checkbox"
                        checked={current[field.key] !== 'FALSE'}
                        onChange={(e) => setValue(field.key, e.target.checked ? 'TRUE' : 'FALSE')}
                      />{' '}
                      {label}
                    </label>
                  );
                }
                if (field.kind === 'select') {
                  return (
                    <div key={field.key} className="st-field">
                      <label htmlFor={`st-mail-${field.key}`} className="st-label">
                        {label}
                      </label>
                      <select
                        id={`st-mail-${field.key}`}
                        value={current[field.key]}
                        onChange={(e) => setValue(field.key, e.target.value)}
                      >
                        {field.options!.map((o) => (
                          <option key={o} value={o}>
                            {text.tlsModes[o] ?? o}
                          </option>
                        ))}
                      </select>
                    </div>
                  );
                }
                const optional = authOff && (field.key === 'USER_ID' || field.key === 'PASSWORD');
                return (
                  <TextField
                    key={field.key}
                    label={label}
                    value={current[field.key] ?? ''}
                    onChange={(v) => setValue(field.key, v)}
                    type={field.kind === 'secret' ? 'password' : field.kind === 'email' ? 'email' : 'text'}
                    inputMode={field.kind === 'number' ? 'numeric' : undefined}
                    required={!optional}
                    autoComplete={field.kind === 'secret' ? 'new-password' : 'off'}
                    hint={
                      field.kind === 'secret' && storedSecret(field.key) ? text.secretStored : text.mailHints[field.key]
                    }
                    error={fault}
                  />
                );
              })}
            </fieldset>
            <div className="st-test">
              <TextField
                label={text.testRecipient}
                type="email"
                value={testRecipient}
                onChange={setTestRecipient}
                hint={text.testRecipientHint}
                error={testRecipientError}
                autoComplete="email"
              />
              <button type="button" className="ws-button" onClick={test} disabled={busy !== null}>
                {busy === 'test' ? text.testing : text.sendTest}
              </button>
              {testResult &&
                (testResult.success ? (
                  <p role="status" className="ws-success">
                    {text.testSucceeded(testResult.message)}
                  </p>
                ) : (
                  <div role="alert" className="ws-error">
                    <p>{text.testFailed(text.steps[testResult.step ?? 'SEND'])}</p>
                    <p>{testResult.message}</p>
                  </div>
                ))}
              {testError ? <ApiErrorText error={testError} /> : null}
            </div>
          </>
        )}
        {error ? <ApiErrorText error={error} /> : null}
        <div className="ws-actions">
          <button type="submit" className="ws-button ws-button--primary" disabled={busy !== null}>
            {busy === 'save' ? text.saving : text.saveMailSettings}
          </button>
        </div>
        <StatusLine message={done} />
      </form>
    </div>
  );
}

/** The configuration keys a 400 names (missingKeys or keys in its responseBody), each with the API's sentence. */
function keysAtFault(error: unknown): Record<string, string> | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.responseBody as { missingKeys?: unknown; keys?: unknown } | undefined;
  const keys = Array.isArray(body?.missingKeys) ? body.missingKeys : Array.isArray(body?.keys) ? body.keys : null;
  if (!keys) return null;
  return Object.fromEntries(keys.filter((k): k is string => typeof k === 'string').map((k) => [k, error.message]));
}

const LOG_SIZE = 10;

function DeliveryLog() {
  const [page, setPage] = useState(0);
  const [status, setStatus] = useState('');
  const log = useResource(
    () => orgApi.mailDeliveries({ page, size: LOG_SIZE, status: status || undefined }),
    [page, status],
  );
  return (
    <div className="ws-card">
      <div className="ws-page-head">
        <h3>{text.deliveryLogTitle}</h3>
        <button type="button" className="ws-button ws-button--small" onClick={log.reload}>
          {text.refresh}
        </button>
      </div>
      <p className="ws-muted">{text.deliveryLogText}</p>
      <div className="ws-toolbar">
        <div>
          <label htmlFor="st-delivery-status">{text.statusFilter}</label>
          <select
            id="st-delivery-status"
            value={status}
            onChange={(e) => {
              setPage(0);
              setStatus(e.target.value);
            }}
          >
            <option value="">{text.allStatuses}</option>
            <option value="PENDING">{text.mailStatus.PENDING}</option>
            <option value="SENT">{text.mailStatus.SENT}</option>
            <option value="FAILED">{text.mailStatus.FAILED}</option>
          </select>
        </div>
      </div>
      {log.error ? <ApiErrorText error={log.error} /> : null}
      {log.data && (
        <>
          <div className="ws-table-wrap">
            <table className="ws-table">
              <caption>{text.deliveriesCaption(log.data.totalElements)}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.when}</th>
                  <th scope="col">{text.mailTo}</th>
                  <th scope="col">{text.subject}</th>
                  <th scope="col">{text.status}</th>
                  <th scope="col">{text.attempts}</th>
                  <th scope="col">{text.lastError}</th>
                </tr>
              </thead>
              <tbody>
                {log.data.content.map((d) => (
                  <tr key={d.id}>
                    <td>{formatDateTime(d.createdAt)}</td>
                    <td className="st-wrap">{d.to}</td>
                    <td className="st-wrap">{d.subject}</td>
                    <td>
                      <span
                        className={`ws-status ws-status--${d.status === 'SENT' ? 'COMPLETED' : d.status === 'FAILED' ? 'DECLINED' : 'SENT'}`}
                      >
                        {text.mailStatus[d.status]}
                      </span>
                    </td>
                    <td className="st-numbers">{d.attempts}</td>
                    <td className="st-wrap">{d.lastError ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {log.data.content.length === 0 && <p className="ws-empty">{text.noDeliveries}</p>}
          <Pager
            page={page}
            size={LOG_SIZE}
            total={log.data.totalElements}
            onPage={setPage}
            label={text.deliveriesPages}
          />
        </>
      )}
    </div>
  );
}
