/** /profile (account, language, notifications), /profile/security (two-factor sign-in, passkeys), /profile/signatures (library). */
import { useState } from 'react';
import type { PageProps } from '../workspace/routes.tsx';
import { ErrorNotice, useTitle } from '../workspace/ui.tsx';
import { ApiErrorText, SectionNav, StatusLine, useResource } from '../organization/kit.tsx';
import { profileText as text } from '../i18n/profile/index.ts';
import { NOTIFICATIONS, profileApi, type Notifications, type Profile } from './profile-api.ts';
import { SecuritySection } from './SecuritySection.tsx';
import { SignaturesSection } from './SignaturesSection.tsx';
import { Skeleton } from '../shared/Skeleton.tsx';

const SECTIONS = ['account', 'security', 'signatures'] as const;
type Section = (typeof SECTIONS)[number];

export function ProfilePage({ params }: PageProps) {
  const section = (params.section ?? 'account') as Section;
  const known = (SECTIONS as readonly string[]).includes(section);
  useTitle(known ? `${text.sectionTitles[section]} – ${text.title}` : text.title);
  const profile = useResource(() => profileApi.profile(), []);
  return (
    <div className="ws-page st-narrow">
      <h1>{text.title}</h1>
      <SectionNav
        label={text.sectionsNav}
        items={SECTIONS.map((s) => ({
          to: s === 'account' ? '/profile' : `/profile/${s}`,
          label: text.sectionTitles[s],
        }))}
      />
      {!known && <ErrorNotice error={new Error(text.unknownSection)} />}
      {profile.error ? <ApiErrorText error={profile.error} /> : null}
      {known && !profile.data && !profile.error && <Skeleton shape="form" label={text.loading} withHeading={false} />}
      {profile.data && section === 'account' && <AccountSection profile={profile.data} />}
      {profile.data && section === 'security' && (
        <SecuritySection profile={profile.data} onChange={(p) => profile.setData(p)} />
      )}
      {profile.data && section === 'signatures' && <SignaturesSection profile={profile.data} />}
    </div>
  );
}

function AccountSection({ profile }: { profile: Profile }) {
  return (
    <>
      <section className="ws-card" aria-labelledby="st-account-title">
        <h2 id="st-account-title">{text.accountTitle}</h2>
        <dl className="ws-dl">
          <dt>{text.name}</dt>
          <dd>{profile.name}</dd>
          <dt>{text.email}</dt>
          <dd>{profile.email}</dd>
        </dl>
        <p className="ws-muted">{text.accountReadOnly}</p>
        <p className="ws-muted">{text.passwordNote}</p>
      </section>
      <LocaleCard current={profile.locale} />
      <NotificationsCard />
    </>
  );
}

function LocaleCard({ current }: { current: string }) {
  const [locale, setLocale] = useState(current);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const options = { ...text.locales, ...(text.locales[current] ? {} : { [current]: current }) };
  async function save() {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const saved = await profileApi.setLocale(locale);
      setLocale(saved.locale);
      setDone(text.localeSaved(options[saved.locale] ?? saved.locale));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="ws-card" aria-labelledby="st-locale-title">
      <h2 id="st-locale-title">{text.languageTitle}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <div className="st-field">
          <label htmlFor="st-locale" className="st-label">
            {text.locale}
          </label>
          <select
            id="st-locale"
            value={locale}
            onChange={(e) => setLocale(e.target.value)}
            aria-describedby="st-locale-hint"
          >
            {Object.entries(options).map(([tag, name]) => (
              <option key={tag} value={tag} lang={tag}>
                {name}
              </option>
            ))}
          </select>
          <p id="st-locale-hint" className="st-hint">
            {text.localeHint}
          </p>
        </div>
        {error ? <ApiErrorText error={error} /> : null}
        <button type="submit" className="ws-button" disabled={busy}>
          {busy ? text.saving : text.saveLocale}
        </button>
        <StatusLine message={done} />
      </form>
    </section>
  );
}

function NotificationsCard() {
  const loaded = useResource(() => profileApi.notifications(), []);
  const [changes, setChanges] = useState<Partial<Notifications>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const values = loaded.data ? { ...loaded.data, ...changes } : null;
  async function save() {
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      loaded.setData(await profileApi.setNotifications(changes));
      setChanges({});
      setDone(text.notificationsSaved);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return (
    <section className="ws-card" aria-labelledby="st-notifications-title">
      <h2 id="st-notifications-title">{text.notificationsTitle}</h2>
      {loaded.error ? <ApiErrorText error={loaded.error} /> : null}
      {values && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <fieldset className="st-fieldset st-plain" aria-describedby="st-notifications-hint">
            <legend className="st-label">{text.notificationsLegend}</legend>
            {NOTIFICATIONS.map((name) => (
              <label key={name} className="checkbox">
                <input
                  type="checkbox"
                  checked={values[name]}
                  onChange={(e) => setChanges((c) => ({ ...c, [name]: e.target.checked }))}
                />{' '}
                {text.notifications[name]}
              </label>
            ))}
          </fieldset>
          <p id="st-notifications-hint" className="st-hint">
            {text.notificationsHint}
          </p>
          {error ? <ApiErrorText error={error} /> : null}
          <button type="submit" className="ws-button" disabled={busy}>
            {busy ? text.saving : text.saveNotifications}
          </button>
          <StatusLine message={done} />
        </form>
      )}
    </section>
  );
}
