import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { AppError } from '../../errors.ts';

import type { FieldRow } from './signing.repo.ts';

export type { FieldRow };

/** SPEC.md's field types. */
import { FIELD_TYPES, type FieldType } from '../fields/fields.schemas.ts';

export { FIELD_TYPES, type FieldType };

/**
 * Types whose value is a PNG image given as a data URL. DIGITAL_SIGNATURE is not among them: its value is what
 * its appearance shows, either text or (from the signing page) the signer's signature image; see hasImageValue.
 */
export const IMAGE_FIELD_TYPES: readonly string[] = ['SIGNATURE', 'INITIALS', 'STAMP', 'IMAGE'];

/** Whether a submitted value is an image to decode and re-encode: always for the image types, and a data URL on a DIGITAL_SIGNATURE. */
export function hasImageValue(fieldType: string, raw: RawValue): boolean {
  if (isBlank(raw)) return false;
  return (
    IMAGE_FIELD_TYPES.includes(fieldType) ||
    (fieldType === 'DIGITAL_SIGNATURE' && typeof raw === 'string' && /^\s*data:/i.test(raw))
  );
}
/** SPEC.md STAMP rule 3: these may never be left empty once submitted, and block finishing while empty. */
export const SIGNATURE_FIELD_TYPES: readonly string[] = ['SIGNATURE', 'INITIALS'];
/** signatureAssetId is a link to a saved library entry; only these types carry one (SPEC.md). */
export const LIBRARY_FIELD_TYPES: readonly string[] = ['SIGNATURE', 'INITIALS', 'STAMP'];

/** Decoded size cap of one image value. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** Width and height cap of one image value, in pixels. */
export const MAX_IMAGE_DIMENSION = 8000;
/** Pixel cap of one image value (64 MB once decoded to RGBA): bounds what a 2 MB upload makes the decoder allocate. */
export const MAX_IMAGE_PIXELS = 4096 * 4096;
/** Longest side of a stored image; larger ones are scaled down (an A4 page's width at about 250 dpi). */
export const STORED_IMAGE_MAX_DIMENSION = 2048;
/** Character caps of the text types (EMAIL also by SPEC.md's 255-character address limit). */
export const TEXT_LIMITS: Record<string, number> = {
  TEXT: 255,
  NAME: 255,
  EMAIL: 255,
  DIGITAL_SIGNATURE: 255,
  NUMBER: 64,
  DATE: 10,
  DROPDOWN: 255,
  NOTE: 5000,
  TEXTAREA: 5000,
};

export type RawValue = string | number | boolean | null | undefined;

const DATA_URL_PREFIX = /^data:image\/png;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Bit depths PNG allows per colour type (PNG spec, table 11.1). */
const PNG_BIT_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};
/** Samples per pixel of each colour type: grey, RGB, palette index, grey + alpha, RGBA. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7 passes: first column, first row, column step, row step. */
const ADAM7_PASSES = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;
const inflate = promisify(zlib.inflate);
const deflate = promisify(zlib.deflate);
const EMAIL =
  /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const NUMERAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function invalid(field: { id: number; fieldType: string }, reason: string): AppError {
  return new AppError('INVALID_FIELD_VALUE', `Field ${field.id} (${field.fieldType}): ${reason}`);
}

/** A value that fills nothing: null, absent, or a string of whitespace only. */
export function isBlank(value: RawValue): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/**
 * Whether a stored value counts as filled for the finish check. A required CHECKBOX has to be ticked:
 * "false" leaves it empty.
 */
export function isFilled(field: Pick<FieldRow, 'fieldType' | 'fieldRequired'>, stored: string | null): boolean {
  if (stored === null || stored === '') return false;
  if (field.fieldType === 'CHECKBOX' && field.fieldRequired) return stored === 'true';
  return true;
}

/**
 * Validates one submitted value against its field and returns what is stored: a canonical string, or null
 * for an empty value. Empty SIGNATURE or INITIALS is always refused, any other empty value only when the
 * field is required (SPEC.md STAMP rule 3, extended to every required field). A non-empty image value is
 * stored as `normalizedImage`, what normalizeImageValue made of it: decoding is slow, so callers do it before
 * they take locks.
 */
