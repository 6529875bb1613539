/** The languages the mails are written in (RUNTIME.md "Languages"); English is the source and the fallback. */
export const MAIL_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/**
 * The mail language a BCP 47 locale (`de-CH`, `pt-BR`, `PL`) is written in: its primary language subtag, when the mails
 * speak it; null otherwise, so that the caller can fall back.
 */
export function mailLanguageOf(locale: string | null | undefined): MailLanguage | null {
  const primary = locale?.trim().split(/[-_]/)[0]?.toLowerCase();
  return (MAIL_LANGUAGES as readonly string[]).includes(primary ?? '') ? (primary as MailLanguage) : null;
}
