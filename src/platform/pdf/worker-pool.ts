import { Worker } from 'node:worker_threads';
import { BoundedQueue } from './bounded-queue.ts';

/** Why a task's worker was stopped: out of time, out of V8 heap, or it died another way. */
export type WorkerStop = { limit: 'time' | 'memory' | 'crash'; detail: string };

export type WorkerPoolOptions = {
  /** Worker threads running at once. */
  workers: number;
  /** Tasks that may wait for a worker; beyond, QueueFullError (the caller answers 503 with Retry-After). */
  maxWaiting: number;
  /** A task still running after this long is stopped by terminating its worker. */
  timeLimitMs: number;
  /** V8 heap of one worker; exceeding it ends that worker, not the service. ArrayBuffers are not counted. */
  maxHeapMb: number;
};

export type WorkerPool<Request, Reply> = {
  /**
   * Runs one task on an idle worker (or a new one): its reply, or why it was stopped. `transfer` moves those
   * buffers to the worker. Throws QueueFullError when too many tasks wait, and an Error when a worker cannot
   * start at all (a fault of the service, not of the task).
   */
  run(request: Request, transfer?: ArrayBuffer[]): Promise<{ reply: Reply } | { stopped: WorkerStop }>;
  close(): Promise<void>;
};

/**
 * The script must post one message once its modules are loaded (the time limit starts there, not at the spawn:
 * a fresh worker took over a second to load on a loaded 2-core machine), then answer each request, given with
 * an `id`, with one message carrying the same `id`.
 */
type Envelope<Request> = Request & { id: number };
type PooledWorker = { worker: Worker; ready: Promise<void>; idleTimer?: NodeJS.Timeout };

/**
 * Idle workers are kept for a while (a fresh one pays its module loading again) without keeping the process
 * alive, then ended so a quiet service gives their memory back.
 */
const IDLE_WORKER_MS = 60_000;

/** Worker threads under a heap limit and a time limit, a few at a time with a bounded waiting line. */
export function createWorkerPool<Request extends object, Reply extends { id: number }>(
  script: URL,
  options: WorkerPoolOptions,
): WorkerPool<Request, Reply> {
  const queue = new BoundedQueue(options.workers, options.maxWaiting);
  const idle: PooledWorker[] = [];
  const all = new Set<PooledWorker>();
  let nextId = 1;
  let closed = false;

  function spawnWorker(): PooledWorker {
    const worker = new Worker(script, {
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    const ready = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`the worker ${script.pathname} exited with code ${code} while starting`)),
      );
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

  function runOn(
    pooled: PooledWorker,
    request: Envelope<Request>,
    transfer: ArrayBuffer[],
  ): Promise<{ reply: Reply } | { stopped: WorkerStop }> {
    const { worker } = pooled;
    return new Promise((resolve) => {
      const finish = (outcome: { reply: Reply } | { stopped: WorkerStop }) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (reply: Reply) => {
        if (reply.id === request.id) finish({ reply });
      };
      const onError = (error: Error) => {
        const code = (error as NodeJS.ErrnoException).code;
        finish({
          stopped:
            code === 'ERR_WORKER_OUT_OF_MEMORY'
              ? { limit: 'memory', detail: code }
              : { limit: 'crash', detail: code ?? error.message },
        });
      };
      const onExit = (code: number) => finish({ stopped: { limit: 'crash', detail: `exited with code ${code}` } });
      const timer = setTimeout(() => {
        finish({ stopped: { limit: 'time', detail: `still running after ${options.timeLimitMs} ms` } });
        void worker.terminate();
      }, options.timeLimitMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.ref();
      worker.postMessage(request, transfer);
    });
  }

  return {
    async run(request, transfer = []) {
      if (closed) throw new Error('the worker pool is closed');
      return queue.run(async () => {
        const pooled = idle.pop() ?? spawnWorker();
        clearTimeout(pooled.idleTimer);
        await pooled.ready;
        const outcome = await runOn(pooled, { ...request, id: nextId++ }, transfer);
        if ('stopped' in outcome) {
          if (all.has(pooled)) void pooled.worker.terminate();
          return outcome;
        }
        pooled.worker.unref();
        if (all.has(pooled) && !closed) {
          idle.push(pooled);
          pooled.idleTimer = setTimeout(() => void pooled.worker.terminate(), IDLE_WORKER_MS).unref();
        }
        return outcome;
      });
    },

    async close() {
      closed = true;
      await Promise.all([...all].map((pooled) => pooled.worker.terminate()));
      idle.length = 0;
    },
  };
}