export function normalizeFieldValue(field: FieldRow, raw: RawValue, normalizedImage?: string): string | null {
  if (isBlank(raw)) {
    if (SIGNATURE_FIELD_TYPES.includes(field.fieldType))
      throw new AppError(
        'REQUIRED_FIELD_EMPTY',
        `Field ${field.id} (${field.fieldType}): a signature or initials cannot be submitted empty`,
      );
    if (field.fieldRequired)
      throw new AppError(
        'REQUIRED_FIELD_EMPTY',
        `Field ${field.id} (${field.fieldType}) is required and cannot be submitted empty`,
      );
    return null;
  }
  if (field.fieldType === 'DIGITAL_SIGNATURE' && normalizedImage !== undefined) return normalizedImage;
  if (IMAGE_FIELD_TYPES.includes(field.fieldType)) {
    if (normalizedImage === undefined)
      throw new Error(`Field ${field.id}: image values must go through normalizeImageValue first`);
    return normalizedImage;
  }
  if (field.fieldType === 'CHECKBOX') return checkbox(field, raw);
  if (field.fieldType === 'NUMBER') return numeral(field, raw);
  if (typeof raw !== 'string') throw invalid(field, `expected a string, got ${typeof raw}`);
  const value = raw.trim();
  const limit = TEXT_LIMITS[field.fieldType];
  if (limit !== undefined && [...value].length > limit) throw invalid(field, `at most ${limit} characters`);
  switch (field.fieldType) {
    case 'EMAIL':
      if (!EMAIL.test(value)) throw invalid(field, 'not a valid email address');
      return value;
    case 'DATE':
      return isoDate(field, value);
    case 'DROPDOWN': {
      const options = Array.isArray(field.options) ? (field.options as unknown[]).map(String) : [];
      if (!options.includes(value))
        throw invalid(
          field,
          `must be one of the field's options (${options.map((o) => JSON.stringify(o)).join(', ') || 'none defined'})`,
        );
      return value;
    }
    default:
      return value;
  }
}

function checkbox(field: FieldRow, raw: RawValue): string {
  if (raw === true || raw === 'true') {
    return 'true';
  }
  if (raw === false || raw === 'false') {
    if (field.fieldRequired)
      throw new AppError('REQUIRED_FIELD_EMPTY', `Field ${field.id} (CHECKBOX) is required and must be ticked`);
    return 'false';
  }
  throw invalid(field, 'expected true or false');
}

function numeral(field: FieldRow, raw: RawValue): string {
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) throw invalid(field, 'expected a finite number');
    return String(raw);
  }
  if (typeof raw !== 'string') throw invalid(field, `expected a number, got ${typeof raw}`);
  const value = raw.trim();
  if (value.length > TEXT_LIMITS.NUMBER || !NUMERAL.test(value) || !Number.isFinite(Number(value)))
    throw invalid(field, 'expected a finite decimal number such as 42 or -3.5');
  return value;
}

function isoDate(field: FieldRow, value: string): string {
  const match = ISO_DATE.exec(value);
  if (!match) throw invalid(field, 'expected an ISO date YYYY-MM-DD');
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    throw invalid(field, `${value} is not a calendar date`);
  return value;
}

/**
 * An image value as it is stored: the submitted `data:image/png;base64,…` decoded in full and re-encoded as a
 * plain PNG (8-bit RGBA, not interlaced, no ancillary chunks), at most 2048 px on its longest side. What is
 * accepted is therefore always something the sealer can embed: a PNG that only looked right in its header
 * (damaged image data, an interlaced file the PDF writer cannot embed) used to be stored and then failed
 * every seal attempt. JPEG is refused: the decoder crashes the process on a damaged JPEG, and checking one
 * fully first would take a JPEG decoder of our own; signature pads and SPEC.md's values are PNG.
 */
