import { Worker } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { BoundedQueue } from './bounded-queue.ts';
import type { ThumbnailReply, ThumbnailRequest } from './thumbnail-worker.ts';

export const THUMBNAIL_WIDTH = 200;
/** Caps the height of an extremely tall page so the PNG stays small: the canvas is at most 200 × 800 pixels. */
const MAX_ASPECT = 4;

/** pdf.js cannot open the document or its first page (as a viewer would fail to show it). */
export class PdfRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PdfRenderError';
  }
}

export type ThumbnailRendererOptions = {
  /** Worker threads rendering at once (default 2: the machine's cores are shared with the service). */
  workers?: number;
  /** Renders that may wait for a worker; beyond, QueueFullError (the caller answers 503 with Retry-After). */
  maxWaiting?: number;
  /** A render still running after this long is stopped by terminating its worker (default 5 s). */
  timeoutMs?: number;
  /** V8 heap of one worker (default 256 MB); exceeding it ends that worker, not the service. */
  maxHeapMb?: number;
  /** Images above this many pixels are not decoded for a thumbnail (default 16 million, e.g. 4000 × 4000). */
  maxImagePixels?: number;
  log?: (message: string) => void;
};

export type ThumbnailRenderer = {
  /**
   * A PNG of page 1, THUMBNAIL_WIDTH pixels wide, rendered in a worker thread. Throws PdfRenderError when the PDF
   * cannot be opened, QueueFullError when too many renders wait. A render that runs out of time or memory is
   * stopped and answered with a blank page of the right shape: the file itself may still be fine to sign.
   */
  render(pdf: Uint8Array, firstPage?: { width: number; height: number }): Promise<Uint8Array>;
  readonly retryAfterSeconds: number;
  close(): Promise<void>;
};

export const THUMBNAIL_DEFAULTS = { workers: 2, maxWaiting: 16, timeoutMs: 5_000, maxHeapMb: 256, maxImagePixels: 16_000_000 };

/**
 * Idle workers are kept for a while (pdf.js takes about 250 ms to load in a fresh one) without keeping the process
 * alive, then ended so a quiet service gives their memory back.
 */
type PooledWorker = { worker: Worker; idleTimer?: NodeJS.Timeout };
const IDLE_WORKER_MS = 60_000;

export function createThumbnailRenderer(options: ThumbnailRendererOptions = {}): ThumbnailRenderer {
  const settings = { ...THUMBNAIL_DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as typeof THUMBNAIL_DEFAULTS & ThumbnailRendererOptions;
  const queue = new BoundedQueue(settings.workers, settings.maxWaiting);
  const idle: PooledWorker[] = [];
  const all = new Set<PooledWorker>();
  let nextId = 1;
  let closed = false;

  function spawnWorker(): PooledWorker {
    const worker = new Worker(new URL('./thumbnail-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: settings.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    const pooled: PooledWorker = { worker };
    all.add(pooled);
    worker.on('exit', () => {
      all.delete(pooled);
      const index = idle.indexOf(pooled);
      if (index >= 0) idle.splice(index, 1);
    });
    return pooled;
  }

  function renderOn(pooled: PooledWorker, request: ThumbnailRequest): Promise<ThumbnailReply | { id: number; stopped: string }> {
    const { worker } = pooled;
    return new Promise((resolve) => {
      const finish = (reply: ThumbnailReply | { id: number; stopped: string }) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(reply);
      };
      const onMessage = (reply: ThumbnailReply) => { if (reply.id === request.id) finish(reply); };
      // ERR_WORKER_OUT_OF_MEMORY and crashes end the worker; it is replaced on the next render.
      const onError = (error: Error) => finish({ id: request.id, stopped: `the renderer failed (${(error as NodeJS.ErrnoException).code ?? error.message})` });
      const onExit = (code: number) => finish({ id: request.id, stopped: `the renderer exited (code ${code})` });
      const timer = setTimeout(() => {
        finish({ id: request.id, stopped: `page 1 took longer than ${settings.timeoutMs} ms to render` });
        void worker.terminate();
      }, settings.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.ref();
      worker.postMessage(request, [request.pdf.buffer as ArrayBuffer]);
    });
  }

  return {
    retryAfterSeconds: Math.max(1, Math.ceil(settings.timeoutMs / 1000)),

    async render(pdf, firstPage) {
      if (closed) throw new Error('thumbnail renderer is closed');
      return queue.run(async () => {
        const pooled = idle.pop() ?? spawnWorker();
        clearTimeout(pooled.idleTimer);
        // The worker takes ownership of the bytes it is sent, so it gets its own copy.
        const request: ThumbnailRequest = { id: nextId++, pdf: new Uint8Array(pdf), width: THUMBNAIL_WIDTH, maxAspect: MAX_ASPECT, maxImagePixels: settings.maxImagePixels };
        const reply = await renderOn(pooled, request);
        if ('stopped' in reply) {
          if (all.has(pooled)) void pooled.worker.terminate();
          settings.log?.(`thumbnail: ${reply.stopped}; a blank page stands in`);
          return blankPage(firstPage);
        }
        pooled.worker.unref();
        if (all.has(pooled) && !closed) {
          idle.push(pooled);
          pooled.idleTimer = setTimeout(() => void pooled.worker.terminate(), IDLE_WORKER_MS).unref();
        }
        if ('error' in reply) throw new PdfRenderError(reply.error);
        return reply.png;
      });
    },

    async close() {
      closed = true;
      await Promise.all([...all].map((pooled) => pooled.worker.terminate()));
      idle.length = 0;
    },
  };
}

/** White, THUMBNAIL_WIDTH wide, shaped like page 1 (Letter when unknown): stands in when page 1 could not be rendered. */
function blankPage(page = { width: 612, height: 792 }): Uint8Array {
  const height = Math.min(THUMBNAIL_WIDTH * MAX_ASPECT, Math.max(1, Math.round((THUMBNAIL_WIDTH * page.height) / page.width)));
  const canvas = createCanvas(THUMBNAIL_WIDTH, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  return new Uint8Array(canvas.toBuffer('image/png'));
}
