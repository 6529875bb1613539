/**
 * /organization and /organization/<section>: members, roles, billing, branding, mail, business apps and webhook
 * deliveries. What the signed-in member may see is the API's decision: each section's first read is tried once
 * when the page opens; a section that answers 403 is left out of the navigation, and opening it anyway shows the
 * API's message. Owner-only actions are offered when the owner-only mail settings read succeeds (the API decides
 * again on every call, and a refusal is shown next to the action).
 */
import { useEffect, useState } from 'react';
import { ApiError } from '../shared/api.ts';
import { navigate } from '../workspace/router.tsx';
import type { PageProps } from '../workspace/routes.tsx';
import { ErrorNotice, useTitle } from '../workspace/ui.tsx';
import { api } from '../workspace/session-api.ts';
import { isForbidden, SectionNav } from './kit.tsx';
import { orgText as text } from '../i18n/organization/index.ts';
import { Invitations } from './Invitations.tsx';
import { MembersSection } from './MembersSection.tsx';
import { RolesSection } from './RolesSection.tsx';
import { BillingSection } from './BillingSection.tsx';
import { BrandingSection } from './BrandingSection.tsx';
import { MailSection } from './MailSection.tsx';
import { AppsSection } from './AppsSection.tsx';
import { WebhooksSection } from './WebhooksSection.tsx';
import { Skeleton } from '../shared/Skeleton.tsx';

export const SECTIONS = ['members', 'roles', 'billing', 'branding', 'mail', 'apps', 'webhooks'] as const;
export type Section = (typeof SECTIONS)[number];

/** The read that tells whether the caller may open a section (each the section's own first call). */
const PROBES: Record<Section, string> = {
  members: '/organization/v1/users?size=1',
  roles: '/user/v1/roles?size=1',
  billing: '/organization/v1/billing',
  // Every member reads the branding (it shows on their mails and signing pages), but changing it is the owner's alone
  // (SPEC.md "Permission rules"): the section is the owner's, as the mail settings are.
  branding: '/organization/v1/email-settings',
  mail: '/organization/v1/email-settings',
  apps: '/organization/v1/apps',
  webhooks: '/organization/v1/webhook-deliveries?size=1',
};

export type Access = Record<Section, 'allowed' | ApiError | 'unknown'>;

async function probeAccess(): Promise<Access> {
  const entries = await Promise.all(
    SECTIONS.map(async (section) => {
      try {
        await api.get(PROBES[section]);
        return [section, 'allowed'] as const;
      } catch (error) {
        return [section, isForbidden(error) ? (error as ApiError) : 'unknown'] as const;
      }
    }),
  );
  return Object.fromEntries(entries) as Access;
}

export function OrganizationPage({ params }: PageProps) {
  const requested = params.section as Section | undefined;
  const [access, setAccess] = useState<Access | null>(null);
  const section: Section | null =
    requested && (SECTIONS as readonly string[]).includes(requested)
      ? requested
      : access
        ? (SECTIONS.find((s) => !(access[s] instanceof ApiError)) ?? null)
        : null;
  useTitle(section ? `${text.sectionTitles[section]} – ${text.title}` : text.title);

  useEffect(() => {
    let live = true;
    void probeAccess().then((result) => live && setAccess(result));
    return () => {
      live = false;
    };
  }, []);

  // /organization opens the first section the member may see, without a history entry of its own.
  useEffect(() => {
    if (!requested && access && section) navigate(`/organization/${section}`, { replace: true });
  }, [requested, access, section]);

  if (requested && !(SECTIONS as readonly string[]).includes(requested)) {
    return (
      <div className="ws-page">
        <h1>{text.title}</h1>
        <ErrorNotice error={new Error(text.unknownSection)} />
      </div>
    );
  }

  const isOwner = access?.mail === 'allowed';
  // A section that failed for another reason than 403 stays: opening it shows that failure.
  const visible = access ? SECTIONS.filter((s) => !(access[s] instanceof ApiError) || s === section) : [];
  const denied = section && access && access[section] instanceof ApiError ? (access[section] as ApiError) : null;

  return (
    <div className="ws-page st-layout">
      <div className="st-layout-head">
        <h1>{text.title}</h1>
        <Invitations />
      </div>
      {access && visible.length > 0 && (
        <SectionNav
          label={text.sectionsNav}
          items={visible.map((s) => ({ to: `/organization/${s}`, label: text.sectionTitles[s] }))}
        />
      )}
      <div className="st-layout-body">
        {!access && <Skeleton shape="form" label={text.loading} withHeading={false} />}
        {access && !section && <ErrorNotice error={new Error(text.noAccess)} />}
        {access && section && denied && (
          <section aria-labelledby="st-section-title">
            <h2 id="st-section-title">{text.sectionTitles[section]}</h2>
            <ErrorNotice error={denied}>{text.sectionDenied}</ErrorNotice>
          </section>
        )}
        {access && section && !denied && <SectionBody section={section} isOwner={isOwner} />}
      </div>
    </div>
  );
}

function SectionBody({ section, isOwner }: { section: Section; isOwner: boolean }) {
  switch (section) {
    case 'members':
      return <MembersSection isOwner={isOwner} />;
    case 'roles':
      return <RolesSection />;
    case 'billing':
      return <BillingSection />;
    case 'branding':
      return <BrandingSection isOwner={isOwner} />;
    case 'mail':
      return <MailSection />;
    case 'apps':
      return <AppsSection isOwner={isOwner} />;
    case 'webhooks':
      return <WebhooksSection />;
  }
}