export async function normalizeImageValue(field: { id: number; fieldType: string }, raw: RawValue): Promise<string> {
  if (typeof raw !== 'string') throw invalid(field, 'expected a data URL "data:image/png;base64,…"');
  const prefix = DATA_URL_PREFIX.exec(raw);
  if (!prefix) throw invalid(field, 'expected a data URL "data:image/png;base64,…" (PNG only)');
  const base64 = raw.slice(prefix[0].length);
  const maxBase64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
  if (base64.length > maxBase64)
    throw invalid(
      field,
      `the image is ${((base64.length * 0.75) / 1024 / 1024).toFixed(1)} MB; at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`,
    );
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) throw invalid(field, 'the data URL is not valid base64');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES)
    throw invalid(field, `the image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  const png = readPngChunks(bytes);
  if (typeof png === 'string') throw invalid(field, png);
  const dataProblem = await checkPngImageData(png);
  if (dataProblem) throw invalid(field, dataProblem);
  return `data:image/png;base64,${(await reencodePng(png)).toString('base64')}`;
}

type PngParts = {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  interlaced: boolean;
  header: Buffer;
  palette: Buffer | null;
  transparency: Buffer | null;
  imageData: Buffer;
};

/**
 * The chunk structure of a PNG, every chunk's CRC checked: IHDR first and valid, PLTE where the colour type
 * needs or allows it, tRNS of the right size, consecutive IDAT chunks, IEND last with nothing after it, and
 * no critical chunk this decoder does not know. Returns the reason when the bytes are not such a PNG.
 */
function readPngChunks(bytes: Buffer): PngParts | string {
  if (bytes.length < 8 + 25 + 12 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'the data is not a PNG image';
  let header: Buffer | null = null;
  let palette: Buffer | null = null;
  let transparency: Buffer | null = null;
  const idat: Buffer[] = [];
  let idatEnded = false;
  let offset = 8;
  for (;;) {
    if (offset + 12 > bytes.length) return 'the PNG is truncated (no IEND chunk)';
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (length > 0x7fffffff || end > bytes.length)
      return `the PNG is truncated (chunk ${JSON.stringify(type)} runs past the end)`;
    if (zlib.crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== bytes.readUInt32BE(offset + 8 + length)) {
      return header
        ? `the PNG chunk ${JSON.stringify(type)} is damaged (checksum mismatch)`
        : 'the PNG header checksum does not match';
    }
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    offset = end;
    if (!header) {
      if (type !== 'IHDR' || length !== 13) return 'the PNG has no valid IHDR header';
      header = data;
      continue;
    }
    if (idat.length > 0 && type !== 'IDAT') idatEnded = true;
    if (type === 'IEND') {
      if (offset !== bytes.length) return 'the PNG has data after its IEND chunk';
      break;
    }
    if (type === 'IDAT') {
      if (idatEnded) return 'the PNG image data is split by other chunks';
      idat.push(data);
    } else if (type === 'PLTE') {
      if (palette || idat.length > 0 || length === 0 || length % 3 !== 0 || length > 768)
        return 'the PNG palette is not valid';
      palette = data;
    } else if (type === 'tRNS') {
      if (transparency || idat.length > 0) return 'the PNG transparency chunk is misplaced';
      transparency = data;
    } else if (/^[A-Z]/.test(type)) {
      return `the PNG has an unknown critical chunk ${JSON.stringify(type)}`;
    }
    // Ancillary chunks (text, colour profiles, animation frames ...) are dropped from what is stored.
  }
  const width = header.readUInt32BE(0);
  const height = header.readUInt32BE(4);
  const [bitDepth, colourType, compression, filter, interlace] = header.subarray(8, 13);
  if (width < 1 || height < 1 || width > MAX_IMAGE_DIMENSION || height > MAX_IMAGE_DIMENSION)
    return `the PNG must be 1-${MAX_IMAGE_DIMENSION} pixels wide and high`;
  if (width * height > MAX_IMAGE_PIXELS)
    return `the PNG has ${width} x ${height} pixels; at most ${MAX_IMAGE_PIXELS} in all`;
  if (!PNG_BIT_DEPTHS[colourType]?.includes(bitDepth) || compression !== 0 || filter !== 0 || interlace > 1)
    return 'the PNG header is not valid';
  if (idat.length === 0) return 'the PNG has no image data';
  if (colourType === 3 && (!palette || palette.length / 3 > 2 ** bitDepth))
    return 'the PNG palette is missing or too long for its bit depth';
  if ((colourType === 0 || colourType === 4) && palette) return 'the PNG has a palette its colour type does not allow';
  if (transparency) {
    const expected = { 0: 2, 2: 6 }[colourType as 0 | 2];
    const fits = colourType === 3 ? transparency.length <= palette!.length / 3 : transparency.length === expected;
    if (!fits) return 'the PNG transparency chunk does not fit its colour type';
  }
  return {
    width,
    height,
    bitDepth,
    colourType,
    interlaced: interlace === 1,
    header,
    palette,
    transparency,
    imageData: Buffer.concat(idat),
  };
}

/**
 * Decompresses the image data and checks that it is exactly the scanlines the header promises (per Adam7
 * pass when interlaced), each with a valid filter type: damaged or short data is found here, because the
 * canvas decoder below draws such an image as silently blank.
 */
async function checkPngImageData(png: PngParts): Promise<string | null> {
  const bitsPerPixel = PNG_CHANNELS[png.colourType] * png.bitDepth;
  const passes = png.interlaced ? ADAM7_PASSES : [[0, 0, 1, 1] as const];
  const rows: { bytes: number; count: number }[] = passes.map(([x0, y0, dx, dy]) => {
    const columns = png.width > x0 ? Math.ceil((png.width - x0) / dx) : 0;
    const count = png.height > y0 && columns > 0 ? Math.ceil((png.height - y0) / dy) : 0;
    return { bytes: 1 + Math.ceil((columns * bitsPerPixel) / 8), count };
  });
  const expected = rows.reduce((sum, r) => sum + r.bytes * r.count, 0);
  let scanlines: Buffer;
  try {
    scanlines = await inflate(png.imageData, { maxOutputLength: expected + 1 });
  } catch {
    return 'the PNG image data is damaged (it does not decompress)';
  }
  if (scanlines.length !== expected)
    return `the PNG image data is damaged (${scanlines.length} bytes where its header needs ${expected})`;
  let offset = 0;
  for (const { bytes, count } of rows) {
    for (let row = 0; row < count; row++, offset += bytes) {
      if (scanlines[offset] > 4) return 'the PNG image data is damaged (invalid scanline filter)';
    }
  }
  return null;
}

/**
 * Decodes the checked PNG with @napi-rs/canvas (scaled down to STORED_IMAGE_MAX_DIMENSION) and writes its
 * pixels out as 8-bit RGBA, non-interlaced. The decoder gets only the chunks checked above. The PNG is
 * written here rather than by the canvas encoder, which took 3x as long (330 ms against 100 ms for
 * 2000 x 2000 px) and leaves the output format to the library.
 */
async function reencodePng(png: PngParts): Promise<Buffer> {
  const minimal = Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', png.header),
    ...(png.palette ? [pngChunk('PLTE', png.palette)] : []),
    ...(png.transparency ? [pngChunk('tRNS', png.transparency)] : []),
    pngChunk('IDAT', png.imageData),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  const image = await loadImage(minimal);
  const scale = Math.min(1, STORED_IMAGE_MAX_DIMENSION / Math.max(png.width, png.height));
  const width = Math.max(1, Math.round(png.width * scale));
  const height = Math.max(1, Math.round(png.height * scale));
  const context = createCanvas(width, height).getContext('2d');
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, 0, 0, width, height);
  const rgba = context.getImageData(0, 0, width, height).data;
  const rowBytes = width * 4;
  const scanlines = Buffer.alloc((rowBytes + 1) * height);
  for (let y = 0; y < height; y++)
    scanlines.set(rgba.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', await deflate(scanlines)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([length, typed, crc]);
}
