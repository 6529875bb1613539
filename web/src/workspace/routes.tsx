/**
 * The workspace's pages by path. Each page is its own chunk (loaded when first opened), so the dashboard's first
 * paint never waits for the editor's PDF engine. A pattern's `:name` segments arrive as `params`; a trailing `/*`
 * matches any rest (params['*']). The most specific pattern wins (static segments before parameters), so the order
 * of the list does not matter. `public: true` pages need no session and show no workspace navigation.
 *
 * Other areas add one line each, pointing at a page component in their own folder, e.g.
 *   { path: '/envelopes/new', component: page(() => import('../editor/UploadPage.tsx'), 'UploadPage') },
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { languageReady } from '../i18n/catalogue.ts';
import type { SkeletonShape } from '../shared/Skeleton.tsx';
import { matchPath } from './router.tsx';

/** What every page component receives. */
export type PageProps = { params: Record<string, string> };

export type WorkspaceRoute = {
  path: string;
  component: LazyExoticComponent<ComponentType<PageProps>> | ComponentType<PageProps>;
  public?: boolean;
  /** The shape shown while the page's code loads (default: a form). */
  skeleton?: SkeletonShape;
};

/**
 * A page loaded on first use: `page(() => import('./X.tsx'), 'X')` for `export function X(props: PageProps)`.
 * The page's catalogues (the message areas its chunk brought) load in the page's language before it first renders,
 * so a German page never flashes its English text.
 */
export function page<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M & string,
): LazyExoticComponent<ComponentType<PageProps>> {
  return lazy(async () => {
    const loaded = await load();
    await languageReady();
    return { default: loaded[name] as ComponentType<PageProps> };
  });
}

// One lazy component per page module, shared by its paths: /organization → /organization/members then renders the
// loaded page at once instead of suspending on a second lazy wrapper of the same module (a moment without its heading).
const organizationPage = page(() => import('../organization/OrganizationPage.tsx'), 'OrganizationPage');
const profilePage = page(() => import('../profile/ProfilePage.tsx'), 'ProfilePage');

export const routes: WorkspaceRoute[] = [
  { path: '/', skeleton: 'list', component: page(() => import('./DashboardPage.tsx'), 'DashboardPage') },
  { path: '/signup', public: true, component: page(() => import('./SignUpPage.tsx'), 'SignUpPage') },
  {
    path: '/verify-email/:code',
    public: true,
    component: page(() => import('./VerifyEmailPage.tsx'), 'VerifyEmailPage'),
  },
  { path: '/envelopes/:id', skeleton: 'document', component: page(() => import('./EnvelopePage.tsx'), 'EnvelopePage') },
  { path: '/envelopes/new', component: page(() => import('../editor/NewEnvelopePage.tsx'), 'NewEnvelopePage') },
  {
    path: '/envelopes/:id/edit',
    skeleton: 'document',
    component: page(() => import('../editor/EditorPage.tsx'), 'EditorPage'),
  },
  {
    path: '/templates',
    skeleton: 'list',
    component: page(() => import('../templates/TemplatesPage.tsx'), 'TemplatesPage'),
  },
  { path: '/templates/new', component: page(() => import('../editor/NewEnvelopePage.tsx'), 'NewTemplatePage') },
  { path: '/templates/:id/dispatch', component: page(() => import('../templates/DispatchPage.tsx'), 'DispatchPage') },
  {
    path: '/templates/:id/analytics',
    skeleton: 'list',
    component: page(() => import('../templates/AnalyticsPage.tsx'), 'AnalyticsPage'),
  },
  { path: '/organization', component: organizationPage },
  { path: '/organization/:section', component: organizationPage },
  { path: '/profile', component: profilePage },
  { path: '/profile/:section', component: profilePage },
];

/** How specific a pattern is: more static segments first, then fewer parameters, a wildcard last. */
function rank(path: string): number {
  const parts = path.split('/').filter(Boolean);
  const statics = parts.filter((part) => !part.startsWith(':') && part !== '*').length;
  return statics * 100 - (parts.length - statics) - (path.endsWith('/*') ? 50 : 0) + parts.length * 1000;
}

/** The route for a path (most specific match), or null when the path is not the workspace's. */
export function findRoute(pathname: string): { route: WorkspaceRoute; params: Record<string, string> } | null {
  let best: { route: WorkspaceRoute; params: Record<string, string>; rank: number } | null = null;
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (!params) continue;
    const score = rank(route.path);
    if (!best || score > best.rank) best = { route, params, rank: score };
  }
  return best && { route: best.route, params: best.params };
}

/** The top-level areas the workspace navigation names (their pages may live in other folders). */
export const WORKSPACE_PREFIXES = ['/envelopes', '/templates', '/organization', '/profile'];

/** Whether the web app should show this path inside the workspace (a known page, or an unknown path of a workspace area). */
export function isWorkspacePath(pathname: string): boolean {
  return (
    findRoute(pathname) !== null ||
    WORKSPACE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
  );
}
