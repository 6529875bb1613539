import crypto from 'node:crypto';
import type { OutgoingMail } from '../../platform/mail/outbox.ts';
import { renderMail } from '../../platform/mail/templates/layout.ts';

/**
 * An invitation lives INVITATION_DAYS: accepted in the app, or (for someone without an account) through the
 * mailed sign-up link. The link's code is 256 random bits; only its SHA-256 is stored (memberships.invite_code_hash).
 */
export const INVITATION_DAYS = 7;

export function newInvitationCode(now: Date = new Date()): { code: string; codeHash: string; expiresAt: Date } {
  const code = crypto.randomBytes(32).toString('base64url');
  return { code, codeHash: hashInvitationCode(code), expiresAt: invitationExpiry(now) };
}

export function invitationExpiry(from: Date): Date {
  return new Date(from.getTime() + INVITATION_DAYS * 24 * 3600 * 1000);
}

export function hashInvitationCode(code: string): string {
  return crypto.createHash('sha256').update(code, 'utf8').digest('hex');
}

export function isWellFormedInvitationCode(code: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(code);
}

export function invitationLink(publicUrl: string, code: string): string {
  return `${publicUrl}/invite/${code}`;
}

const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/**
 * The invitation mail. Accepting it proves the address (RUNTIME.md round three), so it always leaves through the
 * platform's own mail, in the organization's branding. A registered invitee accepts in the app; someone without an
 * account gets the sign-up link.
 */
export function invitationMail(input: {
  organizationId: number;
  organizationName: string;
  inviterName: string;
  to: string;
  name: string;
  expiresAt: Date;
  publicUrl: string;
  signupLink: string | null;
  /** The inviter's verified address: organization names are not unique, the address tells who is asking. */
  inviterEmail: string | null;
}): OutgoingMail {
  const inviter = input.inviterEmail ? `${input.inviterName} (${input.inviterEmail})` : input.inviterName;
  const invited = `${inviter} invited you to join ${input.organizationName}.`;
  const blocks = input.signupLink
    ? [
        invited,
        'Create your account with this link; it makes you a member at once:',
        { label: 'Create your account and join', url: input.signupLink },
        `The link works until ${DATE_TIME.format(input.expiresAt)} UTC and only for this address.`,
      ]
    : [
        invited,
        'Sign in and accept (or decline) the invitation in the app:',
        { label: 'Open the app', url: `${input.publicUrl}/` },
        `The invitation stands until ${DATE_TIME.format(input.expiresAt)} UTC.`,
      ];
  return {
    organizationId: input.organizationId,
    to: input.to,
    ...renderMail({
      subject: `Invitation to join ${input.organizationName}`,
      greeting: input.name,
      blocks: [...blocks, 'If you do not expect this invitation, ignore this mail.'],
    }),
    kind: 'ORGANIZATION_INVITATION',
    viaPlatform: true,
  };
}

export function ownershipMail(input: {
  organizationId: number;
  organizationName: string;
  formerOwnerName: string;
  to: string;
  name: string;
}): OutgoingMail {
  return {
    organizationId: input.organizationId,
    to: input.to,
    ...renderMail({
      subject: `You now own ${input.organizationName}`,
      greeting: input.name,
      blocks: [
        `${input.formerOwnerName} transferred the ownership of ${input.organizationName} to you. You now hold every right in it, including its billing.`,
      ],
    }),
    kind: 'OWNERSHIP_TRANSFERRED',
  };
}
