import { boxFitsPage } from '../fields/field-rules.ts';
import { AppError } from '../../errors.ts';
import type { WordFormat } from '../../platform/pdf/convert-word.ts';
import type { PageSize } from '../../platform/pdf/inspect-pdf.ts';
import type { PlacedField } from './documents.repo.ts';
import type { Sequence, SignType } from './documents.schemas.ts';
import { SIGN_TYPE_OF } from '../workflows/workflows.service.ts';

// The document rules that need no database or file: names, formats, upload settings, page fit.

export type DocumentFormat = 'pdf' | WordFormat;

export const NAME_MAX = 50;

const SEQUENCE_OF: Record<SignType, Sequence> = { SELFSIGN: 'SELF', COUNTERSIGN: 'UNORDERED', POWERSURVEY: 'SURVEY' };

/** The refusal of a file over the upload limit (whether the blob store or the multipart parser noticed). */
export function tooLarge(limit: number): AppError {
  return new AppError(
    'INVALID_DOCUMENT_SIZE',
    `The file is larger than the ${Math.round(limit / (1024 * 1024))} MB upload limit`,
  );
}

/** The format an upload's name announces: its last extension, any case. */
export function formatOf(fileName: string): DocumentFormat | null {
  const match = /\.([A-Za-z]+)$/.exec(fileName.trim());
  const extension = match?.[1].toLowerCase();
  return extension === 'pdf' || extension === 'doc' || extension === 'docx' ? extension : null;
}

/** The file name as the audit trail shows it: no directory part or control characters, at most 255 characters. */
export function displayName(fileName: string): string {
  const base = (fileName.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim();
  return Array.from(base).slice(0, 255).join('');
}

/**
 * A document or workflow name from a file name: no directory part (browsers on Windows may send one), no
 * extension, no control characters, trimmed; a name longer than 50 characters is cut at the end of a word and
 * ends with "…" (the mail subject and the list show it, so it must not end mid-word: "…Acme Holdings In").
 */
export function nameOf(fileName: string): string {
  const cleaned = displayName(fileName)
    .replace(/\.[A-Za-z]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = Array.from(cleaned);
  if (characters.length === 0) return 'Untitled document';
  if (characters.length <= NAME_MAX) return cleaned;
  return `${shortened(characters, NAME_MAX - 1)}…`;
}

/** At most `max` characters, ending at a word's end when one falls in the last half; else cut where it stands. */
function shortened(characters: string[], max: number): string {
  const head = characters.slice(0, max + 1).join('');
  const lastSpace = head.lastIndexOf(' ');
  const atWord = lastSpace >= max / 2 ? head.slice(0, lastSpace) : characters.slice(0, max).join('');
  return atWord.replace(/[\s,;:.-]+$/, '');
}

/**
 * sequence and signType name the same choice twice: each defaults from the other, and a contradiction is refused.
 * Neither given: UNORDERED with COUNTERSIGN.
 */
export function resolveMode(
  sequence: Sequence | undefined,
  signType: SignType | undefined,
): { sequence: Sequence; signType: SignType } {
  if (sequence && signType) {
    if (SIGN_TYPE_OF[sequence] !== signType) {
      throw new AppError(
        'INVALID_REQUEST_BODY',
        `signType ${signType} contradicts sequence ${sequence}; ${sequence} goes with ${SIGN_TYPE_OF[sequence]}`,
      );
    }
    return { sequence, signType };
  }
  if (sequence) return { sequence, signType: SIGN_TYPE_OF[sequence] };
  if (signType) return { sequence: SEQUENCE_OF[signType], signType };
  return { sequence: 'UNORDERED', signType: 'COUNTERSIGN' };
}

const OFFSET_SUFFIX = /^(GMT|UTC)([+-]\d{1,2}(:?\d{2})?)?$/i;

/** "Asia/Kolkata GMT+05:30" → "Asia/Kolkata"; the identifier must be one the runtime's time-zone data knows. */
export function parseTimeZone(value: string | undefined): string {
  const text = value?.trim() ?? '';
  if (text === '') return 'UTC';
  const [zone, ...rest] = text.split(/\s+/);
  const suffix = rest.join('');
  const known = /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone) && isTimeZone(zone);
  if (!known || (suffix !== '' && !OFFSET_SUFFIX.test(suffix))) {
    throw new AppError(
      'BAD_REQUEST_BODY',
      `timeZone "${text.slice(0, 100)}" is not an IANA time zone such as "Asia/Kolkata GMT+05:30"`,
    );
  }
  return zone;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Fields whose page is gone, or whose box no longer fits on its page, once the file has `pageSizes`. */
export function fieldsOutside(placed: PlacedField[], pageSizes: PageSize[]): PlacedField[] {
  return placed.filter((field) => {
    const page = pageSizes[field.pageNo - 1];
    return !page || !boxFitsPage(field.box, page);
  });
}
