import { Type } from 'typebox';
import { AppError } from '../../errors.ts';

/** The most ids one comma-separated list may carry (bulk deletes and folder moves). */
export const MAX_IDS_PER_CALL = 1000;

const ID = '[1-9][0-9]{0,9}';

/** SPEC.md's `"<comma-separated ids>"`: digits separated by commas, spaces around them tolerated. */
export const IdListString = Type.String({
  pattern: `^\\s*${ID}(\\s*,\\s*${ID})*\\s*$`,
  maxLength: 12 * MAX_IDS_PER_CALL,
  description: `Comma-separated positive integer ids, e.g. "12,15,19" (at most ${MAX_IDS_PER_CALL}; duplicates are ignored)`,
  examples: ['12,15,19'],
});

/** Parses a list the schema has already shaped; ids beyond the integer column range are refused here. */
export function parseIdList(text: string): number[] {
  const ids = [...new Set(text.split(',').map((part) => Number(part.trim())))];
  if (ids.some((id) => !Number.isSafeInteger(id) || id < 1 || id > 2147483647)) {
    throw new AppError('BAD_REQUEST_BODY', 'Every id must be a positive integer no larger than 2147483647');
  }
  if (ids.length > MAX_IDS_PER_CALL) throw new AppError('BAD_REQUEST_BODY', `At most ${MAX_IDS_PER_CALL} ids per call`);
  return ids;
}

/**
 * Trims a user-entered name or text; whitespace-only is a business-rule rejection (INVALID_REQUEST_BODY),
 * as SPEC.md says for comment bodies. The schema has already enforced the raw length limits.
 */
export function requireText(value: string, what: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) throw new AppError('INVALID_REQUEST_BODY', `${what} must not be empty or whitespace only`);
  return trimmed;
}

/** Escapes LIKE wildcards so a search value matches literally (used with `escape '\\'`). */
export function likeContains(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
