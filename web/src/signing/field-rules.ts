import { t } from '../i18n/signing/index.ts';
import type { Draft, Field, SignerContext } from './types.ts';

/** The service's caps (src/modules/signing/field-values.ts), checked here first so errors show as the signer types. */
export const TEXT_LIMITS: Record<string, number> = {
  TEXT: 255,
  NAME: 255,
  EMAIL: 255,
  DIGITAL_SIGNATURE: 255,
  NUMBER: 64,
  DROPDOWN: 255,
  TEXTAREA: 5000,
};
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const MAX_IMAGE_DIMENSION = 8000;

const EMAIL =
  /^[^\s@"(),:;<>[\\\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const NUMERAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Types whose value is a PNG data URL. */
export function isImageType(type: string): boolean {
  return (
    type === 'SIGNATURE' || type === 'INITIALS' || type === 'STAMP' || type === 'IMAGE' || type === 'DIGITAL_SIGNATURE'
  );
}

/** Types that the service requires before a signer has finished, required flag or not. */
export function isSignatureType(type: string): boolean {
  return type === 'SIGNATURE' || type === 'INITIALS';
}

/** What the signer is asked for: the sender's label, else the type's name. */
export function fieldLabel(field: Field): string {
  const typeName = t.fieldType[field.fieldType] ?? field.fieldType;
  return field.label?.trim() ? field.label.trim() : typeName;
}

/** Whether the finish check needs this field: required ones, and every signature and initials. */
export function mustFill(field: Field): boolean {
  return field.fieldType !== 'NOTE' && (field.fieldRequired || isSignatureType(field.fieldType));
}

export function isFilled(field: Field, value: Draft['value'] | undefined): boolean {
  if (value === null || value === undefined) return false;
  if (field.fieldType === 'CHECKBOX') return field.fieldRequired ? value === true || value === 'true' : value !== '';
  return typeof value === 'string' ? value.trim() !== '' : true;
}

export function formatDate(iso: string, language: string | undefined): string {
  if (!ISO_DATE.test(iso)) return iso;
  const [year, month, day] = iso.split('-').map(Number);
  try {
    return new Intl.DateTimeFormat(language || 'en', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(year, month - 1, day)),
    );
  } catch {
    return iso;
  }
}

/** The value as the page shows it on the document. */
export function displayValue(field: Field, value: Draft['value'] | undefined): string {
  if (value === null || value === undefined) return '';
  if (field.fieldType === 'CHECKBOX') return value === true || value === 'true' ? '✓' : '';
  if (field.fieldType === 'DATE' && typeof value === 'string') return formatDate(value, field.styling?.dateLang);
  return String(value);
}

/**
 * Whether a DIGITAL_SIGNATURE is made with the signer's personal certificate (a useDigitalCert row): then it is
 * signed with the signing password, and once signed (a stored value) it is part of the document and done.
 */
export function isCertificateSignature(field: Field, context: SignerContext | undefined): boolean {
  return field.fieldType === 'DIGITAL_SIGNATURE' && Boolean(context?.signingKey?.useDigitalCert);
}

/** The inline error for a value, or null when the service would accept it. */
export function validate(field: Field, draft: Draft | undefined, context?: SignerContext): string | null {
  const value = draft?.value;
  if (draft?.error) return draft.error;
  if (!isFilled(field, value)) return mustFill(field) ? t.requiredMissing : null;
  if (typeof value === 'string') {
    const text = value.trim();
    const limit = TEXT_LIMITS[field.fieldType];
    if (limit !== undefined && !isImageType(field.fieldType) && [...text].length > limit) return t.tooLong(limit);
    if (field.fieldType === 'NUMBER' && !NUMERAL.test(text)) return t.invalidNumber;
    if (field.fieldType === 'EMAIL' && !EMAIL.test(text)) return t.invalidEmail;
    if (field.fieldType === 'DATE' && !ISO_DATE.test(text)) return t.invalidDate;
  }
  if (isCertificateSignature(field, context)) {
    const key = context!.signingKey!;
    if (key.certifiable === false) return t.signingKeyNotCertifiable;
    if (!draft?.password) return t.signingPasswordMissing;
    if (!key.provisioned) {
      if ([...draft.password].length < key.minPasswordLength) return t.signingPasswordTooShort(key.minPasswordLength);
      if (draft.password !== draft.passwordConfirm) return t.signingPasswordMismatch;
    }
  }
  return null;
}

/**
 * The order the guide walks: required fields first (document, page, top to bottom, left to right), then the
 * optional ones. Notes are read, not filled.
 */
export function walkOrder(fields: Field[], documentOrder: number[]): Field[] {
  const position = (f: Field) => [documentOrder.indexOf(f.documentId), f.pageNo, Math.round(f.box.y), f.box.x];
  const compare = (a: Field, b: Field) => {
    const pa = position(a);
    const pb = position(b);
    for (let i = 0; i < pa.length; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
    return a.id - b.id;
  };
  const fillable = fields.filter((f) => f.fieldType !== 'NOTE');
  return [...fillable.filter(mustFill).sort(compare), ...fillable.filter((f) => !mustFill(f)).sort(compare)];
}

/** The fields/save entry of a draft. */
export function saveEntry(field: Field, draft: Draft): Record<string, unknown> {
  let value: Draft['value'] = draft.value;
  if (typeof value === 'string') value = value.trim();
  if (field.fieldType === 'CHECKBOX') value = value === true || value === 'true';
  const entry: Record<string, unknown> = { id: field.id, type: field.fieldType, value: value === '' ? null : value };
  // Only a certificate signature carries the password (validate asks for it); the service refuses one elsewhere.
  if (field.fieldType === 'DIGITAL_SIGNATURE' && draft.password) entry.password = draft.password;
  if (draft.signatureAssetId !== undefined && typeof value === 'string' && value.startsWith('data:image/'))
    entry.signatureAssetId = draft.signatureAssetId;
  return entry;
}
