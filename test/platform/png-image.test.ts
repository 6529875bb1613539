import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { PDF, ops } from '@libpdf/core';
import type { PDFImage } from '@libpdf/core';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, describe, expect, it } from 'vitest';
import { embedPngFiltered } from '../../src/platform/pdf/png-image.ts';
import { renderPage } from '../helpers/pdf-sealing-fixtures.ts';
import { has } from '../helpers/tools.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'png-image-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// ---------------------------------------------------------------------------------------------------------
// A PNG writer for the test, applying each PNG filter in turn, so every predictor is exercised.

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit PNG of `pixels` (rows of width × channels bytes), row r filtered with filter type r % 5. */
function png(
  width: number,
  height: number,
  colorType: 0 | 2 | 4 | 6,
  pixels: Buffer,
  options: { extra?: Buffer[]; idatParts?: number } = {},
): Uint8Array {
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colorType];
  const stride = width * channels;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const filter = y % 5;
    const row = Buffer.alloc(1 + stride);
    row[0] = filter;
    for (let x = 0; x < stride; x++) {
      const raw = pixels[y * stride + x];
      const left = x >= channels ? pixels[y * stride + x - channels] : 0;
      const up = y > 0 ? pixels[(y - 1) * stride + x] : 0;
      const upLeft = y > 0 && x >= channels ? pixels[(y - 1) * stride + x - channels] : 0;
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter];
      row[1 + x] = (raw - predicted) & 0xff;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, colorType, 0, 0, 0], 8);
  const compressed = zlib.deflateSync(Buffer.concat(rows));
  const parts = options.idatParts ?? 1;
  const size = Math.ceil(compressed.length / parts);
  const idat = Array.from({ length: parts }, (_, i) => chunk('IDAT', compressed.subarray(i * size, (i + 1) * size)));
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      ...(options.extra ?? []),
      ...idat,
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

/** A one-page PDF showing `embed`'s image; saved. */
async function pdfWith(embed: (doc: PDF) => PDFImage): Promise<Uint8Array> {
  const doc = PDF.create();
  const page = doc.addPage({ width: 200, height: 200 });
  const image = embed(doc);
  page.drawOperators([
    ops.pushGraphicsState(),
    ops.concatMatrix(150, 0, 0, 150, 25, 25),
    ops.paintXObject(page.registerImage(image)),
    ops.popGraphicsState(),
  ]);
  return doc.save();
}

/**
 * What poppler decodes from a PDF's images (pdfimages -png: each image and soft mask as a PNG file), by name; without
 * pdfimages, each one's decoded samples read with libpdf.
 */
async function decodedImages(pdf: Uint8Array, name: string): Promise<Record<string, string>> {
  if (!has('pdfimages')) return (await import('../helpers/pdfjs-reading.ts')).decodedImagesWithLibpdf(pdf);
  const file = path.join(dir, `${name}.pdf`);
  fs.writeFileSync(file, pdf);
  const out = path.join(dir, name);
  execFileSync('pdfimages', ['-png', file, out]);
  const listed = fs
    .readdirSync(dir)
    .filter((f) => f.startsWith(`${name}-`))
    .sort();
  return Object.fromEntries(
    listed.map((f) => [
      f.slice(name.length),
      crypto
        .createHash('sha256')
        .update(fs.readFileSync(path.join(dir, f)))
        .digest('hex'),
    ]),
  );
}

/** Every pixel of page 1 as poppler renders it (pdftoppm, 72 dpi; pdf.js without it), as one string of RGB triples. */
async function render(pdf: Uint8Array): Promise<string> {
  const raster = await renderPage(pdf);
  const pixels: number[] = [];
  for (let y = 0; y < raster.height; y++) for (let x = 0; x < raster.width; x++) pixels.push(...raster.pixel(x, y));
  return Buffer.from(pixels).toString('base64');
}

