import { applyLanguage, currentLanguage, type Language } from './language.ts';

/** How an area loads one language's catalogue: a dynamic import, so only the language in use is downloaded. */
export type Loaders<M> = Partial<Record<Exclude<Language, 'en'>, () => Promise<M>>>;

type Area = { load(language: Language): Promise<void>; use(language: Language): void };

const areas = new Set<Area>();
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version++;
  for (const listener of listeners) listener();
}

/** An object whose properties always read from `source()` now, so a screen that re-renders reads the new language. */
function live<T extends object>(target: T, source: () => T): T {
  return new Proxy(target, {
    get: (_, key) => Reflect.get(source(), key),
    has: (_, key) => Reflect.has(source(), key),
    ownKeys: () => Reflect.ownKeys(source()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(source(), key),
  });
}

/**
 * One screen area's messages: `english` is the source of truth (its type is the area's `Messages`), `loaders`
 * the other languages it has. An area without a language stays English in it. The area joins the page's
 * language: created after a switch (a lazily loaded screen), it loads that language and asks for a re-render.
 */
export function catalogue<M extends object>(
  english: M,
  loaders: Loaders<M>,
): { text: M; part<K extends keyof M>(key: K): M[K] } {
  const loaded = new Map<Language, M>([['en', english]]);
  let active = english;
  const area: Area = {
    async load(language) {
      if (loaded.has(language)) return;
      const load = language === 'en' ? undefined : loaders[language];
      loaded.set(language, load ? await load() : english);
    },
    use(language) {
      active = loaded.get(language) ?? english;
    },
  };
  areas.add(area);
  const language = currentLanguage();
  if (language !== 'en' && loaders[language]) {
    area.load(language).then(
      () => {
        if (currentLanguage() !== language) return;
        area.use(language);
        changed();
      },
      () => {},
    );
  }
  return {
    text: live(english, () => active),
    part: (key) => live(english[key] as object, () => active[key] as object) as M[typeof key],
  };
}

/** Loads the current language in every area the page has, before its first render (a no-op in English). */
export async function languageReady(): Promise<void> {
  const language = currentLanguage();
  await Promise.all([...areas].map((area) => area.load(language).catch(() => {})));
  for (const area of areas) area.use(language);
  applyLanguage(language, false);
}

/** Switches the page to `language`: loads its catalogues, then re-renders the screens (useLanguage). */
export async function setLanguage(language: Language, { remember = true } = {}): Promise<void> {
  await Promise.all([...areas].map((area) => area.load(language)));
  for (const area of areas) area.use(language);
  applyLanguage(language, remember);
  changed();
}

export function subscribeToLanguage(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function languageVersion(): number {
  return version;
}
