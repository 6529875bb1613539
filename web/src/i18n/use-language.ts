import { useSyncExternalStore } from 'react';
import { languageVersion, subscribeToLanguage } from './catalogue.ts';
import { currentLanguage, type Language } from './language.ts';

/**
 * The page's language, re-rendering the calling component when it changes. A page's root calls it: every
 * screen below re-renders with it (the app memoizes no component), reading the new catalogue.
 */
export function useLanguage(): Language {
  useSyncExternalStore(subscribeToLanguage, languageVersion);
  return currentLanguage();
}
