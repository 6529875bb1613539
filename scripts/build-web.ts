/**
 * Builds the web app (web/ → web/dist) with Vite. `npm ci` runs it (prepare), `npm start` runs it with
 * --if-stale (prestart) so a checkout started without a build still serves its pages, and the test suite's
 * global setup runs it the same way. --if-stale builds only when web/dist/index.html is missing or older than
 * any source file of the app.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const webDir = fileURLToPath(new URL('../web/', import.meta.url));

function newestSourceMtime(): number {
  let newest = 0;
  const visit = (entry: string) => {
    const stat = fs.statSync(entry);
    if (stat.isDirectory()) {
      for (const child of fs.readdirSync(entry)) visit(path.join(entry, child));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const entry of ['src', 'index.html', 'vite.config.ts', 'tsconfig.json']) visit(path.join(webDir, entry));
  return newest;
}

export function webBuildIsStale(): boolean {
  const built = fs.statSync(path.join(webDir, 'dist', 'index.html'), { throwIfNoEntry: false });
  return !built || built.mtimeMs < newestSourceMtime();
}

export async function buildWeb(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: path.join(webDir, 'vite.config.ts'), mode: 'production' });
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('build-web.ts')) {
  const onlyIfStale = process.argv.includes('--if-stale');
  if (onlyIfStale && !webBuildIsStale()) process.exit(0);
  const started = Date.now();
  await buildWeb();
  console.log(`web app built into web/dist in ${Date.now() - started} ms`);
}
