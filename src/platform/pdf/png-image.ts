import zlib from 'node:zlib';
import { PDFImage, PdfDict, PdfName, PdfNumber, PdfStream } from '@libpdf/core';
import type { PDF } from '@libpdf/core';

/**
 * Embeds an 8-bit, non-interlaced PNG (grey, grey + alpha, RGB, RGBA: what signature pads and canvases write) without
 * decoding its pixels: PDF's FlateDecode with the PNG predictors (/Predictor 15) reads PNG's filtered scanlines as they
 * are. An alpha channel is split off into a soft mask on the filtered bytes themselves, which stays exact because every
 * PNG filter predicts a byte from the same channel of neighbouring pixels. libpdf's embedPng unfilters every pixel and
 * compresses it again in JavaScript (pako): ~2 ms of a 1-page seal's ~4 ms of drawing for a 120 × 40 signature
 * (measured); this takes native zlib once or twice. Answers null for what it does not take (palette, 16-bit,
 * interlaced, a tRNS chunk): the caller embeds those with libpdf. Throws when the PNG is damaged.
 */
export function embedPngFiltered(doc: PDF, bytes: Uint8Array): PDFImage | null {
  const png = readChunks(bytes);
  if (!png) return null;
  const { width, height, channels } = png;
  const rowLength = 1 + width * channels;
  const expected = rowLength * height;
  // The exact size the header announces, no more: a small file cannot inflate into a large allocation.
  const filtered = zlib.inflateSync(png.idat, { maxOutputLength: Math.max(expected, 1) });
  if (filtered.length !== expected)
    throw new Error(`PNG data is ${filtered.length} bytes, the header announces ${expected}`);
  for (let row = 0; row < height; row++) {
    if (filtered[row * rowLength] > 4) throw new Error(`PNG row ${row} has an unknown filter type`);
  }
  const colorChannels = channels === 2 || channels === 4 ? channels - 1 : channels;
  const colorSpace = colorChannels === 1 ? 'DeviceGray' : 'DeviceRGB';
  if (colorChannels === channels) {
    // No alpha: the PNG's own compressed data is the stream.
    return new PDFImage(doc.register(imageStream(width, height, colorSpace, colorChannels, png.idat)), width, height);
  }
  const color = Buffer.allocUnsafe((1 + width * colorChannels) * height);
  const alpha = Buffer.allocUnsafe((1 + width) * height);
  let c = 0;
  let a = 0;
  for (let row = 0; row < height; row++) {
    let at = row * rowLength;
    const filter = filtered[at++];
    color[c++] = filter;
    alpha[a++] = filter;
    for (let x = 0; x < width; x++) {
      for (let k = 0; k < colorChannels; k++) color[c++] = filtered[at++];
      alpha[a++] = filtered[at++];
    }
  }
  const mask = doc.register(imageStream(width, height, 'DeviceGray', 1, zlib.deflateSync(alpha)));
  const stream = imageStream(width, height, colorSpace, colorChannels, zlib.deflateSync(color));
  stream.set('SMask', mask);
  return new PDFImage(doc.register(stream), width, height);
}

function imageStream(width: number, height: number, colorSpace: string, colors: number, data: Uint8Array): PdfStream {
  return new PdfStream(
    new PdfDict([
      ['Type', PdfName.of('XObject')],
      ['Subtype', PdfName.of('Image')],
      ['Width', PdfNumber.of(width)],
      ['Height', PdfNumber.of(height)],
      ['ColorSpace', PdfName.of(colorSpace)],
      ['BitsPerComponent', PdfNumber.of(8)],
      ['Filter', PdfName.of('FlateDecode')],
      [
        'DecodeParms',
        new PdfDict([
          ['Predictor', PdfNumber.of(15)],
          ['Colors', PdfNumber.of(colors)],
          ['BitsPerComponent', PdfNumber.of(8)],
          ['Columns', PdfNumber.of(width)],
        ]),
      ],
    ]),
    new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  );
}

/** Channels per PNG colour type that this path takes: grey, RGB, grey + alpha, RGBA (palette, 3, is not taken). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };
/** Beyond this many pixels the header is not believed (a signature or stamp is far smaller; libpdf then decides). */
const MAX_PIXELS = 40_000_000;

/** The header's facts and the joined IDAT data, or null when this path does not take the PNG. */
function readChunks(bytes: Uint8Array): { width: number; height: number; channels: number; idat: Buffer } | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < 8 || buffer.readUInt32BE(0) !== 0x89504e47 || buffer.readUInt32BE(4) !== 0x0d0a1a0a)
    throw new Error('not a PNG');
  let offset = 8;
  let header: { width: number; height: number; channels: number } | null = null;
  const idat: Buffer[] = [];
  while (offset + 8 <= buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString('latin1', offset + 4, offset + 8);
    const data = offset + 8;
    if (data + length + 4 > buffer.length) throw new Error(`PNG chunk ${type} runs past the end of the file`);
    if (type === 'IHDR') {
      if (length < 13) throw new Error('PNG header is too short');
      const width = buffer.readUInt32BE(data);
      const height = buffer.readUInt32BE(data + 4);
      const [bitDepth, colorType, compression, filter, interlace] = buffer.subarray(data + 8, data + 13);
      if (width === 0 || height === 0 || compression !== 0 || filter !== 0) throw new Error('PNG header is not valid');
      if (bitDepth !== 8 || interlace !== 0 || !(colorType in CHANNELS) || width * height > MAX_PIXELS) return null;
      header = { width, height, channels: CHANNELS[colorType] };
    } else if (type === 'tRNS') {
      return null;
    } else if (type === 'IDAT') {
      idat.push(buffer.subarray(data, data + length));
    } else if (type === 'IEND') {
      break;
    }
    offset = data + length + 4;
  }
  if (!header) throw new Error('PNG has no header');
  if (idat.length === 0) throw new Error('PNG has no image data');
  return { ...header, idat: idat.length === 1 ? idat[0] : Buffer.concat(idat) };
}
