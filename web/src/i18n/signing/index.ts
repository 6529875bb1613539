import { catalogue } from '../catalogue.ts';
import { en } from './en.ts';
import { loaders } from './languages.ts';

/** The signing page's messages in the page's language (read at render time, so a switch shows at once). */
export const t = catalogue(en, loaders).text;
