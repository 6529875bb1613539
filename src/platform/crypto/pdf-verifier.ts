import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { BoundedQueue } from '../pdf/bounded-queue.ts';
import { TooManySignaturesError, UnreadablePdfError } from '../pdf/read-signatures.ts';
import type { SignatureVerdict } from './verify-pdf.ts';
import type { VerifyReady, VerifyReply, VerifyRequest } from './verify-pdf-worker.ts';

/**
 * The verification of one file was stopped. `cpu`, `memory`, `crash`: the file costs more to read than one may
 * take (or broke the reader), the same on any machine. `overloaded`: within its CPU time, it waited too long for a
 * core; the service, not the file, is the cause.
 */
export class VerificationLimitError extends Error {
  readonly limit: 'cpu' | 'memory' | 'crash' | 'overloaded';
  constructor(limit: VerificationLimitError['limit'], message: string) {
    super(message);
    this.name = 'VerificationLimitError';
    this.limit = limit;
  }
}

export type PdfVerifierOptions = {
  /** Worker threads verifying at once (default 2: the machine's cores are shared with the service). */
  workers?: number;
  /** Verifications that may wait for a worker; beyond, QueueFullError (the caller answers 503 with Retry-After). */
  maxWaiting?: number;
  /**
   * CPU time one verification may use (default 750 ms); past it, its worker is terminated. Counted on the
   * worker's own thread (Linux), so a file gets the same answer on a busy machine as on a quiet one; where a
   * thread's CPU time cannot be read, this much time on the clock. A 20 MB file with 3 signatures takes 45-90 ms;
   * the budget, the upload and a worker's start stay within RUNTIME.md's 2 s.
   */
  cpuLimitMs?: number;
  /** Time on the clock after which a verification still within its CPU time is stopped anyway (default 10 s). */
  wallLimitMs?: number;
  /** V8 heap of one worker (default 256 MB); exceeding it ends that worker, not the service. */
  maxHeapMb?: number;
  log?: (message: string) => void;
};

export type PdfVerifier = {
  /**
   * The signatures of `pdf` (verify-pdf.ts), checked in a worker thread against the trust anchors given as DER.
   * The bytes move to the worker: `pdf` is unusable afterwards unless it was a view the worker could not take
   * (then it is copied). Throws UnreadablePdfError, TooManySignaturesError (more than `maxSignatures`),
   * VerificationLimitError, QueueFullError (too many verifications waiting).
   */
  verify(pdf: Uint8Array, trustAnchorsDer: Uint8Array[], maxSignatures: number): Promise<SignatureVerdict[]>;
  readonly cpuLimitMs: number;
  readonly maxHeapMb: number;
  readonly retryAfterSeconds: number;
  close(): Promise<void>;
};

export const PDF_VERIFIER_DEFAULTS = {
  workers: 2,
  maxWaiting: 4,
  cpuLimitMs: 750,
  wallLimitMs: 10_000,
  maxHeapMb: 256,
};

/**
 * Idle workers are kept for a while (a fresh one loads the PDF parser and pkijs first: 100-300 ms, 1.2 s on a
 * loaded 2-core machine) without keeping the process alive, then ended so a quiet service gives their memory back.
 */
type PooledWorker = { worker: Worker; ready: Promise<VerifyReady>; idleTimer?: NodeJS.Timeout };
const IDLE_WORKER_MS = 60_000;
/** How often a running verification's CPU time is read. */
const CPU_POLL_MS = 25;

/**
 * Verification of uploaded PDFs off the event loop: whatever a file holds (a field tree of 200,000 nodes, 50
 * signatures over 25 MB, a CMS with thousands of certificates), the service keeps answering other requests, and
 * each verification ends within its CPU time, answered or stopped. (The workers keep the service's priority: at
 * nice 10 one got too little of a busy machine to finish within the 10 s on the clock, and the scheduler already
 * runs the mostly idle event loop first.)
 */
