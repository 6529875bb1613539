import { catalogue } from '../catalogue.ts';
import { en } from './en.ts';

/** The templates screens' messages. English only for now: the screens stay English whatever language is chosen. */
const messages = catalogue(en, {});
export const templatesText = messages.part('templatesText');
