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

/** Hashed files of an earlier build that no page can still be loading after this long are removed. */
const OLD_ASSET_MS = 15 * 60_000;

/**
 * Builds into a directory of its own, then publishes: the new hashed assets are added beside the old ones and
 * index.html is replaced by a rename. A service that is running (or another build at the same time, as parallel
 * test runs do) never sees an empty web/dist, and a page already open still finds the chunks it loads later.
 */
export async function buildWeb(): Promise<void> {
  const { build } = await import('vite');
  const dist = path.join(webDir, 'dist');
  const staging = path.join(webDir, `.dist-${process.pid}-${Date.now()}`);
  try {
    await build({
      configFile: path.join(webDir, 'vite.config.ts'),
      mode: 'production',
      build: { outDir: staging, emptyOutDir: true },
    });
    const assets = path.join(dist, 'assets');
    fs.mkdirSync(assets, { recursive: true });
    const fresh = new Set(fs.readdirSync(path.join(staging, 'assets')));
    for (const name of fresh) {
      const target = path.join(assets, name);
      if (!fs.existsSync(target)) fs.renameSync(path.join(staging, 'assets', name), target);
    }
    fs.renameSync(path.join(staging, 'index.html'), path.join(dist, 'index.html'));
    const now = Date.now();
    for (const name of fs.readdirSync(assets)) {
      const file = path.join(assets, name);
      if (!fresh.has(name) && now - fs.statSync(file).mtimeMs > OLD_ASSET_MS) fs.rmSync(file, { force: true });
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('build-web.ts')) {
  const onlyIfStale = process.argv.includes('--if-stale');
  if (onlyIfStale && !webBuildIsStale()) process.exit(0);
  const started = Date.now();
  await buildWeb();
  console.log(`web app built into web/dist in ${Date.now() - started} ms`);
}
