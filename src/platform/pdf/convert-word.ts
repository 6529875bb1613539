import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { unzipSync } from 'fflate';

export type WordFormat = 'doc' | 'docx';

/** LibreOffice is not installed (or not executable) where config.sofficePath points. */
export class ConversionUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConversionUnavailableError';
  }
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
  if (!head.subarray(0, 4).equals(ZIP_MAGIC)) return 'a .docx file must be a Word document (an Office Open XML zip package)';
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

export type ConvertOptions = {
  sofficePath: string;
  /** Killed after this long (default 60 s). */
  timeoutMs?: number;
};

/** Conversions are CPU- and memory-heavy; beyond this many at once, callers wait their turn. */
const MAX_PARALLEL = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Converts a Word file (read from `inputPath`) to PDF bytes with LibreOffice headless. Each conversion runs
 * in its own scratch directory with its own LibreOffice profile (-env:UserInstallation), so parallel
 * conversions, and a LibreOffice the operator has open, do not collide on the profile lock.
 */
export async function convertWordToPdf(inputPath: string, format: WordFormat, options: ConvertOptions): Promise<Uint8Array> {
  return withSlot(async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sig-convert-'));
    try {
      const input = path.join(dir, `document.${format}`);
      const outDir = path.join(dir, 'out');
      await fsp.copyFile(inputPath, input);
      const args = [
        `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`,
        '--headless', '--norestore', '--nologo', '--nodefault', '--nolockcheck', '--nofirststartwizard',
        '--convert-to', 'pdf', '--outdir', outDir, input,
      ];
      const result = await run(options.sofficePath, args, options.timeoutMs ?? 60_000, dir);
      const output = path.join(outDir, 'document.pdf');
      const pdf = await fsp.readFile(output).catch(() => null);
      if (!pdf || pdf.byteLength === 0) {
        const detail = result.output.trim().split('\n').filter((line) => /error|fail/i.test(line)).slice(0, 2).join(' ').slice(0, 200);
        throw new ConversionFailedError(`LibreOffice could not convert the Word document to PDF${detail ? ` (${detail})` : ''}; the file may be damaged or password-protected`);
      }
      return new Uint8Array(pdf);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
}

function run(command: string, args: string[], timeoutMs: number, cwd: string): Promise<{ output: string }> {
  return new Promise((resolve, reject) => {
    // Its own process group: soffice starts soffice.bin as a child, and a timeout must kill both.
    const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: cwd } });
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
      if (error.code === 'ENOENT' || error.code === 'EACCES') {
        reject(new ConversionUnavailableError(`Word conversion is not available: LibreOffice was not found at "${command}" on the server; upload a PDF instead`));
      } else {
        reject(new ConversionFailedError(`LibreOffice could not be started (${error.message})`));
      }
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) return reject(new ConversionFailedError(`The Word document took longer than ${Math.round(timeoutMs / 1000)} s to convert and was abandoned`));
      if (code !== 0) return reject(new ConversionFailedError(`LibreOffice failed to convert the Word document (exit code ${code})`));
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
