import { Worker } from 'node:worker_threads';
import { BoundedQueue } from '../pdf/bounded-queue.ts';
import type { ImageReply, ImageRequest } from './image-worker.ts';

/** The bytes are not a PNG or JPEG this service accepts; the message says why, for the client. */
export class InvalidImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidImageError';
  }
}

export type ImageKind = 'PNG' | 'JPEG';

export type NormalizedImage = { png: Uint8Array; width: number; height: number; sourceKind: ImageKind };

export type ImageNormalizer = {
  /**
   * Decodes a PNG or JPEG in full, in a worker thread, and writes it again as a plain 8-bit RGBA PNG no larger
   * than `maxSide` pixels on its longest side. Anything else (SVG, GIF, a damaged or truncated file, too many
   * pixels) throws InvalidImageError; too many decodes already waiting throws QueueFullError.
   */
  toPng(bytes: Uint8Array, options: { maxSide: number }): Promise<NormalizedImage>;
  readonly retryAfterSeconds: number;
};

export const IMAGE_DEFAULTS = { workers: 1, maxWaiting: 8, timeoutMs: 10_000, maxHeapMb: 256, maxPixels: 16_000_000 };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** What the leading bytes say the file is; the client's file name and content type are not believed. */
export function sniffImage(bytes: Uint8Array): ImageKind | 'SVG' | null {
  if (PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return 'PNG';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'JPEG';
  const head = Buffer.from(bytes.subarray(0, 512))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (
    head.startsWith('<?xml') ||
    head.startsWith('<svg') ||
    head.startsWith('<!doctype svg') ||
    (head.startsWith('<') && head.includes('<svg'))
  )
    return 'SVG';
  return null;
}

/**
 * One worker thread per decode, ended when it is done: images are decoded rarely (a logo upload), and a fresh
 * worker leaves nothing of a hostile file behind. At most `workers` run at once, `maxWaiting` wait.
 */
export function createImageNormalizer(options: Partial<typeof IMAGE_DEFAULTS> = {}): ImageNormalizer {
  const settings = { ...IMAGE_DEFAULTS, ...options };
  const queue = new BoundedQueue(settings.workers, settings.maxWaiting);
  let nextId = 1;

  async function decodeInWorker(request: ImageRequest): Promise<ImageReply> {
    const worker = new Worker(new URL('./image-worker.ts', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: settings.maxHeapMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    });
    try {
      return await new Promise<ImageReply>((resolve) => {
        const timer = setTimeout(
          () => resolve({ id: request.id, error: `decoding took longer than ${settings.timeoutMs / 1000} s` }),
          settings.timeoutMs,
        );
        const done = (reply: ImageReply) => {
          clearTimeout(timer);
          resolve(reply);
        };
        worker.on('message', (reply: ImageReply) => {
          if (reply.id === request.id) done(reply);
        });
        // Out of memory or a crash ends the worker: the file is refused, the service goes on.
        worker.on('error', (error) =>
          done({
            id: request.id,
            error: `the image could not be decoded (${(error as NodeJS.ErrnoException).code ?? error.message})`,
          }),
        );
        worker.on('exit', (code) =>
          done({ id: request.id, error: `the image could not be decoded (decoder exited with code ${code})` }),
        );
        worker.postMessage(request, [request.bytes.buffer as ArrayBuffer]);
      });
    } finally {
      void worker.terminate();
    }
  }

  return {
    retryAfterSeconds: Math.ceil(settings.timeoutMs / 1000),

    async toPng(bytes, { maxSide }) {
      const kind = sniffImage(bytes);
      if (kind === 'SVG') throw new InvalidImageError('SVG is not accepted: send a PNG or JPEG image');
      if (!kind) throw new InvalidImageError('the file is not a PNG or JPEG image');
      return queue.run(async () => {
        // The worker takes ownership of what it is sent, so it gets its own copy.
        const reply = await decodeInWorker({
          id: nextId++,
          bytes: new Uint8Array(bytes),
          kind,
          maxPixels: settings.maxPixels,
          maxSide,
        });
        if ('error' in reply)
          throw new InvalidImageError(`the ${kind} image is damaged or not supported: ${reply.error}`);
        return { png: reply.png, width: reply.width, height: reply.height, sourceKind: kind };
      });
    },
  };
}
