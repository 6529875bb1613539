import { AppError } from '../../errors.ts';
import type { RecipientRole } from './recipients.schemas.ts';
import { PERSON_NAME_RULE, isPersonName } from '../users/person-names.ts';

export const RECIPIENT_NAME_LENGTH = { min: 2, max: 50 } as const;

/**
 * SPEC.md: 2-50 characters, letters and single interior spaces (RUNTIME.md "Names": of any script, with hyphens and
 * apostrophes between letters; users/person-names.ts). Surrounding whitespace is trimmed first;
 * length counts characters (code points) of the NFC form. Returns the name to store.
 */
export function checkRecipientName(raw: string | null | undefined, index: number): string {
  const name = (raw ?? '').trim().normalize('NFC');
  const length = [...name].length;
  if (length < RECIPIENT_NAME_LENGTH.min || length > RECIPIENT_NAME_LENGTH.max) {
    throw new AppError(
      'RECIPIENT_NAME_INVALID',
      `Name size must be between ${RECIPIENT_NAME_LENGTH.min} and ${RECIPIENT_NAME_LENGTH.max}`,
      { index, field: 'name' },
    );
  }
  if (!isPersonName(name)) {
    throw new AppError('RECIPIENT_NAME_INVALID', `Name must contain only ${PERSON_NAME_RULE}`, {
      index,
      field: 'name',
    });
  }
  return name;
}

/** Blank or missing defaults to SIGNER (SPEC.md); the schema has already refused unknown values. */
export function recipientRole(raw: string | null | undefined): RecipientRole {
  return raw ? (raw as RecipientRole) : 'SIGNER';
}

/** The schema admits a positive integer as a number or a digit string; blank means none. */
export function recipientOrder(raw: number | string | null | undefined): number | null {
  if (raw === null || raw === undefined || raw === '') return null;
  return typeof raw === 'number' ? raw : Number(raw);
}
