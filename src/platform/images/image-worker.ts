// Runs in a worker thread (normalize-image.ts): decoding and resampling never run on the service's event loop,
// and a decoder that runs out of heap ends this worker, not the service.
import { parentPort } from 'node:worker_threads';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export type ImageRequest = { id: number; bytes: Uint8Array; kind: 'PNG' | 'JPEG'; maxPixels: number; maxSide: number };
export type ImageReply = { id: number; png: Uint8Array; width: number; height: number } | { id: number; error: string };

type Rgba = { width: number; height: number; data: Uint8Array };

/**
 * Both decoders are plain JavaScript (pngjs, jpeg-js): a damaged or hostile file makes them throw, never
 * crash the process, as @napi-rs/canvas's JPEG decoder did (docs/signing.md "Image values"). pngjs inflates at most the
 * size the checked header promises; jpeg-js refuses more than maxPixels and more memory than the worker has.
 */
function decode(request: ImageRequest): Rgba {
  if (request.kind === 'PNG') {
    const { width, height } = pngSize(request.bytes);
    if (width * height > request.maxPixels)
      throw new Error(`the image has ${width} x ${height} pixels; at most ${request.maxPixels} in all`);
    const png = PNG.sync.read(Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength));
    return { width: png.width, height: png.height, data: png.data };
  }
  const image = jpeg.decode(request.bytes, {
    useTArray: true,
    formatAsRGBA: true,
    maxResolutionInMP: request.maxPixels / 1e6,
    maxMemoryUsageInMB: 192,
  });
  if (!image.width || !image.height) throw new Error('the JPEG has no pixels');
  return image;
}

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 24 || String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR')
    throw new Error('the PNG has no header');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * Area-averaging downscale so the longest side is at most maxSide, with premultiplied alpha so transparent
 * pixels do not darken the edges. An image already small enough is copied as it is.
 */
function fit(image: Rgba, maxSide: number): Rgba {
  const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
  if (scale === 1) return image;
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const sums = new Float64Array(width * height * 5);
  for (let y = 0; y < image.height; y++) {
    const row = Math.min(height - 1, Math.floor((y * height) / image.height)) * width;
    for (let x = 0; x < image.width; x++) {
      const source = (y * image.width + x) * 4;
      const target = (row + Math.min(width - 1, Math.floor((x * width) / image.width))) * 5;
      const alpha = image.data[source + 3];
      sums[target] += image.data[source] * alpha;
      sums[target + 1] += image.data[source + 1] * alpha;
      sums[target + 2] += image.data[source + 2] * alpha;
      sums[target + 3] += alpha;
      sums[target + 4] += 1;
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const alpha = sums[i * 5 + 3];
    const count = sums[i * 5 + 4] || 1;
    for (let c = 0; c < 3; c++) data[i * 4 + c] = alpha > 0 ? Math.round(sums[i * 5 + c] / alpha) : 0;
    data[i * 4 + 3] = Math.round(alpha / count);
  }
  return { width, height, data };
}

function handle(request: ImageRequest): ImageReply {
  let decoded: Rgba;
  try {
    decoded = decode(request);
  } catch (error) {
    return { id: request.id, error: String((error as Error).message ?? error) };
  }
  const fitted = fit(decoded, request.maxSide);
  const png = new PNG({ width: fitted.width, height: fitted.height, colorType: 6, inputHasAlpha: true });
  png.data = Buffer.from(fitted.data.buffer, fitted.data.byteOffset, fitted.data.byteLength);
  const bytes = new Uint8Array(PNG.sync.write(png, { colorType: 6 }));
  return { id: request.id, png: bytes, width: fitted.width, height: fitted.height };
}

parentPort?.on('message', (request: ImageRequest) => {
  const reply = handle(request);
  parentPort!.postMessage(reply, 'png' in reply ? [reply.png.buffer as ArrayBuffer] : []);
});
