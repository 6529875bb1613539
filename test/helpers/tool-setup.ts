import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { TestProject } from 'vitest/node';
import { OPTIONAL_TOOLS, onPath } from './tools.ts';

/**
 * Finds the browser the browser tests drive, once per run, and says once which optional tools are missing and
 * what the tests do instead. The browser is `CHROMIUM_PATH` when set, else `chromium` on PATH (Debian's package),
 * else the headless Chromium that the registry package @sparticuz/chromium carries inside itself (installed by
 * `npm ci`; unpacked here, nothing is downloaded).
 */
export default async function setup(project: TestProject) {
  const browser = await findBrowser();
  project.provide('browser', browser);
  // Each project of the run calls this; the notes are said once.
  const state = globalThis as { toolsNoted?: boolean };
  if (state.toolsNoted) return;
  state.toolsNoted = true;
  if (browser.source === 'bundled')
    console.log(
      `browser tests: no chromium on PATH and no CHROMIUM_PATH; using the bundled headless Chromium of @sparticuz/chromium (${browser.executablePath})`,
    );
  const missing = Object.entries(OPTIONAL_TOOLS).filter(([tool]) => onPath(tool) === null);
  const byPackage = new Map<string, string[]>();
  for (const [tool, pkg] of missing) byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), tool]);
  for (const [pkg, tools] of byPackage)
    console.log(
      `${tools.join(', ')} not installed (${pkg}): ${FALLBACK[pkg] ?? 'the tests using it take their fallback'}`,
    );
}

const FALLBACK: Record<string, string> = {
  'poppler-utils':
    "the independent pdfsig check of sealed PDFs is skipped; they are checked with the service's own verification, and their text and pages read with pdf.js",
  'libnss3-tools': 'pdfsig checks certificate chains without an NSS trust database',
  'libreoffice-writer-nogui': 'the Word tests check the DOCUMENT_CONVERSION_UNAVAILABLE answer instead of a conversion',
  openssl:
    "the independent openssl checks of time-stamp tokens, CRLs and certificates are skipped; the service's own checks still run",
};

export type BrowserChoice = {
  executablePath: string;
  env: Record<string, string>;
  source: 'CHROMIUM_PATH' | 'PATH' | 'bundled';
};

let choice: Promise<BrowserChoice> | null = null;
function findBrowser(): Promise<BrowserChoice> {
  choice ??= (async () => {
    if (process.env.CHROMIUM_PATH)
      return { executablePath: process.env.CHROMIUM_PATH, env: {}, source: 'CHROMIUM_PATH' as const };
    const system = onPath('chromium');
    if (system) return { executablePath: system, env: {}, source: 'PATH' as const };
    return bundledChromium();
  })();
  return choice;
}

/**
 * Unpacks @sparticuz/chromium's browser and the NSS libraries it links against (so a machine without Debian's
 * libnss3 runs it too). The package unpacks into os.tmpdir() and reuses whatever it finds there, so it is pointed
 * at a directory of this version's own under node_modules/.cache: another version's browser is never reused, and
 * two runs at once do not share a half-written file (each unpacks apart, the first to finish is kept).
 */
export async function bundledChromium(): Promise<BrowserChoice> {
  const require = createRequire(import.meta.url);
  const root = path.dirname(path.dirname(require.resolve('@sparticuz/chromium')));
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const cache = path.resolve('node_modules/.cache');
  const target = path.join(cache, `chromium-${version}`);
  if (!fs.existsSync(path.join(target, 'chromium'))) {
    const work = path.join(cache, `chromium-${version}.${process.pid}`);
    fs.mkdirSync(work, { recursive: true });
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = work;
    try {
      const { default: Chromium, inflate } = await import('@sparticuz/chromium');
      await Chromium.executablePath();
      await inflate(path.join(root, 'bin', 'al2023.tar.br'));
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
    }
    try {
      fs.renameSync(work, target);
    } catch {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  return {
    executablePath: path.join(target, 'chromium'),
    env: { LD_LIBRARY_PATH: path.join(target, 'al2023', 'lib') },
    source: 'bundled',
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    browser: BrowserChoice;
  }
}
