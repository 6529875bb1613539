const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A DATE field's value (stored as YYYY-MM-DD) as the document shows it: the long date of the field's language
 * (styling.dateLang, English by default), "December 1, 2026", "1. Dezember 2026". The signing page and the editor's
 * "Shown as" write it the same way (web/src/signing/field-rules.ts `formatDate`), so what the signer saw is what the
 * sealed file says. A value that is not an ISO date, or a language Intl does not know, is drawn as it is.
 */
export function displayedDate(value: string, language: string | undefined | null): string {
  const match = ISO_DATE.exec(value);
  if (!match) return value;
  try {
    return new Intl.DateTimeFormat(language || 'en', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))),
    );
  } catch {
    return value;
  }
}
