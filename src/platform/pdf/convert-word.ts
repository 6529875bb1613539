import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';
import { BoundedQueue } from './bounded-queue.ts';

export type WordFormat = 'doc' | 'docx';

/** How whoever meets a missing LibreOffice can make Word uploads work: the client's error and the operator's start-up line. */
export const LIBREOFFICE_INSTALL_HINT =
  'install LibreOffice (Debian/Ubuntu: apt-get install libreoffice-writer-nogui) or set SOFFICE_PATH; PDF uploads work without it';

/**
 * LibreOffice is not installed (or not executable) where config.sofficePath points. The message is the client's
 * (errorDescription of DOCUMENT_CONVERSION_UNAVAILABLE): what to do, not where the server looked.
 */
export class ConversionUnavailableError extends Error {
  constructor(message = `Word conversion is not available: ${LIBREOFFICE_INSTALL_HINT}`) {
    super(message);
    this.name = 'ConversionUnavailableError';
  }
}

/**
 * Where `command` runs from, as spawn finds it: a name with a slash as it is, a bare name in the directories of
 * `searchPath` (the PATH LibreOffice is started with); null when there is no executable file there.
 */
export async function findExecutable(command: string, searchPath: string): Promise<string | null> {
  const candidates = command.includes('/')
    ? [path.resolve(command)]
    : searchPath
        .split(':')
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      await fsp.access(candidate, fs.constants.X_OK);
      if ((await fsp.stat(candidate)).isFile()) return candidate;
    } catch {
      // Not there, or not executable: the next directory.
    }
  }
  return null;
}

/**
 * The start-up's one line for an operator whose machine has no LibreOffice where SOFFICE_PATH says (RUNTIME.md: `npm ci
 * && npm start` on a fresh machine works, Word uploads aside); null when soffice is there.
 */
export async function sofficeMissingLine(
  sofficePath: string,
  searchPath: string = DEFAULT_SEARCH_PATH,
): Promise<string | null> {
  if (await findExecutable(sofficePath, searchPath)) return null;
  const why = sofficePath.includes('/') ? 'is not an executable file' : `is in no directory of PATH=${searchPath}`;
  return (
    `Word conversion is not available: LibreOffice was not found (SOFFICE_PATH=${sofficePath} ${why}), so .doc and .docx uploads answer ` +
    `400 DOCUMENT_CONVERSION_UNAVAILABLE until you ${LIBREOFFICE_INSTALL_HINT}`
  );
}

/** LibreOffice ran but produced no PDF, failed, or ran out of time. */
export class ConversionFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionFailedError';
  }
}

const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

/**
 * Whether the bytes are what the extension claims: a .doc is an OLE2 compound file; a .docx is an Office Open
 * XML package, i.e. a zip holding word/document.xml. Returns the reason when not. Only the zip's directory is
 * read; nothing is decompressed.
 */
export function checkWordContent(bytes: Uint8Array, format: WordFormat): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 8));
  if (format === 'doc') {
    return head.equals(OLE2_MAGIC) ? null : 'a .doc file must be a Word 97-2003 document (an OLE2 compound file)';
  }
  if (!head.subarray(0, 4).equals(ZIP_MAGIC))
    return 'a .docx file must be a Word document (an Office Open XML zip package)';
  let hasMainPart = false;
  try {
    unzipSync(bytes, {
      filter: (entry) => {
        if (entry.name === 'word/document.xml') hasMainPart = true;
        return false;
      },
    });
  } catch {
    return 'the .docx file is not a readable zip package';
  }
  return hasMainPart ? null : 'the .docx file is a zip package without word/document.xml, so it is not a Word document';
}

// ---------------------------------------------------------------------------------------------------------
// The sandbox

/**
 * How LibreOffice is kept off the network: inside an empty network namespace (`unshare`, where the kernel and
 * the service's user may create one), or, where not, by the blocked-links profile alone.
 */
export type NetworkIsolation =
  | { kind: 'network-namespace'; prefix: string[] }
  | { kind: 'profile-only'; reason: string };

/** The environment LibreOffice sees: nothing of the service's (no JWT_SECRET, DATABASE_URL, SMTP_URL). */
export type SandboxEnvironment = { searchPath: string };

/**
 * Tries `unshare -rn` (a user namespace, so it works unprivileged where user namespaces are allowed), then
 * `unshare -n` (root without user namespaces), by running `true` inside each. The first that works is used.
 */
