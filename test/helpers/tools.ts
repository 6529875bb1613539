import fs from 'node:fs';
import path from 'node:path';

/**
 * The programs outside Node some tests use, and whether this machine has them. `npm ci && npm test` must pass
 * with Node alone (README, "Run it"): a browser comes from a registry package when Debian's chromium is missing
 * (tool-setup.ts), and each independent check below has a fallback that asserts the same with the project's own
 * code. CI installs them all, and runs the files that use them once more with them hidden (.ci/run).
 */
export const OPTIONAL_TOOLS = {
  /** poppler-utils: pdfsig, the independent validator of sealed PDFs, and pdftotext/pdftoppm/pdffonts/pdfimages. */
  pdfsig: 'poppler-utils',
  pdftotext: 'poppler-utils',
  pdftoppm: 'poppler-utils',
  pdffonts: 'poppler-utils',
  pdfimages: 'poppler-utils',
  /** libnss3-tools: the NSS trust database pdfsig checks certificate chains against. */
  certutil: 'libnss3-tools',
  /** libreoffice-writer-nogui: Word conversion (the service answers DOCUMENT_CONVERSION_UNAVAILABLE without it). */
  soffice: 'libreoffice-writer-nogui',
  /** openssl: an independent check of time-stamp tokens, CRLs and certificates. */
  openssl: 'openssl',
} as const;
export type OptionalTool = keyof typeof OPTIONAL_TOOLS;

const found = new Map<string, string | null>();

/** The absolute path of `name` found on PATH (as execFile would run it), or null. */
export function onPath(name: string): string | null {
  if (found.has(name)) return found.get(name)!;
  let hit: string | null = null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) {
        hit = candidate;
        break;
      }
    } catch {
      // not here
    }
  }
  found.set(name, hit);
  return hit;
}

/** Whether an optional tool is installed; a test without it takes its fallback (the global setup said so once). */
export function has(tool: OptionalTool): boolean {
  return onPath(tool) !== null;
}
