import type { OutgoingMail } from '../../platform/mail/outbox.ts';
import { renderMail } from '../../platform/mail/templates/layout.ts';

/**
 * Mails about the account itself. They go through the platform's own mail settings (no organizationId):
 * they concern the person, not an organization's envelopes.
 */

const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/** Sign-up: the link that proves the address (RUNTIME.md "Accounts"). */
export function emailVerificationMail(input: {
  to: string;
  name: string;
  link: string;
  expiresAt: Date;
}): OutgoingMail {
  return {
    to: input.to,
    ...renderMail({
      subject: 'Confirm your email address',
      greeting: input.name,
      blocks: [
        'Please confirm that this address belongs to you:',
        { label: 'Confirm your address', url: input.link },
        `The link works until ${DATE_TIME.format(input.expiresAt)} UTC. Until you confirm, documents that others send to this address ` +
          'open only from the links in their mails, not from your account.',
        'If you did not create an account, do not open the link: someone entered your address by mistake or on purpose, and ' +
          'the account will not reach anything sent to you.',
      ],
    }),
    kind: 'EMAIL_VERIFICATION',
  };
}

/** Sent once when too many failed checks lock sign-in to the account (not once per failure). */
export function accountLockedMail(input: {
  to: string;
  name: string;
  failures: number;
  minutes: number;
  until: Date;
}): OutgoingMail {
  return {
    to: input.to,
    ...renderMail({
      subject: 'Sign-in to your account is paused',
      greeting: input.name,
      blocks: [
        `There were ${input.failures} failed sign-in attempts (wrong password or two-factor code) on your account within ${input.minutes} minutes, ` +
          `so sign-in is paused until about ${DATE_TIME.format(input.until)} UTC, even with the right password.`,
        'If these attempts were yours, wait and try again. If they were not, someone may be guessing your password: ' +
          'choose a new, unique password once you can sign in, and turn on two-factor sign-in.',
      ],
    }),
    kind: 'ACCOUNT_LOCKED',
  };
}
