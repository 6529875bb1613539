import { catalogue } from '../catalogue.ts';
import { en } from './en.ts';
import { loaders } from './languages.ts';

/** The organization screens' messages (and the kit's) in the page's language, read at render time. */
const messages = catalogue(en, loaders);
export const kitText = messages.part('kitText');
export const orgText = messages.part('orgText');
