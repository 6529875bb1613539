import { catalogue } from '../catalogue.ts';
import { en } from './en.ts';
import { loaders } from './languages.ts';

/** The templates screens' messages in the page's language (read at render time, so a switch shows at once). */
const messages = catalogue(en, loaders);
export const templatesText = messages.part('templatesText');
