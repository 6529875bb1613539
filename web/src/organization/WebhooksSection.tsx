/**
 * Webhook deliveries (owner only): each event for each app, its attempts and last answer; details and redelivery.
 * Deliveries held for an app whose webhooks are paused show as Paused; redelivering one resumes the app.
 */
import { useState } from 'react';
import { formatDateTime } from '../workspace/ui.tsx';
import { Link } from '../workspace/router.tsx';
import { ApiErrorText, FormDialog, Pager, StatusLine, useResource } from './kit.tsx';
import { orgText as text } from '../i18n/organization/index.ts';
import { orgApi, type WebhookDelivery } from './org-api.ts';

const PAGE_SIZE = 20;
/** Which envelope status colour each delivery status borrows. */
const STATUS_LOOK: Record<string, string> = {
  DELIVERED: 'COMPLETED',
  DEAD: 'DECLINED',
  PENDING: 'SENT',
  PAUSED: 'DRAFT',
};

export function WebhooksSection() {
  const [page, setPage] = useState(0);
  const [status, setStatus] = useState('');
  const [appId, setAppId] = useState('');
  const apps = useResource(() => orgApi.apps().catch(() => []), []);
  const deliveries = useResource(
    () =>
      orgApi.webhookDeliveries({
        page,
        size: PAGE_SIZE,
        status: status || undefined,
        appId: appId ? Number(appId) : undefined,
      }),
    [page, status, appId],
  );
  const [details, setDetails] = useState<WebhookDelivery | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [rowError, setRowError] = useState<{ id: number; error: unknown } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const appName = (id: number) => apps.data?.find((a) => a.id === id)?.appName ?? String(id);

  async function redeliver(delivery: WebhookDelivery) {
    setBusy(delivery.id);
    setRowError(null);
    try {
      const replay = await orgApi.replayDelivery(delivery.id);
      const paused = apps.data?.find((a) => a.id === delivery.appId)?.callbackPausedAt;
      setDone(
        paused
          ? text.resumed(appName(delivery.appId))
          : text.redelivered(text.eventTypes[delivery.eventType] ?? delivery.eventType, replay.id),
      );
      deliveries.reload();
      if (paused) apps.reload();
    } catch (failure) {
      setRowError({ id: delivery.id, error: failure });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section aria-labelledby="st-section-title">
      <div className="ws-page-head">
        <h2 id="st-section-title">{text.sectionTitles.webhooks}</h2>
        <button type="button" className="ws-button ws-button--small" onClick={deliveries.reload}>
          {text.refresh}
        </button>
      </div>
      <p className="ws-muted">{text.webhooksIntro}</p>
      {(apps.data ?? []).some((a) => a.callbackPausedAt) && (
        <p className="st-notice">
          {text.pausedApps(
            (apps.data ?? [])
              .filter((a) => a.callbackPausedAt)
              .map((a) => a.appName)
              .join(', '),
          )}
        </p>
      )}
      <div className="ws-toolbar">
        <div>
          <label htmlFor="st-hook-status">{text.statusFilter}</label>
          <select
            id="st-hook-status"
            value={status}
            onChange={(e) => {
              setPage(0);
              setStatus(e.target.value);
            }}
          >
            <option value="">{text.allStatuses}</option>
            <option value="PENDING">{text.hookStatus.PENDING}</option>
            <option value="DELIVERED">{text.hookStatus.DELIVERED}</option>
            <option value="DEAD">{text.hookStatus.DEAD}</option>
            <option value="PAUSED">{text.hookStatus.PAUSED}</option>
          </select>
        </div>
        <div>
          <label htmlFor="st-hook-app">{text.appFilter}</label>
          <select
            id="st-hook-app"
            value={appId}
            onChange={(e) => {
              setPage(0);
              setAppId(e.target.value);
            }}
          >
            <option value="">{text.allApps}</option>
            {(apps.data ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.appName}
              </option>
            ))}
          </select>
        </div>
      </div>
      <StatusLine message={done} />
      {deliveries.error ? <ApiErrorText error={deliveries.error} /> : null}
      {deliveries.data && (
        <>
          <div className="ws-table-wrap">
            <table className="ws-table">
              <caption>{text.hooksCaption(deliveries.data.totalElements)}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.when}</th>
                  <th scope="col">{text.event}</th>
                  <th scope="col">{text.appName}</th>
                  <th scope="col">{text.envelope}</th>
                  <th scope="col">{text.status}</th>
                  <th scope="col">{text.attempts}</th>
                  <th scope="col">{text.lastAnswer}</th>
                  <th scope="col">{text.actions}</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.data.content.map((d) => (
                  <tr key={d.id}>
                    <td>{formatDateTime(d.createdAt)}</td>
                    <td>
                      {text.eventTypes[d.eventType] ?? d.eventType}
                      {d.replayOfId !== null && (
                        <span className="ws-muted st-block">{text.replayOf(d.replayOfId)}</span>
                      )}
                    </td>
                    <td>{appName(d.appId)}</td>
                    <td>
                      <Link to={`/envelopes/${d.workflowId}`}>{d.workflowId}</Link>
                    </td>
                    <td>
                      <span className={`ws-status ws-status--${STATUS_LOOK[d.status] ?? 'SENT'}`}>
                        {text.hookStatus[d.status]}
                      </span>
                      {d.status === 'PENDING' && d.nextAttemptAt && (
                        <span className="ws-muted st-block">{text.nextAttempt(formatDateTime(d.nextAttemptAt))}</span>
                      )}
                      {d.status === 'PAUSED' && <span className="ws-muted st-block">{text.heldHint}</span>}
                    </td>
                    <td className="st-numbers">{d.attempts}</td>
                    <td className="st-wrap">
                      {d.lastStatusCode !== null ? `HTTP ${d.lastStatusCode}` : ''}
                      {d.lastError ? ` ${d.lastError}` : ''}
                    </td>
                    <td>
                      <div className="st-row-actions">
                        <button
                          type="button"
                          className="ws-button ws-button--small"
                          aria-label={text.detailsOf(d.id)}
                          onClick={() => setDetails(d)}
                        >
                          {text.details}
                        </button>
                        {d.status !== 'PENDING' && (
                          <button
                            type="button"
                            className="ws-button ws-button--small ws-button--quiet"
                            disabled={busy === d.id}
                            aria-label={text.redeliverOf(d.id)}
                            onClick={() => redeliver(d)}
                          >
                            {text.redeliver}
                          </button>
                        )}
                      </div>
                      {rowError?.id === d.id && <ApiErrorText error={rowError.error} />}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {deliveries.data.content.length === 0 && <p className="ws-empty">{text.noHooks}</p>}
          <Pager
            page={page}
            size={PAGE_SIZE}
            total={deliveries.data.totalElements}
            onPage={setPage}
            label={text.hooksPages}
          />
        </>
      )}
      {details && <DeliveryDetails delivery={details} onClose={() => setDetails(null)} />}
    </section>
  );
}

function DeliveryDetails({ delivery, onClose }: { delivery: WebhookDelivery; onClose: () => void }) {
  const detail = useResource(() => orgApi.webhookDelivery(delivery.id), [delivery.id]);
  return (
    <FormDialog
      open
      wide
      noCancel
      title={text.deliveryTitle(delivery.id)}
      submitLabel={text.close}
      onSubmit={onClose}
      onClose={onClose}
    >
      <dl className="ws-dl">
        <dt>{text.eventId}</dt>
        <dd className="st-mono">{delivery.eventId}</dd>
        <dt>{text.lastAttempt}</dt>
        <dd>{formatDateTime(delivery.lastAttemptAt) || text.none}</dd>
        <dt>{text.deliveredAt}</dt>
        <dd>{formatDateTime(delivery.deliveredAt) || text.none}</dd>
      </dl>
      {detail.error ? <ApiErrorText error={detail.error} /> : null}
      {detail.data && (
        <>
          <h3 id="st-payload-title">{text.payload}</h3>
          <pre className="st-code" tabIndex={0} aria-labelledby="st-payload-title">
            {JSON.stringify(detail.data.payload, null, 2)}
          </pre>
        </>
      )}
    </FormDialog>
  );
}
