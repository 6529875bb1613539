/**
 * Which of the web app's languages the page speaks: the one chosen in a language menu (remembered in
 * localStorage), else the first of the browser's preferred languages the app has, else English. Catalogues
 * (catalogue.ts) follow it; dates and numbers are formatted with `formattingLocale()`.
 */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Each language's name in itself, in the order the menu lists them (alphabetical by that name). */
export const LANGUAGE_NAMES: Record<Language, string> = {
  de: 'Deutsch',
  en: 'English',
  es: 'Español',
  fr: 'Français',
  it: 'Italiano',
  nl: 'Nederlands',
  pl: 'Polski',
  pt: 'Português',
};

/** The menu's label in each language: whoever cannot read the current one still finds the menu in theirs. */
export const LANGUAGE_LABELS: Record<Language, string> = {
  de: 'Sprache',
  en: 'Language',
  es: 'Idioma',
  fr: 'Langue',
  it: 'Lingua',
  nl: 'Taal',
  pl: 'Język',
  pt: 'Idioma',
};

/** The region a language's dates and numbers follow when the browser names none (the Portuguese text is European). */
const DEFAULT_LOCALE: Record<Language, string> = {
  en: 'en',
  de: 'de-DE',
  fr: 'fr-FR',
  es: 'es-ES',
  it: 'it-IT',
  nl: 'nl-NL',
  pt: 'pt-PT',
  pl: 'pl-PL',
};

const STORAGE_KEY = 'language';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function primary(tag: string): string {
  return tag.toLowerCase().split('-')[0];
}

function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : [];
}

/** The first of `preferred` (BCP 47 tags, most wanted first) the app speaks; English when none. */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const language = primary(tag);
    if (isLanguage(language)) return language;
  }
  return 'en';
}

function rememberedLanguage(): Language | null {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

let current: Language | null = null;

/** The page's language now (worked out on first use, so importing this module touches no browser state). */
export function currentLanguage(): Language {
  current ??= rememberedLanguage() ?? pickLanguage(browserLanguages());
  return current;
}

/**
 * Makes `language` the page's language: <html lang> and, when `remember`, the stored choice. Catalogues are
 * switched by catalogue.ts's setLanguage, which calls this once they are loaded.
 */
export function applyLanguage(language: Language, remember: boolean): void {
  current = language;
  // Read off globalThis: the catalogue test imports this module in Node, whose types know no DOM.
  const page = (globalThis as { document?: { documentElement: { lang: string } } }).document;
  if (page) page.documentElement.lang = language;
  if (!remember) return;
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Storage refused (private mode): the choice lasts as long as the page.
  }
}

/**
 * The locale dates and numbers are written in: the browser's own tag when it names the page's language (a
 * browser set to en-GB or de-AT keeps its region's conventions), else the language's usual region.
 */
export function formattingLocale(): string {
  const language = currentLanguage();
  return browserLanguages().find((tag) => primary(tag) === language && isValidLocale(tag)) ?? DEFAULT_LOCALE[language];
}

/**
 * Whether Intl accepts `tag`: a browser may report one it does not (a headless Chromium started without LANG says
 * `en-US@posix`), and formatting with it would throw and blank the page.
 */
function isValidLocale(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** A number as the page's language writes it (1,234.5 in English, 1.234,5 in German, 1 234,5 in French). */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return value.toLocaleString(formattingLocale(), options);
}
