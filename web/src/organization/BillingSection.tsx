/**
 * The package, its credits and expiry; renewing it, or moving to another preset package. Priced packages belong to
 * the operator (RUNTIME.md): unless the service reports self-service, they are shown without a button, saying who
 * grants and renews them, so no button here can only answer PAYMENT_REQUIRED.
 */
import { useState } from 'react';
import { formatNumber } from '../i18n/language.ts';
import { formatDateTime } from '../workspace/ui.tsx';
import { ApiErrorText, StatusLine, useResource } from './kit.tsx';
import { ConfirmAction } from './MembersSection.tsx';
import { orgText as text } from '../i18n/organization/index.ts';
import { orgApi, type Billing, type Package } from './org-api.ts';

export function BillingSection() {
  const billing = useResource(() => orgApi.billing(), []);
  const packages = useResource(() => orgApi.packages(), []);
  const [confirm, setConfirm] = useState<{ kind: 'renew' } | { kind: 'change'; pkg: Package } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const current = billing.data;
  const mayChoose = (pkg: Package) => current?.selfService === true || pkg.creditsPrice === 0;

  function finished(updated: Billing, message: string) {
    setConfirm(null);
    billing.setData(updated);
    setDone(message);
  }

  return (
    <section aria-labelledby="st-section-title">
      <h2 id="st-section-title">{text.sectionTitles.billing}</h2>
      <StatusLine message={done} />
      {billing.error ? <ApiErrorText error={billing.error} /> : null}
      {current && (
        <div className="ws-card">
          <h3>{text.currentPackage(current.package.name)}</h3>
          <dl className="ws-dl">
            <dt>{text.plan}</dt>
            <dd>{current.package.servicePlan}</dd>
            <dt>{text.creditsLeft}</dt>
            <dd>{text.creditsOf(current.credits, current.package.credits)}</dd>
            <dt>{text.cycleStarted}</dt>
            <dd>{formatDateTime(current.packageStartedAt)}</dd>
            <dt>{text.expires}</dt>
            <dd>
              {formatDateTime(current.packageExpiresAt)}
              {current.expired && <strong className="st-danger-text"> {text.expired}</strong>}
            </dd>
          </dl>
          {!current.servicePlanActive && <p className="st-danger-text">{text.planInactive}</p>}
          <meter
            className="st-meter"
            min={0}
            max={Math.max(1, current.package.credits)}
            value={current.credits}
            aria-label={text.creditsMeter}
          >
            {text.creditsOf(current.credits, current.package.credits)}
          </meter>
          {!mayChoose(current.package) ? (
            <p className="st-hint">{text.operatorRenews(current.package.name)}</p>
          ) : // Without self-service a free package's cycle is its allowance: it starts again once the running one has ended.
          !current.selfService && !current.expired ? (
            <p className="st-hint">
              {text.renewsWhenEnded(current.package.name, formatDateTime(current.packageExpiresAt))}
            </p>
          ) : (
            <div className="ws-actions">
              <button type="button" className="ws-button" onClick={() => setConfirm({ kind: 'renew' })}>
                {text.renewPackage}
              </button>
            </div>
          )}
        </div>
      )}
      <h3>{text.packagesTitle}</h3>
      {current && !current.selfService && <p className="st-hint">{text.pricedByOperator}</p>}
      {packages.error ? <ApiErrorText error={packages.error} /> : null}
      {packages.data && (
        <ul className="st-cards">
          {packages.data.content.map((pkg) => {
            const isCurrent = current?.package.id === pkg.id;
            return (
              <li key={pkg.id} className={isCurrent ? 'ws-card st-package st-package--current' : 'ws-card st-package'}>
                <h4>
                  {pkg.name}
                  {isCurrent && <span className="st-badge">{text.currentBadge}</span>}
                </h4>
                <p>{pkg.description}</p>
                <dl className="ws-dl">
                  <dt>{text.credits}</dt>
                  <dd>{formatNumber(pkg.credits)}</dd>
                  <dt>{text.duration}</dt>
                  <dd>{text.days(pkg.duration)}</dd>
                  <dt>{text.pricePerCredit}</dt>
                  <dd>
                    {`${pkg.currencySymbol}${formatNumber(pkg.creditsPrice)}`}
                    {pkg.discount > 0 ? ` (${text.discount(pkg.discount)})` : ''}
                  </dd>
                </dl>
                {!isCurrent &&
                  pkg.status === 'ACTIVE' &&
                  current &&
                  (mayChoose(pkg) ? (
                    <button type="button" className="ws-button" onClick={() => setConfirm({ kind: 'change', pkg })}>
                      {text.switchToNamed(pkg.name)}
                    </button>
                  ) : (
                    <p className="st-hint">{text.operatorGrants(pkg.name)}</p>
                  ))}
              </li>
            );
          })}
        </ul>
      )}
      {confirm?.kind === 'renew' && current && (
        <ConfirmAction
          title={text.renewTitle(current.package.name)}
          description={text.cycleText}
          submitLabel={text.renewPackage}
          run={async () => finished(await orgApi.renewPackage(current.orgId), text.renewed(current.package.name))}
          onClose={() => setConfirm(null)}
          onDone={() => {}}
        />
      )}
      {confirm?.kind === 'change' && current && (
        <ConfirmAction
          title={text.switchTitle(confirm.pkg.name)}
          description={text.cycleText}
          submitLabel={text.switchTo}
          run={async () =>
            finished(await orgApi.changePackage(current.orgId, confirm.pkg.id), text.switched(confirm.pkg.name))
          }
          onClose={() => setConfirm(null)}
          onDone={() => {}}
        />
      )}
    </section>
  );
}
