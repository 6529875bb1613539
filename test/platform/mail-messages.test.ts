import { describe, expect, it } from 'vitest';
import {
  MAIL_CATALOGUES,
  MAIL_LANGUAGES,
  mailLanguageOf,
  mailText,
  type MailMessages,
} from '../../src/platform/mail/messages/index.ts';
import { renderMail } from '../../src/platform/mail/templates/layout.ts';

/**
 * The mail catalogue (src/platform/mail/messages): every language has every key English has, with the same kind of
 * value; every value English puts in a text appears in each translation; nothing is left in English; each language
 * has a form for every plural category its rules give a count.
 */

type Entry = { path: string; value: unknown };

function entries(node: unknown, prefix = ''): Entry[] {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return [{ path: prefix, value: node }];
  return Object.entries(node).flatMap(([key, value]) => entries(value, prefix ? `${prefix}.${key}` : key));
}

const kind = (value: unknown) => (Array.isArray(value) ? 'array' : typeof value);
const NUMBERS = new Set(['count', 'minutes', 'megabytes']);

/** Calls a catalogue function with a marker for every named value (⟦name⟧), a number for counts, `approve` as given. */
function sample(fn: unknown, approve: boolean): string {
  const args = new Proxy(
    {},
    {
      get: (_, key) => (key === 'approve' ? approve : NUMBERS.has(String(key)) ? 3 : `⟦${String(key)}⟧`),
    },
  );
  const out = (fn as (p: unknown) => unknown)(args);
  return Array.isArray(out) ? out.join('\n') : String(out);
}

function rendered(value: unknown): string[] {
  if (typeof value === 'function') return [sample(value, false), sample(value, true)];
  if (Array.isArray(value)) return [value.join('\n')];
  return [String(value)];
}

const markers = (text: string) => new Set([...text.matchAll(/⟦(\w+)⟧/g)].map((m) => m[1]));

/** Polish names are not put in the greeting: the vocative would need the person's gender (pl.ts). */
const DROPPED: Record<string, string[]> = { pl: ['layout.greeting'] };
/** Entries that are not words, or only punctuation around values, and may read as in English. */
const NOT_WORDS = new Set(['locale', 'pluralCategories', 'layout.link']);

const english = new Map(entries(MAIL_CATALOGUES.en).map((e) => [e.path, e.value]));
const translations = MAIL_LANGUAGES.filter((language) => language !== 'en');

