import crypto from 'node:crypto';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { TestApp } from '../helpers/test-app.ts';

export type FormPart = { name: string; value?: string; filename?: string; contentType?: string; data?: Buffer };

/** A multipart/form-data body written by hand, so tests control every byte (names, types, sizes). */
export function multipartBody(parts: FormPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----branding${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename !== undefined
        ? `form-data; name="${part.name}"; filename="${part.filename}"`
        : `form-data; name="${part.name}"`;
    const type =
      part.filename !== undefined ? `\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`),
      part.data ?? Buffer.from(part.value ?? ''),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function putBranding(t: TestApp, token: string | undefined, parts: FormPart[]) {
  const { payload, contentType } = multipartBody(parts);
  const response = await t.app.inject({
    method: 'PUT',
    url: '/organization/v1/branding',
    headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    payload,
  });
  return {
    status: response.statusCode,
    body: response.body ? JSON.parse(response.body) : null,
    headers: response.headers,
  };
}

export function settings(value: unknown): FormPart {
  return { name: 'settingsJson', value: typeof value === 'string' ? value : JSON.stringify(value) };
}

export function logoPart(data: Buffer, filename = 'logo.png', contentType = 'image/png'): FormPart {
  return { name: 'logo', filename, contentType, data };
}

/** RGBA pixels: a colour gradient, or random noise (which PNG cannot compress). */
function pixels(width: number, height: number, noise = false): Buffer {
  const data = noise ? crypto.randomBytes(width * height * 4) : Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    if (!noise) data.set([(i * 7) & 255, 120, 200], i * 4);
    data[i * 4 + 3] = 255;
  }
  return data;
}

export function pngImage(width: number, height: number, options: { noise?: boolean; colorType?: 2 | 6 } = {}): Buffer {
  const png = new PNG({ width, height });
  png.data = pixels(width, height, options.noise);
  return PNG.sync.write(png, { colorType: options.colorType ?? 6 });
}

export function jpegImage(width: number, height: number): Buffer {
  return jpeg.encode({ width, height, data: pixels(width, height) }, 85).data;
}

export function decodePng(bytes: Buffer | Uint8Array): { width: number; height: number; data: Buffer } {
  return PNG.sync.read(Buffer.from(bytes));
}

/** A black greyscale PNG, unfiltered and deflated at the highest level: tiny on disk, `width` x `height` pixels once decoded. */
export function blankPng(width: number, height: number): Buffer {
  const png = new PNG({
    width,
    height,
    colorType: 0,
    inputColorType: 0,
    inputHasAlpha: false,
    deflateLevel: 9,
    filterType: 0,
  });
  png.data = Buffer.alloc(width * height);
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false, deflateLevel: 9, filterType: 0 });
}
