import { catalogue } from '../catalogue.ts';
import { en } from './en.ts';

/** The workspace screens' messages. English only for now: the screens stay English whatever language is chosen. */
const messages = catalogue(en, {});
export const shellText = messages.part('shellText');
export const statusText = messages.part('statusText');
export const roleText = messages.part('roleText');
export const dashboardText = messages.part('dashboardText');
export const signupText = messages.part('signupText');
export const verifyText = messages.part('verifyText');
export const sendVerifyText = messages.part('sendVerifyText');
export const envelopeText = messages.part('envelopeText');
