/** /templates/:id/analytics: completion, time to sign and field drop-off of the envelopes made from a template. */
import { Link } from '../workspace/router.tsx';
import type { PageProps } from '../workspace/routes.tsx';
import { formatDateTime, useTitle } from '../workspace/ui.tsx';
import { ApiErrorText, useResource } from '../organization/kit.tsx';
import { BarChart } from './BarChart.tsx';
import { templatesText as text } from '../i18n/templates/index.ts';
import { templatesApi, type DropOff, type FullAnalytics } from './templates-api.ts';
import './templates.css';
import { Skeleton } from '../shared/Skeleton.tsx';

const COUNT_KEYS = ['completed', 'inProgress', 'draft', 'void', 'other'] as const;
const BUCKETS = ['under1h', 'under1d', 'under3d', 'under7d', 'over7d'] as const;

export function AnalyticsPage({ params }: PageProps) {
  const id = Number(params.id);
  const analytics = useResource(() => templatesApi.analytics(id), [id]);
  const dropOff = useResource(() => templatesApi.dropOff(id), [id]);
  const name = analytics.data?.templateName ?? dropOff.data?.templateName ?? '';
  useTitle(name ? text.analyticsTitle(name) : text.analytics);
  return (
    <div className="ws-page">
      <p>
        <Link to="/templates">{text.backToTemplates}</Link>
      </p>
      <h1>{name ? text.analyticsTitle(name) : text.analytics}</h1>
      {analytics.error ? <ApiErrorText error={analytics.error} /> : null}
      {!analytics.data && !analytics.error && <Skeleton shape="form" label={text.loading} withHeading={false} />}
      <div className="tp-analytics">
        {analytics.data && <CompletionCard data={analytics.data} />}
        {analytics.data && <TimeCard data={analytics.data.timeToSign} />}
      </div>
      {dropOff.error ? <ApiErrorText error={dropOff.error} /> : null}
      {dropOff.data && <DropOffCard data={dropOff.data} />}
    </div>
  );
}

function CompletionCard({ data }: { data: FullAnalytics }) {
  const total = data.counts.total;
  const share = (n: number) => (total > 0 ? text.percent(n / total) : '0%');
  return (
    <section className="ws-card" aria-labelledby="tp-completion-title">
      <h2 id="tp-completion-title">{text.completionTitle}</h2>
      <p className="tp-big">{text.percent(data.completionRate)}</p>
      <p>
        {text.completionRate(text.percent(data.completionRate))} {text.completionSummary(total)}
      </p>
      <BarChart
        title={text.completionChart}
        bars={COUNT_KEYS.map((key) => ({
          label: text.countLabels[key],
          value: data.counts[key],
          display: String(data.counts[key]),
        }))}
        table={
          <table className="ws-table">
            <caption>{text.completionChart}</caption>
            <thead>
              <tr>
                <th scope="col">{text.status}</th>
                <th scope="col">{text.envelopes}</th>
                <th scope="col">{text.share}</th>
              </tr>
            </thead>
            <tbody>
              {COUNT_KEYS.map((key) => (
                <tr key={key}>
                  <th scope="row">{text.countLabels[key]}</th>
                  <td>{data.counts[key]}</td>
                  <td>{share(data.counts[key])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        }
      />
    </section>
  );
}

function TimeCard({ data }: { data: FullAnalytics['timeToSign'] }) {
  return (
    <section className="ws-card" aria-labelledby="tp-time-title">
      <h2 id="tp-time-title">{text.timeTitle}</h2>
      {data.sampleSize === 0 || data.avgHours === null || data.medianHours === null || data.p90Hours === null ? (
        <p>{text.timeNone}</p>
      ) : (
        <p>
          {text.timeSummary(
            data.sampleSize,
            text.hours(data.avgHours),
            text.hours(data.medianHours),
            text.hours(data.p90Hours),
          )}
        </p>
      )}
      <BarChart
        title={text.timeChart}
        colourByIndex={false}
        bars={BUCKETS.map((key) => ({
          label: text.buckets[key],
          value: data.distribution[key],
          display: String(data.distribution[key]),
        }))}
        table={
          <table className="ws-table">
            <caption>{text.timeChart}</caption>
            <thead>
              <tr>
                <th scope="col">{text.time}</th>
                <th scope="col">{text.envelopes}</th>
              </tr>
            </thead>
            <tbody>
              {BUCKETS.map((key) => (
                <tr key={key}>
                  <th scope="row">{text.buckets[key]}</th>
                  <td>{data.distribution[key]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        }
      />
    </section>
  );
}

function DropOffCard({ data }: { data: DropOff }) {
  const plain = data.fields.map((f) => text.fieldLabel(f.label, f.fieldType, f.pageNo));
  const seen = new Map<string, number>();
  const labels = plain.map((label) => {
    if (plain.filter((other) => other === label).length === 1) return label;
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    return text.numbered(label, n);
  });
  return (
    <section className="ws-card" aria-labelledby="tp-dropoff-title">
      <h2 id="tp-dropoff-title">{text.dropOffTitle}</h2>
      <p>{text.dropOffSummary(data.totalSessions, formatDateTime(data.collectingSince))}</p>
      {data.totalSessions === 0 && <p className="ws-muted">{text.dropOffNone}</p>}
      {data.fields.length > 0 && (
        <BarChart
          title={text.dropOffChart}
          max={1}
          colourByIndex={false}
          bars={data.fields.map((f, i) => ({
            label: labels[i],
            value: f.dropOffRate,
            display: text.percent(f.dropOffRate),
            ...(f.lowSample ? { note: text.lowSample } : {}),
          }))}
          table={
            <table className="ws-table">
              <caption>{text.dropOffChart}</caption>
              <thead>
                <tr>
                  <th scope="col">{text.field}</th>
                  <th scope="col">{text.reached}</th>
                  <th scope="col">{text.filled}</th>
                  <th scope="col">{text.dropOff}</th>
                  <th scope="col">{text.recoveries}</th>
                </tr>
              </thead>
              <tbody>
                {data.fields.map((f, i) => (
                  <tr key={f.placeholderKey}>
                    <th scope="row">{labels[i]}</th>
                    <td>{f.reached}</td>
                    <td>{f.completed}</td>
                    <td>
                      {text.percent(f.dropOffRate)}
                      {f.lowSample ? ` (${text.lowSample})` : ''}
                    </td>
                    <td>{f.confusionRecoveries}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        />
      )}
    </section>
  );
}
