import { catalogue } from '../catalogue.ts';
import { en } from './en.ts';
import { loaders } from './languages.ts';

/** The workspace screens' messages in the page's language (read at render time, so a switch shows at once). */
const messages = catalogue(en, loaders);
export const shellText = messages.part('shellText');
export const statusText = messages.part('statusText');
export const roleText = messages.part('roleText');
export const dashboardText = messages.part('dashboardText');
export const signupText = messages.part('signupText');
export const verifyText = messages.part('verifyText');
export const sendVerifyText = messages.part('sendVerifyText');
export const envelopeText = messages.part('envelopeText');
