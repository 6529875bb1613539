import { useId } from 'react';
import { setLanguage } from './catalogue.ts';
import { isLanguage, LANGUAGE_LABELS, LANGUAGE_NAMES, type Language } from './language.ts';
import { useLanguage } from './use-language.ts';

const MENU = Object.keys(LANGUAGE_NAMES) as Language[];

/** The language menu: a labelled select, each language named in itself (and marked as that language). */
export function LanguageMenu({ className }: { className?: string }) {
  const language = useLanguage();
  const id = useId();
  return (
    <div className={['language-menu', className].filter(Boolean).join(' ')}>
      <label htmlFor={id}>{LANGUAGE_LABELS[language]}</label>
      <select
        id={id}
        value={language}
        onChange={(event) => {
          const chosen = event.target.value;
          // A catalogue that fails to download leaves the page in its current language (the menu shows it still).
          if (isLanguage(chosen)) setLanguage(chosen).catch(() => {});
        }}
      >
        {MENU.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </div>
  );
}
