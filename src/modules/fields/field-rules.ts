import { AppError } from '../../errors.ts';
import type { PageSize } from './fields.repo.ts';
import { DROPDOWN_OPTIONS, STYLING_KEYS, type Box, type Styling, type StylingInput } from './fields.schemas.ts';

/** Where in the request a rejected value sits: the entry's index in a list call, and the member. */
export type Place = { index?: number; field: string };

export function invalidField(description: string, place: Place): AppError {
  return new AppError('INVALID_FIELD', description, place);
}

/** pageNo must name an existing page; the box must have a positive size and lie entirely inside that page. */
export function checkPlacement(pageNo: number, box: Box, pageSizes: PageSize[], index?: number): void {
  if (pageNo < 1 || pageNo > pageSizes.length) {
    throw invalidField(`pageNo must be between 1 and ${pageSizes.length}, the document's page count`, {
      index,
      field: 'pageNo',
    });
  }
  if (!(box.width > 0) || !(box.height > 0))
    throw invalidField('box width and height must be greater than 0', { index, field: 'box' });
  const page = pageSizes[pageNo - 1];
  if (!boxFitsPage(box, page)) {
    throw invalidField(`box must lie inside page ${pageNo} (${page.width} x ${page.height} points, origin top-left)`, {
      index,
      field: 'box',
    });
  }
}

/** Whether a box lies inside a page (points, origin top-left): the one such rule, for placement and replacement. */
export function boxFitsPage(box: Box, page: PageSize): boolean {
  // The tolerance absorbs binary rounding of sums such as 0.1 + 611.9; it is far below anything visible.
  const slack = 1e-6;
  return (
    box.x >= 0 && box.y >= 0 && box.x + box.width <= page.width + slack && box.y + box.height <= page.height + slack
  );
}

/**
 * The schema types each styling member; this refuses keys it does not know (the shared validator strips rather
 * than refuses unknown properties, and a misspelt key silently ignored would be worse). Null members are dropped;
 * an object left empty is stored as no styling.
 */
export function cleanStyling(input: StylingInput | null, index?: number): Styling | null {
  if (input === null) return null;
  const unknown = Object.keys(input).filter((key) => !(STYLING_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new AppError(
      'BAD_REQUEST_BODY',
      `Unknown styling key${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}; allowed: ${STYLING_KEYS.join(', ')}`,
      { index, field: 'styling' },
    );
  }
  const kept = Object.entries(input).filter(([, value]) => value !== null && value !== undefined);
  return kept.length > 0 ? Object.fromEntries(kept) : null;
}

/** DROPDOWN choices: 1-100 strings, each trimmed and non-blank. */
export function cleanOptions(options: string[] | null | undefined, index?: number): string[] {
  const cleaned = (options ?? []).map((option) => option.trim());
  if (cleaned.length < DROPDOWN_OPTIONS.min || cleaned.length > DROPDOWN_OPTIONS.max) {
    throw invalidField(`A DROPDOWN needs ${DROPDOWN_OPTIONS.min}-${DROPDOWN_OPTIONS.max} options`, {
      index,
      field: 'options',
    });
  }
  if (cleaned.some((option) => option.length === 0))
    throw invalidField('DROPDOWN options must not be blank', { index, field: 'options' });
  return cleaned;
}

/** Stored trimmed; blank is no label. */
export function cleanLabel(label: string | null): string | null {
  const trimmed = label?.trim() ?? '';
  return trimmed.length > 0 ? trimmed : null;
}
