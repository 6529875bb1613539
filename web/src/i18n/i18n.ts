import { en, type Messages } from './en.ts';

/** The catalogue in use. Only English exists today; a language is chosen here once others are added. */
export const t: Messages = en;

/** The document's language, for <html lang> and for formatting dates and times. */
export const locale = 'en';
