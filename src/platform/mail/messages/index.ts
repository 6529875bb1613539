import { de } from './de.ts';
import { en, type MailMessages } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { type MailLanguage, MAIL_LANGUAGES, mailLanguageOf } from './languages.ts';
import { nl } from './nl.ts';
import { pl } from './pl.ts';
import { pt } from './pt.ts';

/**
 * The mail catalogue: what every mail says, in each of the mail languages, and which language a mail is written in.
 * Modules and the layout import this file only; a mail helper picks its texts with `mailText(language)`.
 */
export { MAIL_LANGUAGES, mailLanguageOf, type MailLanguage, type MailMessages };

export const MAIL_CATALOGUES: Record<MailLanguage, MailMessages> = { en, de, fr, es, it, nl, pt, pl };

/** A language's texts, and its dates as the language writes them, in UTC (as every mail has given its dates). */
export type MailText = MailMessages & { language: MailLanguage; date(value: Date): string };

const texts = new Map<MailLanguage, MailText>(
  MAIL_LANGUAGES.map((language) => {
    const messages = MAIL_CATALOGUES[language];
    const dates = new Intl.DateTimeFormat(messages.locale, { dateStyle: 'long', timeZone: 'UTC' });
    return [language, { ...messages, language, date: (value: Date) => dates.format(value) }];
  }),
);

export function mailText(language: MailLanguage = 'en'): MailText {
  return texts.get(language) ?? texts.get('en')!;
}
