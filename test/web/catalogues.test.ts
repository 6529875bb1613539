/**
 * The web app's message catalogues (web/src/i18n/<area>/): every language file of an area has exactly the keys of
 * its English source of truth, with the same kind of value (text, nested group, function of as many arguments),
 * and every such file is one its area loads. An area with any language file must have all of them, loaded by its
 * languages.ts and passed to catalogue() by its index.ts; an area with none stays English. The type `Messages` makes
 * a missing key a compile error; this test also covers the groups typed as Record<string, string> (statuses, field
 * types), where the compiler cannot.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, pickLanguage } from '../../web/src/i18n/language.ts';
import { plural } from '../../web/src/i18n/plural.ts';

const I18N = path.resolve('web/src/i18n');
const OTHER_LANGUAGES = LANGUAGES.filter((language) => language !== 'en');
const AREAS = fs
  .readdirSync(I18N, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

function differences(english: unknown, other: unknown, at: string): string[] {
  if (typeof english === 'function') {
    if (typeof other !== 'function') return [`${at}: should be a function`];
    return english.length === other.length ? [] : [`${at}: takes ${other.length} arguments, English ${english.length}`];
  }
  if (typeof english === 'string') {
    if (typeof other !== 'string') return [`${at}: should be text`];
    return other.trim() === '' ? [`${at}: is empty`] : [];
  }
  if (typeof english !== 'object' || english === null)
    return typeof other === typeof english ? [] : [`${at}: wrong kind`];
  if (typeof other !== 'object' || other === null) return [`${at}: should be a group of messages`];
  const found: string[] = [];
  for (const key of Object.keys(english)) {
    if (!(key in other)) found.push(`${at}.${key}: missing`);
    else found.push(...differences((english as any)[key], (other as any)[key], `${at}.${key}`));
  }
  for (const key of Object.keys(other)) if (!(key in english)) found.push(`${at}.${key}: not in English`);
  return found;
}

describe('web message catalogues', () => {
  it('has the areas it expects, each with its English source and index', () => {
    expect(AREAS).toEqual(['editor', 'organization', 'profile', 'signin', 'signing', 'templates', 'workspace']);
    for (const area of AREAS) {
      expect(fs.existsSync(path.join(I18N, area, 'en.ts')), `${area}/en.ts`).toBe(true);
      expect(fs.existsSync(path.join(I18N, area, 'index.ts')), `${area}/index.ts`).toBe(true);
    }
  });

  for (const area of AREAS) {
    it(`${area}: every language file is complete and loaded`, async () => {
      const dir = path.join(I18N, area);
      const files = fs.readdirSync(dir).sort();
      const unexpected = files.filter(
        (file) => !['en.ts', 'index.ts', 'languages.ts'].includes(file) && !/^[a-z]{2}\.ts$/.test(file),
      );
      expect(unexpected, `files in web/src/i18n/${area} that are no catalogue`).toEqual([]);
      const languageFiles = files
        .filter((file) => /^[a-z]{2}\.ts$/.test(file) && file !== 'en.ts')
        .map((f) => f.slice(0, 2));
      const { en } = await import(path.join(dir, 'en.ts'));
      // An area without language files is English whatever the page's language (and has no loaders to check).
      if (languageFiles.length === 0) {
        expect(files.includes('languages.ts'), `${area}/languages.ts loads languages the area does not have`).toBe(
          false,
        );
        return;
      }
      // A translated area has all eight languages, each loaded by languages.ts and handed to catalogue() in index.ts.
      expect(languageFiles).toEqual([...OTHER_LANGUAGES].sort());
      const { loaders } = await import(path.join(dir, 'languages.ts'));
      expect(Object.keys(loaders).sort()).toEqual([...OTHER_LANGUAGES].sort());
      const index = fs.readFileSync(path.join(dir, 'index.ts'), 'utf8');
      expect(index, `${area}/index.ts passes its loaders to catalogue()`).toMatch(/catalogue\(en, loaders\)/);
      const problems: string[] = [];
      for (const language of OTHER_LANGUAGES) {
        const catalogue = await loaders[language]();
        problems.push(...differences(en, catalogue, `${language}:${area}`));
      }
      expect(problems).toEqual([]);
    });
  }

  it('finds a missing key in a nested group, naming it', () => {
    const english = { title: 'Title', status: { SENT: 'Sent', SIGNED: 'Signed' }, count: (n: number) => `${n}` };
    const german = { title: 'Titel', status: { SENT: 'Gesendet' }, count: () => '' };
    expect(differences(english, german, 'de:demo')).toEqual([
      'de:demo.status.SIGNED: missing',
      'de:demo.count: takes 0 arguments, English 1',
    ]);
  });

  it('picks the first preferred language the app speaks', () => {
    expect(pickLanguage(['de-DE', 'en-US'])).toBe('de');
    expect(pickLanguage(['ja-JP', 'pt-BR', 'fr'])).toBe('pt');
    expect(pickLanguage(['ja', 'zh-CN'])).toBe('en');
    expect(pickLanguage([])).toBe('en');
  });

  it('uses the three Polish plural forms', () => {
    const forms = (n: number) => plural('pl', n, { one: 'próba', few: 'próby', many: 'prób', other: 'próby' });
    expect([1, 2, 4, 5, 12, 22, 25].map(forms)).toEqual(['próba', 'próby', 'próby', 'prób', 'prób', 'próby', 'prób']);
  });
});
