import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: builds the web app (web/ → web/dist) once when it is missing or older than its
 * sources, so the routes that serve it and the browser tests see the current page. A child process, so
 * the build's Vite does not share state with Vitest's own.
 */
export default function setup() {
  const script = fileURLToPath(new URL('../../scripts/build-web.ts', import.meta.url));
  execFileSync(process.execPath, [script, '--if-stale'], { stdio: 'inherit' });
}
