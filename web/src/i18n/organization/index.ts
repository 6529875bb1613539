import { catalogue } from '../catalogue.ts';
import { en } from './en.ts';

/** The organization screens' messages. English only for now: the screens stay English whatever language is chosen. */
const messages = catalogue(en, {});
export const kitText = messages.part('kitText');
export const orgText = messages.part('orgText');
