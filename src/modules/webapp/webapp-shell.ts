import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where `npm run build:web` (Vite) writes the web app: index.html plus hashed files under assets/. */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../../web/dist/', import.meta.url));
export const WEB_ASSETS_DIR = fileURLToPath(new URL('../../../web/dist/assets/', import.meta.url));

/**
 * The Content-Security-Policy of every web-app page: scripts, styles, fonts and the pdf.js worker only from
 * this origin, no inline script. blob: for images and workers because pdf.js and the signature pad create
 * object URLs; data: for images because signature values are PNG data URLs.
 */
export const WEB_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** Headers of an HTML page of the web app: never cached (it names the current asset hashes), never indexed. */
export const WEB_PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': WEB_PAGE_CSP,
  'x-robots-tag': 'noindex',
};

let cached: { mtimeMs: number; html: string } | null = null;

/**
 * The built HTML shell, or null when the web app has not been built (a bare `node src/main.ts` without
 * `npm start`). Re-read when the file changes, so a rebuild while the service runs is picked up.
 */
export function webShell(): string | null {
  const file = `${WEB_DIST_DIR}index.html`;
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
  if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, html: fs.readFileSync(file, 'utf8') };
  return cached.html;
}

/**
 * The shell with a <noscript> notice in place of the empty root: what a browser without JavaScript (or a
 * mail scanner) sees. `notice` is trusted text from this service, never request input.
 */
export function webShellWithNotice(notice: { title: string; text: string }): string | null {
  const html = webShell();
  if (html === null) return null;
  return html.replace(
    '<div id="root"></div>',
    `<div id="root"></div><noscript><h1>${notice.title}</h1><p>${notice.text}</p></noscript>`,
  );
}
