import { catalogue } from '../catalogue.ts';
import { en } from './en.ts';
import { loaders } from './languages.ts';

/** The sign-in page's messages in the page's language. */
export const signinText = catalogue(en, loaders).text;
