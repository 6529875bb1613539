import { AppError } from '../../errors.ts';
import { normalizeEmail } from '../users/users.directory.ts';
import { PERSON_NAME_RULE, isPersonName } from '../users/person-names.ts';
import type { SlotRow } from './templates.repo.ts';
import type { RecipientOverride } from './templates.schemas.ts';

export const OVERRIDE_NAME_LENGTH = { min: 3, max: 50 } as const;
export const EMAIL_MAX_LENGTH = 255;

const EMAIL = /^[^\s@"(),:;<>[\\\]]+@[^\s@"(),:;<>[\\\]]+\.[^\s@"(),:;<>[\\\]]+$/;
const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;

/** A slot with its placeholder label (a non-blank label marks a placeholder). */
export type Slot = SlotRow & { label: string | null };

/** One recipient of the new workflow: a slot with the dispatch's overrides applied. */
export type ResolvedRecipient = {
  slot: Slot;
  name: string;
  email: string;
  color: string;
  useDigitalCert: boolean;
  recipientOrder: number | null;
  /** undefined: keep the slot's stored password hash; null: none; a string: hash this. */
  password: string | null | undefined;
};

function invalid(index: number, field: string, detail: string): AppError {
  return new AppError('INVALID_FIELD_VALUE', detail, { recipientIndex: index, field });
}

/** SPEC.md: trimmed and whitespace-collapsed, 3-50 characters, letters and spaces only. */
export function overrideName(raw: string, index: number): string {
  const name = raw.trim().replace(/\s+/gu, ' ').normalize('NFC');
  const length = [...name].length;
  if (length < OVERRIDE_NAME_LENGTH.min || length > OVERRIDE_NAME_LENGTH.max) {
    throw invalid(
      index,
      'name',
      `name must be ${OVERRIDE_NAME_LENGTH.min}-${OVERRIDE_NAME_LENGTH.max} characters after trimming`,
    );
  }
  // SPEC.md's dispatch override name: the one rule for people's names (users/person-names.ts), no digits, no other symbols.
  if (!isPersonName(name))
    throw invalid(index, 'name', `name may hold only ${PERSON_NAME_RULE}: no digits, no other symbols`);
  return name;
}

export function overrideEmail(raw: string, index: number): string {
  const email = raw.trim();
  if (email.length > EMAIL_MAX_LENGTH)
    throw invalid(index, 'emailAddress', `emailAddress must be at most ${EMAIL_MAX_LENGTH} characters`);
  if (!EMAIL.test(email)) throw invalid(index, 'emailAddress', 'emailAddress is not a valid email address');
  return normalizeEmail(email);
}

function overrideOrder(raw: number | string, index: number): number {
  const order = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isInteger(order) || order < 1 || order > 999999999)
    throw invalid(index, 'recipientOrder', 'recipientOrder must be a positive integer');
  return order;
}

/**
 * SPEC.md "Templates", dispatch and apply: every override names a slot by its 1-based recipientIndex (omitted: its
 * position in the array, plus one); an index out of range or given twice, or more overrides than slots, is 400
 * BAD_REQUEST_BODY; a bad name, email, colour or order is 400 INVALID_FIELD_VALUE; a placeholder slot without
 * both a name and an email is 400 REQUIRED_FIELD_EMPTY; two recipients that end up with one email, where an
 * override gave at least one of them, is 400 DUPLICATE_RECIPIENT (as is a repeated order under ORDERED). Every
 * value an override omits is the slot's. `use` makes an editable draft, so it keeps the placeholders' stored values.
 */
export function resolveRecipients(
  slots: Slot[],
  overrides: RecipientOverride[],
  sequence: string,
  options: { fillPlaceholders: boolean },
): ResolvedRecipient[] {
  if (overrides.length > slots.length) {
    throw new AppError(
      'BAD_REQUEST_BODY',
      `The template has ${slots.length} recipient slots; ${overrides.length} overrides were given`,
    );
  }
  const byIndex = new Map<number, RecipientOverride>();
  overrides.forEach((override, position) => {
    const index = override.recipientIndex ?? position + 1;
    if (!Number.isInteger(index) || index < 1 || index > slots.length) {
      throw new AppError('BAD_REQUEST_BODY', `recipientIndex ${index} does not match a slot (1-${slots.length})`, {
        position,
        field: 'recipientIndex',
      });
    }
    if (byIndex.has(index))
      throw new AppError('BAD_REQUEST_BODY', `recipientIndex ${index} is given more than once`, {
        position,
        field: 'recipientIndex',
      });
    byIndex.set(index, override);
  });

  const resolved = slots.map((slot, position): ResolvedRecipient & { overridden: boolean } => {
    const index = position + 1;
    const override = byIndex.get(index);
    const name = override?.name == null ? null : overrideName(override.name, index);
    const email = override?.emailAddress == null ? null : overrideEmail(override.emailAddress, index);
    if (options.fillPlaceholders && slot.label && (name === null || email === null)) {
      throw new AppError(
        'REQUIRED_FIELD_EMPTY',
        `Recipient ${index} is the placeholder "${slot.label}": give its name and emailAddress`,
        { recipientIndex: index, label: slot.label },
      );
    }
    if (override?.recipientColor != null && !HEX_COLOR.test(override.recipientColor))
      throw invalid(index, 'recipientColor', 'recipientColor must be #RRGGBB');
    const order =
      override?.recipientOrder == null || override.recipientOrder === ''
        ? slot.recipientOrder
        : overrideOrder(override.recipientOrder, index);
    return {
      slot,
      overridden: email !== null,
      name: name ?? slot.name,
      email: email ?? slot.email,
      color: override?.recipientColor ?? slot.color,
      useDigitalCert: override?.useDigitalCert ?? slot.useDigitalCert,
      recipientOrder: order,
      password: override?.recipientPassword === undefined ? undefined : override.recipientPassword || null,
    };
  });

  const seen = new Map<string, boolean>();
  const orders = new Set<number>();
  resolved.forEach((recipient, position) => {
    const earlierOverridden = seen.get(recipient.email);
    if (earlierOverridden !== undefined && (earlierOverridden || recipient.overridden)) {
      throw new AppError('DUPLICATE_RECIPIENT', `${recipient.email} would be the email of two recipients`, {
        recipientIndex: position + 1,
        field: 'emailAddress',
      });
    }
    seen.set(recipient.email, (earlierOverridden ?? false) || recipient.overridden);
    if (sequence === 'ORDERED' && recipient.recipientOrder !== null) {
      if (orders.has(recipient.recipientOrder)) {
        throw new AppError(
          'DUPLICATE_RECIPIENT',
          `Recipient order ${recipient.recipientOrder} is used more than once`,
          { recipientIndex: position + 1, field: 'recipientOrder' },
        );
      }
      orders.add(recipient.recipientOrder);
    }
  });
  return resolved.map(({ overridden: _overridden, ...recipient }) => recipient);
}