describe('the mail catalogue', () => {
  it.each(translations)('%s has every key of English, of the same kind, and no other', (language) => {
    const own = new Map(entries(MAIL_CATALOGUES[language]).map((e) => [e.path, e.value]));
    const missing = [...english.keys()].filter((path) => !own.has(path));
    const extra = [...own.keys()].filter((path) => !english.has(path));
    const mismatched = [...english.entries()]
      .filter(([path, value]) => own.has(path) && kind(own.get(path)) !== kind(value))
      .map(([path]) => path);
    expect({ language, missing, extra, mismatched }).toEqual({ language, missing: [], extra: [], mismatched: [] });
  });

  it.each(translations)('%s writes every value English writes, and nothing in English', (language) => {
    const own = new Map(entries(MAIL_CATALOGUES[language]).map((e) => [e.path, e.value]));
    const dropped = new Set<string>();
    const untranslated = new Set<string>();
    for (const [path, value] of english) {
      if (NOT_WORDS.has(path) || !own.has(path)) continue;
      const theirs = rendered(own.get(path));
      const ours = rendered(value);
      ours.forEach((text, index) => {
        const lost = [...markers(text)].filter((name) => !markers(theirs[index]).has(name));
        if (lost.length > 0 && !DROPPED[language]?.includes(path)) dropped.add(`${path}: ${lost.join(', ')}`);
        if (theirs[index] === text) untranslated.add(path);
      });
    }
    expect({ language, dropped: [...dropped], untranslated: [...untranslated] }).toEqual({
      language,
      dropped: [],
      untranslated: [],
    });
  });

  it.each(MAIL_LANGUAGES)('%s has a form for every plural category of its counts', (language) => {
    const messages: MailMessages = MAIL_CATALOGUES[language];
    const rules = new Intl.PluralRules(messages.locale);
    const needed = new Set(Array.from({ length: 10_001 }, (_, n) => rules.select(n)));
    expect([...needed].filter((category) => !messages.pluralCategories.includes(category))).toEqual([]);
    expect(messages.pluralCategories.filter((c) => !rules.resolvedOptions().pluralCategories.includes(c))).toEqual([]);
  });

  it('chooses the form the language needs: Polish one, few and many', () => {
    const pl = mailText('pl');
    const lines = (minutes: number) => pl.signingKeyReset.lines({ minutes })[0];
    expect(lines(1)).toContain('przez 1 minutę.');
    expect(lines(3)).toContain('przez 3 minuty.');
    expect(lines(5)).toContain('przez 5 minut.');
    expect(lines(22)).toContain('przez 22 minuty.');
    expect(mailText('en').otp.enterIt({ document: 'X', approve: false, minutes: 1 })).toContain('valid for 1 minute.');
    expect(mailText('de').completed.finished({ document: 'X', count: 2 })).toContain(
      'Die unterzeichneten Dokumente sind',
    );
  });

  it('writes dates and numbers as each language does, in UTC', () => {
    const day = new Date('2026-03-05T23:30:00Z');
    expect(MAIL_LANGUAGES.map((language) => mailText(language).date(day))).toEqual([
      '5 March 2026',
      '5. März 2026',
      '5 mars 2026',
      '5 de marzo de 2026',
      '5 marzo 2026',
      '5 maart 2026',
      '5 de março de 2026',
      '5 marca 2026',
    ]);
    expect(mailText('de').completed.tooLarge({ megabytes: 1024 })).toContain('1.024 MB');
    expect(mailText('fr').completed.tooLarge({ megabytes: 1024 })).toContain('1\u202f024 Mo');
    // Italian elides the article before "8" and "11".
    expect(mailText('it').copy.linkValid({ date: mailText('it').date(new Date('2026-03-08T00:00:00Z')) })).toContain(
      'fino all’8 marzo 2026',
    );
  });

  it('maps a locale setting to its mail language by its primary subtag, and others to none', () => {
    expect(['de-CH', 'pt-BR', 'PL', 'fr', 'nl-BE', 'es-419', 'it', 'en-US'].map(mailLanguageOf)).toEqual([
      'de',
      'pt',
      'pl',
      'fr',
      'nl',
      'es',
      'it',
      'en',
    ]);
    expect(['sv', 'ja-JP', '', null, undefined].map(mailLanguageOf)).toEqual([null, null, null, null, null]);
  });

  it("writes the layout's own words in the mail's language, escaped in HTML like every value", () => {
    const mail = renderMail({
      subject: 'Copie\u00a0: <Bail>',
      greeting: 'Ada <script>',
      blocks: [{ quote: 'Deux exemplaires', by: 'Olivia & Co' }],
      language: 'fr',
    });
    expect(mail.subject).toBe('Copie : <Bail>');
    expect(mail.text.startsWith('Bonjour Ada <script>,\n\nMessage de Olivia & Co\u00a0:\nDeux exemplaires')).toBe(true);
    expect(mail.html).toContain('<p>Bonjour Ada &lt;script&gt;,</p>');
    expect(mail.html).toContain('<p>Message de Olivia &amp; Co\u00a0:</p>');
    expect(renderMail({ subject: 'x', greeting: 'Ada', blocks: [], language: 'pl' }).text).toMatch(/^Dzień dobry,\n/);
    // The outbox renders a platform-look mail again in the organization's branding from its template: the language stays.
    const platformLook = renderMail({ subject: 'x', greeting: 'Ada', blocks: [], language: 'de' });
    expect(renderMail(platformLook.template!, { senderName: 'ACME' }).text).toBe('Guten Tag Ada,\n\n-- \nACME');
  });
});