export async function detectNetworkIsolation(env: SandboxEnvironment): Promise<NetworkIsolation> {
  const failures: string[] = [];
  for (const prefix of [
    ['unshare', '-rn'],
    ['unshare', '-n'],
  ]) {
    const outcome = await probe([...prefix, 'true'], env);
    if (outcome === null) return { kind: 'network-namespace', prefix };
    failures.push(`${prefix.join(' ')}: ${outcome}`);
  }
  return { kind: 'profile-only', reason: failures.join('; ') };
}

function probe(command: string[], env: SandboxEnvironment): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: env.searchPath },
    });
    let error = '';
    child.stderr.on('data', (chunk: Buffer) => {
      error += chunk.toString('utf8');
    });
    child.on('error', (cause) => resolve(cause.message));
    child.on('close', (code) => resolve(code === 0 ? null : error.trim().split('\n')[0] || `exit code ${code}`));
  });
}

/**
 * The profile each conversion starts from (user/registrymodifications.xcu): links to anything outside the
 * document are not followed (BlockUntrustedRefererLinks: images, OLE objects and sections linked by URL or
 * file path stay empty), link updates are never run in Writer (0 = never) or Calc (1 = never), and macros never
 * run (security level 3 = very high, execution disabled).
 */
const LOCKED_DOWN_PROFILE = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>1</value></prop></item>
</oor:items>
`;

export type ConvertOptions = {
  sofficePath: string;
  /** Killed after this long (default 60 s). */
  timeoutMs?: number;
  /** PATH for LibreOffice (the only variable it inherits besides HOME and LANG). */
  searchPath?: string;
  /** Decided once per process by detectNetworkIsolation; given here so it is not probed per conversion. */
  isolation?: NetworkIsolation;
};

const DEFAULT_SEARCH_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * Converts a Word file (read from `inputPath`) to PDF bytes with LibreOffice headless, in a sandbox: a fresh
 * scratch directory holding only a copy of the input and a fresh locked-down profile (-env:UserInstallation, so
 * parallel conversions and an operator's LibreOffice do not collide on the profile lock either), HOME and TMPDIR
 * inside it, an environment of PATH, HOME and LANG only, and no network where a network namespace can be made.
 * No queue here: callers go through a WordConverter.
 */
export async function convertWordToPdf(
  inputPath: string,
  format: WordFormat,
  options: ConvertOptions,
): Promise<Uint8Array> {
  const searchPath = options.searchPath ?? DEFAULT_SEARCH_PATH;
  const isolation = options.isolation ?? (await detectNetworkIsolation({ searchPath }));
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sig-convert-'));
  try {
    const input = path.join(dir, `document.${format}`);
    const outDir = path.join(dir, 'out');
    const profileDir = path.join(dir, 'profile');
    await fsp.copyFile(inputPath, input);
    await fsp.mkdir(path.join(profileDir, 'user'), { recursive: true });
    await fsp.mkdir(path.join(dir, 'tmp'));
    await fsp.writeFile(path.join(profileDir, 'user', 'registrymodifications.xcu'), LOCKED_DOWN_PROFILE);
    const args = [
      `-env:UserInstallation=${pathToFileURL(profileDir).href}`,
      '--headless',
      '--norestore',
      '--nologo',
      '--nodefault',
      '--nolockcheck',
      '--nofirststartwizard',
      '--convert-to',
      'pdf',
      '--outdir',
      outDir,
      input,
    ];
    const command =
      isolation.kind === 'network-namespace'
        ? [...isolation.prefix, options.sofficePath, ...args]
        : [options.sofficePath, ...args];
    const env = { PATH: searchPath, HOME: dir, TMPDIR: path.join(dir, 'tmp'), LANG: 'C.UTF-8' };
    const result = await run(command, options.timeoutMs ?? 60_000, dir, env, options.sofficePath);
    const output = path.join(outDir, 'document.pdf');
    const pdf = await fsp.readFile(output).catch(() => null);
    if (!pdf || pdf.byteLength === 0) {
      const detail = result.output
        .trim()
        .split('\n')
        .filter((line) => /error|fail/i.test(line))
        .slice(0, 2)
        .join(' ')
        .slice(0, 200);
      throw new ConversionFailedError(
        `LibreOffice could not convert the Word document to PDF${detail ? ` (${detail})` : ''}; the file may be damaged or password-protected`,
      );
    }
    return new Uint8Array(pdf);
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

/** 127: the shell (or unshare) found no such program; 126: found but not executable. */
const NOT_FOUND_EXIT_CODES = new Set([126, 127]);

function run(
  command: string[],
  timeoutMs: number,
  cwd: string,
  env: Record<string, string>,
  sofficePath: string,
): Promise<{ output: string }> {
  const unavailable = () => new ConversionUnavailableError();
  return new Promise((resolve, reject) => {
    // Its own process group: soffice starts soffice.bin as a child, and a timeout must kill both.
    const child = spawn(command[0], command.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < 16_384) output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      if (error.code === 'ENOENT' || error.code === 'EACCES') reject(unavailable());
      else reject(new ConversionFailedError(`LibreOffice could not be started (${error.message})`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut)
        return reject(
          new ConversionFailedError(
            `The Word document took longer than ${Math.round(timeoutMs / 1000)} s to convert and was abandoned`,
          ),
        );
      // Under unshare the missing binary is reported by unshare's exit code, not by spawn.
      if (
        command[0] !== sofficePath &&
        code !== null &&
        NOT_FOUND_EXIT_CODES.has(code) &&
        /execvp|No such file|Permission denied/i.test(output)
      )
        return reject(unavailable());
      if (code !== 0)
        return reject(new ConversionFailedError(`LibreOffice failed to convert the Word document (exit code ${code})`));
      resolve({ output });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

// ---------------------------------------------------------------------------------------------------------
// The converter the service uses: sandboxed conversions, a few at a time, with a bounded waiting line

export type WordConverterOptions = {
  sofficePath: string;
  searchPath?: string;
  timeoutMs?: number;
  /** Conversions running at once (each is a LibreOffice process: CPU and a few hundred MB). */
  maxParallel?: number;
  /** Conversions that may wait for a slot; beyond, QueueFullError (the caller answers 503 with Retry-After). */
  maxWaiting?: number;
  log?: (message: string) => void;
  /** The start-up's warning when LibreOffice is missing (sofficeMissingLine). */
  warn?: (message: string) => void;
};

export type WordConverter = {
  convert(inputPath: string, format: WordFormat): Promise<Uint8Array>;
  /**
   * Which isolation conversions run under, decided once, on first use (app.ts makes that the start). The same first
   * use checks that soffice is there, and warns once when not.
   */
  isolation(): Promise<NetworkIsolation>;
  /** Seconds a refused caller should wait: one conversion's time limit, at worst. */
  readonly retryAfterSeconds: number;
};

export const CONVERSION_DEFAULTS = { timeoutMs: 60_000, maxParallel: 2, maxWaiting: 8 };

export function createWordConverter(options: WordConverterOptions): WordConverter {
  const searchPath = options.searchPath ?? DEFAULT_SEARCH_PATH;
  const timeoutMs = options.timeoutMs ?? CONVERSION_DEFAULTS.timeoutMs;
  const queue = new BoundedQueue(
    options.maxParallel ?? CONVERSION_DEFAULTS.maxParallel,
    options.maxWaiting ?? CONVERSION_DEFAULTS.maxWaiting,
  );
  let detected: Promise<NetworkIsolation> | null = null;
  const isolation = () => {
    detected ??= sofficeMissingLine(options.sofficePath, searchPath)
      .then((line) => {
        if (line) (options.warn ?? options.log)?.(line);
        return detectNetworkIsolation({ searchPath });
      })
      .then((result) => {
        options.log?.(
          result.kind === 'network-namespace'
            ? `Word conversion: LibreOffice runs without network (${result.prefix.join(' ')}) and with a blocked-links profile`
            : `Word conversion: no network namespace available (${result.reason}); LibreOffice runs with the blocked-links profile alone`,
        );
        return result;
      });
    return detected;
  };
  return {
    isolation,
    retryAfterSeconds: Math.ceil(timeoutMs / 1000),
    async convert(inputPath, format) {
      return queue.run(async () =>
        convertWordToPdf(inputPath, format, {
          sofficePath: options.sofficePath,
          timeoutMs,
          searchPath,
          isolation: await isolation(),
        }),
      );
    },
  };
}