export function createPdfVerifier(options: PdfVerifierOptions = {}): PdfVerifier {
  const settings = {
    ...PDF_VERIFIER_DEFAULTS,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  } as typeof PDF_VERIFIER_DEFAULTS & PdfVerifierOptions;
  const queue = new BoundedQueue(settings.workers, settings.maxWaiting);
  const idle: PooledWorker[] = [];
  const all = new Set<PooledWorker>();
  let nextId = 1;
  let closed = false;

  function spawnWorker(): PooledWorker {
    const worker = new Worker(new URL('./verify-pdf-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: settings.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    // The limits are the verification's: they start once the worker has loaded its modules, not at the spawn.
    const ready = new Promise<VerifyReady>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the PDF verifier exited with code ${code} while starting`)));
    });
    ready.catch(() => {});
    const pooled: PooledWorker = { worker, ready };
    all.add(pooled);
    worker.on('exit', () => {
      all.delete(pooled);
      const index = idle.indexOf(pooled);
      if (index >= 0) idle.splice(index, 1);
    });
    return pooled;
  }

  function keepIdle(pooled: PooledWorker): void {
    pooled.worker.unref();
    idle.push(pooled);
    pooled.idleTimer = setTimeout(() => void pooled.worker.terminate(), IDLE_WORKER_MS).unref();
  }

  function runOn(
    pooled: PooledWorker,
    threadId: number | null,
    request: VerifyRequest,
  ): Promise<VerifyReply | { id: number; stopped: VerificationLimitError }> {
    const { worker } = pooled;
    const cpuAtStart = threadId === null ? null : threadCpuMs(threadId);
    return new Promise((resolve) => {
      const finish = (reply: VerifyReply | { id: number; stopped: VerificationLimitError }) => {
        clearTimeout(wallTimer);
        clearInterval(cpuTimer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(reply);
      };
      const stop = (error: VerificationLimitError) => {
        finish({ id: request.id, stopped: error });
        void worker.terminate();
      };
      const onMessage = (reply: VerifyReply) => {
        if (reply.id === request.id) finish(reply);
      };
      const onError = (error: Error) => {
        const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
        finish({
          id: request.id,
          stopped: new VerificationLimitError(
            outOfMemory ? 'memory' : 'crash',
            outOfMemory
              ? `The PDF could not be verified within the ${settings.maxHeapMb} MB a verification may use`
              : `The PDF could not be verified (the verifier failed: ${(error as NodeJS.ErrnoException).code ?? error.message})`,
          ),
        });
      };
      const onExit = (code: number) =>
        finish({
          id: request.id,
          stopped: new VerificationLimitError(
            'crash',
            `The PDF could not be verified (the verifier exited with code ${code})`,
          ),
        });
      const overCpu = () =>
        new VerificationLimitError(
          'cpu',
          `The PDF could not be verified within ${settings.cpuLimitMs} ms of work: its structure costs too much to read`,
        );
      const cpuTimer =
        cpuAtStart === null
          ? undefined
          : setInterval(() => {
              const used = threadCpuMs(threadId!);
              if (used !== null && used - cpuAtStart > settings.cpuLimitMs) stop(overCpu());
            }, CPU_POLL_MS);
      const wallTimer = setTimeout(
        () =>
          stop(
            cpuAtStart === null
              ? overCpu()
              : new VerificationLimitError(
                  'overloaded',
                  `The verification waited too long for the processor (${settings.wallLimitMs} ms)`,
                ),
          ),
        cpuAtStart === null ? settings.cpuLimitMs : settings.wallLimitMs,
      );
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.ref();
      worker.postMessage(request, [request.pdf.buffer as ArrayBuffer]);
    });
  }

  return {
    cpuLimitMs: settings.cpuLimitMs,
    maxHeapMb: settings.maxHeapMb,
    retryAfterSeconds: Math.max(1, Math.ceil(settings.cpuLimitMs / 1000)),

    async verify(pdf, trustAnchorsDer, maxSignatures) {
      if (closed) throw new Error('the PDF verifier is closed');
      // A view into a larger buffer (Node's pool for small Buffers) cannot be handed over whole: copy it.
      const own =
        pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength && pdf.buffer instanceof ArrayBuffer
          ? pdf
          : new Uint8Array(pdf);
      return queue.run(async () => {
        const pooled = idle.pop() ?? spawnWorker();
        clearTimeout(pooled.idleTimer);
        const { threadId } = await pooled.ready;
        const reply = await runOn(pooled, threadId, { id: nextId++, pdf: own, trustAnchorsDer, maxSignatures });
        if ('stopped' in reply) {
          if (all.has(pooled)) void pooled.worker.terminate();
          settings.log?.(`verify: ${reply.stopped.message}`);
          // A replacement loads now, so the next verification does not pay a fresh worker's start (0.3-0.5 s).
          if (!closed) keepIdle(spawnWorker());
          throw reply.stopped;
        }
        if (all.has(pooled) && !closed) keepIdle(pooled);
        if ('tooMany' in reply) throw new TooManySignaturesError(reply.tooMany);
        if ('unreadable' in reply) throw new UnreadablePdfError(reply.unreadable);
        return reply.signatures;
      });
    },

    async close() {
      closed = true;
      await Promise.all([...all].map((pooled) => pooled.worker.terminate()));
      idle.length = 0;
    },
  };
}

/**
 * CPU time (user and system) one thread of this process has used, in ms, from /proc (Linux); null when it
 * cannot be read. Clock ticks are 10 ms (USER_HZ 100 on every Linux build Node runs on).
 */
function threadCpuMs(threadId: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${threadId}/stat`, 'latin1');
    // The name in parentheses may hold spaces: fields are counted after its closing parenthesis (utime, stime: 14, 15).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null;
  } catch {
    return null;
  }
}
