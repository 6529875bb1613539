/**
 * Client-side navigation inside the web app: history.pushState plus an event every `useLocation` listens to.
 * A page outside the workspace (the signing page, sign-in) is left to the browser.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

const CHANGE = 'workspace:navigate';

/** Opens `path` (a path of this service) without reloading the page. */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  const url = new URL(path, window.location.origin);
  if (url.origin !== window.location.origin) {
    window.location.assign(path);
    return;
  }
  const target = url.pathname + url.search + url.hash;
  if (target === window.location.pathname + window.location.search + window.location.hash) return;
  if (options.replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  window.dispatchEvent(new Event(CHANGE));
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(CHANGE, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(CHANGE, onChange);
  };
}

/** The current path and query, re-rendering on navigation. */
export function useLocation(): { pathname: string; search: string } {
  const href = useSyncExternalStore(subscribe, () => `${window.location.pathname}\n${window.location.search}`);
  const [pathname, search] = href.split('\n');
  return { pathname, search };
}

/** The query parameters of the current location. */
export function useSearchParams(): URLSearchParams {
  return new URLSearchParams(useLocation().search);
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  replace?: boolean;
  children?: ReactNode;
};

/** An <a href> that navigates in place (a modified click, or a middle click, still opens a new tab as a link should). */
export function Link({ to, replace, onClick, children, ...rest }: LinkProps) {
  function click(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    if (rest.target && rest.target !== '_self') return;
    event.preventDefault();
    navigate(to, { replace });
  }
  return (
    <a href={to} onClick={click} {...rest}>
      {children}
    </a>
  );
}

/** Matches `/envelopes/:id/edit` style patterns (a trailing `/*` matches any rest); answers the decoded parameters. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const wildcard = pattern.endsWith('/*');
  const parts = (wildcard ? pattern.slice(0, -2) : pattern).split('/');
  const segments = path.split('/');
  if (wildcard ? segments.length < parts.length : segments.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.startsWith(':')) {
      if (!segments[i]) return null;
      try {
        params[part.slice(1)] = decodeURIComponent(segments[i]);
      } catch {
        return null;
      }
    } else if (part !== segments[i]) return null;
  }
  if (wildcard) params['*'] = segments.slice(parts.length).join('/');
  return params;
}
