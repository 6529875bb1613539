/** What the editor knows about each field type and about the rules the service checks, so errors show before a call. */
import type { Box, Field, FieldType, PageSize, Recipient } from './types.ts';
import { isPersonName } from '../shared/person-name.ts';

/** A new field's size in points, by type: what a signer needs to write or draw in. */
export const DEFAULT_SIZE: Record<FieldType, { width: number; height: number }> = {
  SIGNATURE: { width: 180, height: 50 },
  DIGITAL_SIGNATURE: { width: 180, height: 50 },
  INITIALS: { width: 80, height: 40 },
  NAME: { width: 180, height: 24 },
  EMAIL: { width: 180, height: 24 },
  DATE: { width: 120, height: 24 },
  TEXT: { width: 180, height: 24 },
  TEXTAREA: { width: 240, height: 72 },
  NUMBER: { width: 100, height: 24 },
  CHECKBOX: { width: 20, height: 20 },
  DROPDOWN: { width: 150, height: 24 },
  IMAGE: { width: 150, height: 100 },
  STAMP: { width: 120, height: 120 },
  NOTE: { width: 200, height: 60 },
};

/** Types whose text styling (font, size, colours) means something. */
export const TEXT_TYPES: readonly string[] = [
  'NAME',
  'EMAIL',
  'DATE',
  'TEXT',
  'TEXTAREA',
  'NUMBER',
  'DROPDOWN',
  'NOTE',
];
export const PLACEHOLDER_TYPES: readonly string[] = ['TEXT', 'TEXTAREA', 'NUMBER', 'EMAIL', 'NAME'];
/** The service finishes a signer only when these are filled, required flag or not (RUNTIME.md, the signing ceremony). */
export const ALWAYS_REQUIRED: readonly string[] = ['SIGNATURE', 'INITIALS'];

export const MIN_SIZE = 8;
export const FONT_SIZE = { min: 4, max: 72 } as const;
export const DROPDOWN_OPTIONS = { min: 1, max: 100 } as const;

/** Distinct colours for recipients, each dark enough for a 3:1 border against white (WCAG 1.4.11). */
export const RECIPIENT_COLOURS = [
  '#1A56DB',
  '#C2410C',
  '#047857',
  '#7E22CE',
  '#B91C1C',
  '#0E7490',
  '#A16207',
  '#BE185D',
];

export function nextColour(taken: string[]): string {
  const used = new Set(taken.map((c) => c.toUpperCase()));
  return RECIPIENT_COLOURS.find((c) => !used.has(c)) ?? RECIPIENT_COLOURS[taken.length % RECIPIENT_COLOURS.length];
}

/** A box kept inside its page (and at least MIN_SIZE points each way), rounded to tenths of a point. */
export function clampBox(box: Box, page: PageSize): Box {
  const round = (n: number) => Math.round(n * 10) / 10;
  const width = Math.min(Math.max(box.width, MIN_SIZE), page.width);
  const height = Math.min(Math.max(box.height, MIN_SIZE), page.height);
  const x = Math.min(Math.max(box.x, 0), page.width - width);
  const y = Math.min(Math.max(box.y, 0), page.height - height);
  return { x: round(x), y: round(y), width: round(width), height: round(height) };
}

/** Where a field placed by keyboard goes: the first spot near the top left that no other field on that page covers. */
export function freeSpot(size: { width: number; height: number }, page: PageSize, others: Box[]): Box {
  const margin = 36;
  const overlaps = (box: Box) =>
    others.some(
      (o) => box.x < o.x + o.width && o.x < box.x + box.width && box.y < o.y + o.height && o.y < box.y + box.height,
    );
  for (let y = margin; y + size.height <= page.height - 12; y += 12) {
    for (let x = margin; x + size.width <= page.width - 12; x += 24) {
      const box = { x, y, ...size };
      if (!overlaps(box)) return box;
    }
  }
  return clampBox({ x: margin, y: margin, ...size }, page);
}

/** Recipients a field can belong to: CC rows fill nothing (the service refuses them). */
export function fillers(recipients: Recipient[]): Recipient[] {
  return recipients.filter((r) => r.recipientRole !== 'CC' && r.status !== 'DELEGATED');
}

/** A colour with alpha, for the light tint inside a field's box. */
export function tint(hex: string, alpha: number): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return `rgba(85, 85, 85, ${alpha})`;
  return `rgba(${parseInt(match[1], 16)}, ${parseInt(match[2], 16)}, ${parseInt(match[3], 16)}, ${alpha})`;
}

const EMAIL_PATTERN =
  /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function validName(raw: string): boolean {
  const name = raw.trim().normalize('NFC');
  const length = [...name].length;
  return length >= 2 && length <= 50 && isPersonName(name);
}

export function validEmail(raw: string): boolean {
  const email = raw.trim();
  return email.length <= 255 && EMAIL_PATTERN.test(email);
}

/** Signers who have nothing the service counts as a signature (commence refuses them). */
export function signersWithoutSignature(recipients: Recipient[], fields: Field[]): Recipient[] {
  return recipients.filter(
    (r) =>
      r.recipientRole === 'SIGNER' &&
      r.status !== 'DELEGATED' &&
      !fields.some((f) => f.recipientId === r.id && ALWAYS_REQUIRED.includes(f.fieldType)),
  );
}

/** A recipient's initials for a field too narrow for the name: first letters of the first and last words ("AA"). */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = (word: string) => [...word][0] ?? '';
  const letters = words.length === 1 ? first(words[0]) : first(words[0]) + first(words[words.length - 1]);
  return letters.toLocaleUpperCase();
}

/** White or near-black, whichever reads better on `hex` (one of them always keeps at least 4.5:1). */
export function textOn(hex: string): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) return '#ffffff';
  const channel = (part: string) => {
    const c = parseInt(part, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(match[1]) + 0.7152 * channel(match[2]) + 0.0722 * channel(match[3]);
  const dark = 0.2126 * channel('11') + 0.7152 * channel('11') + 0.0722 * channel('11');
  return 1.05 / (l + 0.05) >= (l + 0.05) / (dark + 0.05) ? '#ffffff' : '#111111';
}
