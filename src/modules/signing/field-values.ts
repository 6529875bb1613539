import zlib from 'node:zlib';
import { AppError } from '../../errors.ts';
import type { fields } from '../../platform/db/schema/index.ts';

export type FieldRow = typeof fields.$inferSelect;

/** SPEC.md's field types. */
export const FIELD_TYPES = [
  'SIGNATURE', 'TEXT', 'CHECKBOX', 'NAME', 'EMAIL', 'NUMBER', 'DROPDOWN', 'NOTE', 'TEXTAREA',
  'DIGITAL_SIGNATURE', 'INITIALS', 'IMAGE', 'DATE', 'STAMP',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/**
 * Types whose value is a PNG image given as a data URL. DIGITAL_SIGNATURE is not among them: its value is
 * the text its appearance shows (e.g. the signer's name), the cryptographic part being remote signing's.
 */
export const IMAGE_FIELD_TYPES: readonly string[] = ['SIGNATURE', 'INITIALS', 'STAMP', 'IMAGE'];
/** SPEC.md STAMP rule 3: these may never be left empty once submitted, and block finishing while empty. */
export const SIGNATURE_FIELD_TYPES: readonly string[] = ['SIGNATURE', 'INITIALS'];
/** signatureAssetId is a link to a saved library entry; only these types carry one (SPEC.md). */
export const LIBRARY_FIELD_TYPES: readonly string[] = ['SIGNATURE', 'INITIALS', 'STAMP'];

/** Decoded size cap of one image value. */
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
/** Width and height cap of one image value, in pixels. */
export const MAX_IMAGE_DIMENSION = 8000;
/** Character caps of the text types (EMAIL also by SPEC.md's 255-character address limit). */
export const TEXT_LIMITS: Record<string, number> = { TEXT: 255, NAME: 255, EMAIL: 255, DIGITAL_SIGNATURE: 255, NUMBER: 64, DATE: 10, DROPDOWN: 255, NOTE: 5000, TEXTAREA: 5000 };

export type RawValue = string | number | boolean | null | undefined;

const DATA_URL_PREFIX = /^data:image\/png;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_IEND = Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);
/** Bit depths PNG allows per colour type (PNG spec, table 11.1). */
const PNG_BIT_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const EMAIL = /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const NUMERAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function invalid(field: Pick<FieldRow, 'id' | 'fieldType'>, reason: string): AppError {
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
 * field is required (SPEC.md STAMP rule 3, extended to every required field).
 */
export function normalizeFieldValue(field: FieldRow, raw: RawValue): string | null {
  if (isBlank(raw)) {
    if (SIGNATURE_FIELD_TYPES.includes(field.fieldType)) throw new AppError('REQUIRED_FIELD_EMPTY', `Field ${field.id} (${field.fieldType}): a signature or initials cannot be submitted empty`);
    if (field.fieldRequired) throw new AppError('REQUIRED_FIELD_EMPTY', `Field ${field.id} (${field.fieldType}) is required and cannot be submitted empty`);
    return null;
  }
  if (IMAGE_FIELD_TYPES.includes(field.fieldType)) return pngDataUrl(field, raw);
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
      if (!options.includes(value)) throw invalid(field, `must be one of the field's options (${options.map((o) => JSON.stringify(o)).join(', ') || 'none defined'})`);
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
    if (field.fieldRequired) throw new AppError('REQUIRED_FIELD_EMPTY', `Field ${field.id} (CHECKBOX) is required and must be ticked`);
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
  if (value.length > TEXT_LIMITS.NUMBER || !NUMERAL.test(value) || !Number.isFinite(Number(value))) throw invalid(field, 'expected a finite decimal number such as 42 or -3.5');
  return value;
}

function isoDate(field: FieldRow, value: string): string {
  const match = ISO_DATE.exec(value);
  if (!match) throw invalid(field, 'expected an ISO date YYYY-MM-DD');
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) throw invalid(field, `${value} is not a calendar date`);
  return value;
}

/**
 * A data URL `data:image/png;base64,…` whose bytes are a PNG: signature, a well-formed IHDR (checksum,
 * dimensions, colour type and bit depth) and an IEND trailer. Checked before anything is stored so that
 * the sealing job never meets an image it cannot embed.
 */
function pngDataUrl(field: FieldRow, raw: RawValue): string {
  if (typeof raw !== 'string') throw invalid(field, 'expected a data URL "data:image/png;base64,…"');
  const prefix = DATA_URL_PREFIX.exec(raw);
  if (!prefix) throw invalid(field, 'expected a data URL "data:image/png;base64,…" (PNG only)');
  const base64 = raw.slice(prefix[0].length);
  const maxBase64 = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
  if (base64.length > maxBase64) throw invalid(field, `the image is ${(base64.length * 0.75 / 1024 / 1024).toFixed(1)} MB; at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) throw invalid(field, 'the data URL is not valid base64');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) throw invalid(field, `the image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`);
  if (bytes.length < 8 + 25 + 12 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw invalid(field, 'the data is not a PNG image');
  const ihdrLength = bytes.readUInt32BE(8);
  if (ihdrLength !== 13 || bytes.toString('latin1', 12, 16) !== 'IHDR') throw invalid(field, 'the PNG has no valid IHDR header');
  if (zlib.crc32(bytes.subarray(12, 29)) !== bytes.readUInt32BE(29)) throw invalid(field, 'the PNG header checksum does not match');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const [bitDepth, colourType, compression, filter, interlace] = bytes.subarray(24, 29);
  if (width < 1 || height < 1 || width > MAX_IMAGE_DIMENSION || height > MAX_IMAGE_DIMENSION) throw invalid(field, `the PNG must be 1-${MAX_IMAGE_DIMENSION} pixels wide and high`);
  if (!PNG_BIT_DEPTHS[colourType]?.includes(bitDepth) || compression !== 0 || filter !== 0 || interlace > 1) throw invalid(field, 'the PNG header is not valid');
  if (!bytes.subarray(bytes.length - 12).equals(PNG_IEND)) throw invalid(field, 'the PNG is truncated (no IEND chunk)');
  return `data:image/png;base64,${base64}`;
}
