import { Worker } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { BoundedQueue } from './bounded-queue.ts';
import type { ThumbnailReply, ThumbnailRequest } from './thumbnail-worker.ts';

export const THUMBNAIL_WIDTH = 200;
/** Width of the page-1 picture (JPEG) drawn on first ask and stored (GET /document/v1/page-image answers it for widths up to this). */
export const PICTURE_WIDTH = 800;
/**
 * A page picture is JPEG: encoding it takes about a third of the time PNG does (18 vs 54 ms on this machine for
 * 1000 × 1414 pixels), and at quality 85 text stays crisp at the size it is shown.
 */
const PICTURE_QUALITY = 85;
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
   * A PNG of page 1, THUMBNAIL_WIDTH pixels wide (or a JPEG of `at.page`, `at.width` wide), rendered in a worker thread. Throws PdfRenderError when the PDF
   * cannot be opened, QueueFullError when too many renders wait. A render that runs out of time or memory is
   * stopped and answered with a blank page of the right shape: the file itself may still be fine to sign.
   * `{ path }`: a local file the worker reads itself, only the parts page 1 needs (an upload is not copied into
   * the worker whole).
   */
  render(
    pdf: Uint8Array | { path: string },
    firstPage?: { width: number; height: number },
    at?: PagePicture,
  ): Promise<Uint8Array>;
  readonly retryAfterSeconds: number;
  close(): Promise<void>;
};

/** Another page than 1, or another width than THUMBNAIL_WIDTH: the signing page's first picture of a page (page-image route). */
export type PagePicture = { page: number; width: number };

export const THUMBNAIL_DEFAULTS = {
  workers: 2,
  maxWaiting: 16,
  timeoutMs: 5_000,
  maxHeapMb: 256,
  maxImagePixels: 16_000_000,
};

/**
 * Idle workers are kept for a while (pdf.js takes about 250 ms to load in a fresh one) without keeping the process
 * alive, then ended so a quiet service gives their memory back.
 */
type PooledWorker = { worker: Worker; idleTimer?: NodeJS.Timeout };
const IDLE_WORKER_MS = 60_000;

export function createThumbnailRenderer(options: ThumbnailRendererOptions = {}): ThumbnailRenderer {
  const settings = {
    ...THUMBNAIL_DEFAULTS,
    ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
  } as typeof THUMBNAIL_DEFAULTS & ThumbnailRendererOptions;
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

  function renderOn(
    pooled: PooledWorker,
    request: ThumbnailRequest,
  ): Promise<ThumbnailReply | { id: number; stopped: string }> {
    const { worker } = pooled;
    return new Promise((resolve) => {
      const finish = (reply: ThumbnailReply | { id: number; stopped: string }) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(reply);
      };
      const onMessage = (reply: ThumbnailReply) => {
        if (reply.id === request.id) finish(reply);
      };
      // ERR_WORKER_OUT_OF_MEMORY and crashes end the worker; it is replaced on the next render.
      const onError = (error: Error) =>
        finish({
          id: request.id,
          stopped: `the renderer failed (${(error as NodeJS.ErrnoException).code ?? error.message})`,
        });
      const onExit = (code: number) => finish({ id: request.id, stopped: `the renderer exited (code ${code})` });
      const timer = setTimeout(() => {
        finish({ id: request.id, stopped: `page ${request.page} took longer than ${settings.timeoutMs} ms to render` });
        void worker.terminate();
      }, settings.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.ref();
      worker.postMessage(request, request.pdf ? [request.pdf.buffer as ArrayBuffer] : []);
    });
  }

  /** One render in a pooled worker; null when it was stopped (time or memory), PdfRenderError when pdf.js refused the file. */
  async function run(
    pdf: Uint8Array | { path: string },
    what: { page: number; width: number; jpeg?: boolean },
  ): Promise<{ image: Uint8Array } | null> {
    if (closed) throw new Error('thumbnail renderer is closed');
    return queue.run(async () => {
      const pooled = idle.pop() ?? spawnWorker();
      clearTimeout(pooled.idleTimer);
      // The worker takes ownership of the bytes it is sent, so it gets its own copy; a file it reads itself.
      const source = pdf instanceof Uint8Array ? { pdf: new Uint8Array(pdf) } : { path: pdf.path };
      const request: ThumbnailRequest = {
        id: nextId++,
        ...source,
        ...what,
        quality: PICTURE_QUALITY,
        maxAspect: MAX_ASPECT,
        maxImagePixels: settings.maxImagePixels,
      };
      const reply = await renderOn(pooled, request);
      if ('stopped' in reply) {
        if (all.has(pooled)) void pooled.worker.terminate();
        settings.log?.(`thumbnail: ${reply.stopped}; a blank page stands in`);
        return null;
      }
      pooled.worker.unref();
      if (all.has(pooled) && !closed) {
        idle.push(pooled);
        pooled.idleTimer = setTimeout(() => void pooled.worker.terminate(), IDLE_WORKER_MS).unref();
      }
      if ('error' in reply) throw new PdfRenderError(reply.error);
      return reply;
    });
  }

  return {
    retryAfterSeconds: Math.max(1, Math.ceil(settings.timeoutMs / 1000)),

    async render(pdf, firstPage, at) {
      const width = at?.width ?? THUMBNAIL_WIDTH;
      const reply = await run(pdf, { page: at?.page ?? 1, width, jpeg: at !== undefined });
      return reply ? reply.image : blankPage(width, firstPage, at !== undefined);
    },

    async close() {
      closed = true;
      await Promise.all([...all].map((pooled) => pooled.worker.terminate()));
      idle.length = 0;
    },
  };
}

/** White, `width` wide, shaped like the page (Letter when unknown): stands in when the page could not be rendered. */
function blankPage(width: number, page = { width: 612, height: 792 }, jpeg = false): Uint8Array {
  const height = Math.min(width * MAX_ASPECT, Math.max(1, Math.round((width * page.height) / page.width)));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  return new Uint8Array(jpeg ? canvas.toBuffer('image/jpeg', PICTURE_QUALITY) : canvas.toBuffer('image/png'));
}
