/**
 * The sender's workspace: the layout (skip link, header with the app name, navigation landmarks, main landmark)
 * around the page the route table picks. The layout paints at once; the signed-in user's name fills in when
 * GET /bff/auth/me answers (a missing session sends the browser to sign in from there or from the page's first call).
 */
import { Component, Suspense, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { LanguageMenu } from '../i18n/LanguageMenu.tsx';
import { Skeleton } from '../shared/Skeleton.tsx';
import { shellText as text } from '../i18n/workspace/index.ts';
import { Link, useLocation } from './router.tsx';
import { findRoute, type WorkspaceRoute } from './routes.tsx';
import { signOut, useMe } from './session-api.ts';
import './workspace.css';

/** The navigation; labels are read at render time, so a change of language shows at once. */
const NAV: { to: string; label: 'documents' | 'templates' | 'organization' | 'profile' }[] = [
  { to: '/', label: 'documents' },
  { to: '/templates', label: 'templates' },
  { to: '/organization', label: 'organization' },
  { to: '/profile', label: 'profile' },
];

/**
 * The nav entry a path belongs to ("/" owns the dashboard and the envelope pages; a draft being made into a template,
 * `?for=template`, belongs to Templates).
 */
function currentArea(pathname: string, search: string): string {
  if (pathname.startsWith('/envelopes/') && new URLSearchParams(search).get('for') === 'template') return '/templates';
  const area = NAV.find((item) => item.to !== '/' && (pathname === item.to || pathname.startsWith(`${item.to}/`)));
  return area ? area.to : '/';
}

export function WorkspaceApp() {
  const { pathname, search } = useLocation();
  const found = findRoute(pathname);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  const menuId = useId();
  const [menuOpen, setMenuOpen] = useState(false);

  // The phone menu closes when a link in it is followed, and on Escape (focus goes back to its button).
  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    function onKey(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      document.querySelector<HTMLElement>('.ws-menu-button')?.focus();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  // After a client-side navigation, focus moves to the new page's heading (or the main landmark), as a page load would reset it.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    window.scrollTo(0, 0);
    const timer = window.setTimeout(() => {
      const heading = main.current?.querySelector<HTMLElement>('h1');
      const target = heading ?? main.current;
      if (!target) return;
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus();
    }, 0);
    return () => window.clearTimeout(timer);
  }, [pathname]);

  const content = found ? (
    <RoutePage key={found.route.path + pathname} route={found.route} params={found.params} />
  ) : (
    <NotFound />
  );

  if (found?.route.public) {
    return (
      <>
        <a className="skip-link" href="#main">
          {text.skipToContent}
        </a>
        <header className="ws-header ws-header--public">
          <span className="ws-app-name">{text.appName}</span>
          <LanguageMenu />
        </header>
        <main id="main" ref={main} className="ws-main ws-main--narrow" tabIndex={-1}>
          {content}
        </main>
      </>
    );
  }
  return (
    <>
      <a className="skip-link" href="#main">
        {text.skipToContent}
      </a>
      <header className={menuOpen ? 'ws-header ws-header--open' : 'ws-header'}>
        <Link to="/" className="ws-app-name">
          {text.appName}
        </Link>
        {/* On a phone the header keeps one line: the navigation and the account fold behind this button (CSS shows it). */}
        <button
          type="button"
          className="ws-button ws-button--quiet ws-menu-button"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen((open) => !open)}
        >
          {text.menu}
        </button>
        <div id={menuId} className="ws-menu">
          <nav aria-label={text.mainNav} className="ws-nav">
            <ul>
              {NAV.map((item) => (
                <li key={item.to}>
                  <Link to={item.to} aria-current={currentArea(pathname, search) === item.to ? 'page' : undefined}>
                    {text[item.label]}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <AccountMenu />
        </div>
      </header>
      <main id="main" ref={main} className="ws-main" tabIndex={-1}>
        {content}
      </main>
    </>
  );
}

function AccountMenu() {
  const { me } = useMe();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  async function leave() {
    setBusy(true);
    setFailed(false);
    try {
      await signOut();
    } catch {
      setBusy(false);
      setFailed(true);
    }
  }
  return (
    <nav aria-label={text.accountNav} className="ws-account">
      {/* Inside the account area: beside it on a wide screen, folded behind Menu on a phone (the header keeps one line). */}
      <LanguageMenu className="ws-language" />
      {me && <span className="ws-user">{text.signedInAs(me.name)}</span>}
      <button type="button" className="ws-button ws-button--quiet" onClick={leave} disabled={busy} aria-disabled={busy}>
        {busy ? text.signingOut : text.signOut}
      </button>
      {failed && (
        <p role="alert" className="ws-error-inline">
          {text.signOutFailed}
        </p>
      )}
    </nav>
  );
}

function RoutePage({ route, params }: { route: WorkspaceRoute; params: Record<string, string> }) {
  const Page = route.component;
  return (
    <PageBoundary>
      <Suspense fallback={<Skeleton shape={route.skeleton ?? 'form'} label={text.loading} />}>
        <Page params={params} />
      </Suspense>
    </PageBoundary>
  );
}

/** A page that throws while rendering (or whose chunk fails to load) shows a message instead of a blank screen. */
class PageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="ws-page">
        <h1>{text.pageFailedTitle}</h1>
        <p>{text.pageFailedText}</p>
        <button type="button" className="ws-button" onClick={() => window.location.reload()}>
          {text.reload}
        </button>
      </div>
    );
  }
}

function NotFound() {
  useEffect(() => {
    document.title = `${text.notFoundTitle} – ${text.appName}`;
  }, []);
  return (
    <div className="ws-page">
      <h1>{text.notFoundTitle}</h1>
      <p>{text.notFoundText}</p>
      <p>
        <Link to="/">{text.backToDocuments}</Link>
      </p>
    </div>
  );
}