describe('PNG images embedded on their filtered rows', () => {
  it("decode to exactly what libpdf's decoding embed gives, for grey, grey + alpha, RGB and RGBA, every filter, IDAT split or not", async () => {
    for (const colorType of [0, 2, 4, 6] as const) {
      const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colorType];
      const [width, height] = [37, 23];
      const pixels = crypto.randomBytes(width * height * channels);
      for (const idatParts of [1, 3]) {
        const bytes = png(width, height, colorType, pixels, { idatParts });
        const name = `t${colorType}-${idatParts}`;
        const fast = await pdfWith((doc) => embedPngFiltered(doc, bytes)!);
        const slow = await pdfWith((doc) => doc.embedPng(bytes));
        const decoded = await decodedImages(fast, `${name}-fast`);
        // An image, plus its soft mask when the PNG has alpha.
        expect(Object.keys(decoded).length, name).toBe(channels === 2 || channels === 4 ? 2 : 1);
        expect(decoded, name).toEqual(await decodedImages(slow, `${name}-slow`));
        const shown = await render(fast);
        // 200 × 200 points at 72 dpi, three bytes a pixel: a real picture was compared, not an empty output.
        expect(Buffer.from(shown, 'base64').length, name).toBe(200 * 200 * 3);
        expect(shown, name).toBe(await render(slow));
      }
    }
  });

  it("takes a canvas-drawn signature (RGBA, the signing pad's output) and draws it as libpdf would", async () => {
    const canvas = createCanvas(240, 80);
    const context = canvas.getContext('2d');
    context.strokeStyle = '#1a3c8c';
    context.lineWidth = 3;
    context.beginPath();
    context.moveTo(10, 60);
    context.bezierCurveTo(60, 0, 120, 90, 230, 20);
    context.stroke();
    const bytes = new Uint8Array(canvas.toBuffer('image/png'));
    const fast = await pdfWith((doc) => embedPngFiltered(doc, bytes)!);
    const slow = await pdfWith((doc) => doc.embedPng(bytes));
    expect(await decodedImages(fast, 'pad-fast')).toEqual(await decodedImages(slow, 'pad-slow'));
    expect(await render(fast)).toBe(await render(slow));
  });

  it('leaves palette, 16-bit, interlaced and tRNS images to libpdf (null), and refuses damaged ones', () => {
    const doc = PDF.create();
    const base = Buffer.from(png(4, 4, 2, crypto.randomBytes(48)));
    const withHeader = (patch: (ihdr: Buffer) => void) => {
      const copy = Buffer.from(base);
      // IHDR data starts at 16: width, height, bit depth, colour type, compression, filter, interlace.
      patch(copy.subarray(16, 29));
      copy.writeUInt32BE(zlib.crc32(copy.subarray(12, 29)), 29);
      return new Uint8Array(copy);
    };
    expect(
      embedPngFiltered(
        doc,
        withHeader((h) => {
          h[9] = 3;
        }),
      ),
    ).toBeNull();
    expect(
      embedPngFiltered(
        doc,
        withHeader((h) => {
          h[8] = 16;
        }),
      ),
    ).toBeNull();
    expect(
      embedPngFiltered(
        doc,
        withHeader((h) => {
          h[12] = 1;
        }),
      ),
    ).toBeNull();
    expect(
      embedPngFiltered(doc, png(4, 4, 2, crypto.randomBytes(48), { extra: [chunk('tRNS', Buffer.alloc(6))] })),
    ).toBeNull();

    // Truncated, a header announcing fewer rows than the data holds (the data is not inflated past the announced size), an unknown row filter.
    expect(() => embedPngFiltered(doc, base.subarray(0, 40))).toThrow(/runs past the end|no image data|no header/);
    expect(() =>
      embedPngFiltered(
        doc,
        withHeader((h) => h.writeUInt32BE(2, 4)),
      ),
    ).toThrow();
    const badFilter = Buffer.concat([Buffer.from([9]), Buffer.alloc(12)]);
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(4, 0);
    ihdr.writeUInt32BE(1, 4);
    ihdr.set([8, 2, 0, 0, 0], 8);
    const bad = Buffer.concat([
      base.subarray(0, 8),
      chunk('IHDR', ihdr),
      chunk('IDAT', zlib.deflateSync(badFilter)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(() => embedPngFiltered(doc, new Uint8Array(bad))).toThrow(/unknown filter type/);
    expect(() => embedPngFiltered(doc, new Uint8Array(Buffer.from('not a png at all')))).toThrow(/not a PNG/);
  });
});
