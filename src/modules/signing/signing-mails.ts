import type { OutgoingMail } from '../../platform/mail/outbox.ts';
import { renderMail, type MailBranding } from '../../platform/mail/templates/layout.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';

/**
 * The texts of the mails sending and signing produce, in the one mail layout. Each mail goes to the
 * recipient's address, through the organization's routing (organizationId), and names its workflow and
 * recipient for support and tests. `branding` is the organization's look, when the caller has it. A mail that
 * proves control of the address (a one-time code; the link of a recipient who signs with a platform-certified key)
 * goes through the platform's own mail (`viaPlatform`).
 */

/**
 * Whether a mail carrying this recipient's signing link must leave through the platform's own mail: whoever holds the
 * link of a useDigitalCert recipient can create that person's platform-certified key, so the organization's own
 * provider must never see it (RUNTIME.md round three).
 */
export function linkProvesAddress(recipient: Pick<RecipientRow, 'useDigitalCert'>): boolean {
  return recipient.useDigitalCert;
}

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** The commence title, else the workflow name: what every mail about a workflow names in its subject. */
export function workflowTitle(workflow: WorkflowRow): string {
  return workflow.title?.trim() || workflow.name;
}

function task(recipient: RecipientRow): string {
  return recipient.role === 'APPROVER' ? 'review and approve' : 'sign';
}

/**
 * The commence mail (RUNTIME.md "Mail"): the subject is the commence title, else the workflow name; the text
 * holds the signing link. `delegatedBy` names who handed this recipient the task.
 */
export function commenceMail(input: {
  workflow: WorkflowRow;
  recipient: RecipientRow;
  senderName: string;
  link: string;
  expiresAt: Date;
  delegatedBy?: string;
  branding?: MailBranding;
}): OutgoingMail {
  const { workflow, recipient, senderName, link, expiresAt, delegatedBy } = input;
  const message = workflow.message?.trim();
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    ...renderMail(
      {
        subject: workflowTitle(workflow),
        greeting: recipient.name,
        blocks: [
          delegatedBy
            ? `${delegatedBy} has asked you to ${task(recipient)} "${workflow.name}" in their place, sent by ${senderName}.`
            : `${senderName} has sent you "${workflow.name}" to ${task(recipient)}.`,
          message && { quote: message, by: senderName },
          { label: 'Open the document', url: link },
          `This link is personal: do not forward it. It can be used until ${DATE.format(expiresAt)}.`,
        ],
      },
      input.branding,
    ),
    kind: 'COMMENCE',
    viaPlatform: linkProvesAddress(recipient),
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}

/** A CC recipient is told when the sequence reaches it; its link opens the document read-only. */
export function ccNotificationMail(input: {
  workflow: WorkflowRow;
  recipient: RecipientRow;
  senderName: string;
  link: string;
  expiresAt: Date;
  branding?: MailBranding;
}): OutgoingMail {
  const { workflow, recipient, senderName, link, expiresAt } = input;
  const message = workflow.message?.trim();
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    ...renderMail(
      {
        subject: `Copy: ${workflowTitle(workflow)}`,
        greeting: recipient.name,
        blocks: [
          `${senderName} has sent "${workflow.name}" for signature and copied you. You do not need to do anything.`,
          message && { quote: message, by: senderName },
          { label: 'View the document', url: link },
          `This link can be used until ${DATE.format(expiresAt)}.`,
        ],
      },
      input.branding,
    ),
    kind: 'CC_NOTIFICATION',
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}

/** The identity step-up code (RUNTIME.md: the text part holds the 6 digits). */
export function otpMail(input: {
  workflow: WorkflowRow;
  recipient: RecipientRow;
  code: string;
  lifetimeMinutes: number;
  branding?: MailBranding;
}): OutgoingMail {
  const { workflow, recipient, code, lifetimeMinutes } = input;
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    ...renderMail(
      {
        subject: `Your verification code for "${workflowTitle(workflow)}"`,
        greeting: recipient.name,
        blocks: [
          `Your verification code is ${code}`,
          {
            lines: [
              `Enter it to confirm your identity before you ${task(recipient)} "${workflow.name}". It is valid for ${lifetimeMinutes} minutes.`,
              'If you did not ask for it, ignore this message.',
            ],
          },
        ],
      },
      input.branding,
    ),
    kind: 'OTP',
    viaPlatform: true,
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}

/** To the owner: a recipient declined, with the reason. */
export function declinedMail(input: {
  workflow: WorkflowRow;
  owner: { name: string; email: string };
  decliner: RecipientRow;
  reason: string;
  branding?: MailBranding;
}): OutgoingMail {
  const { workflow, owner, decliner, reason } = input;
  return {
    organizationId: workflow.organizationId,
    to: owner.email,
    ...renderMail(
      {
        subject: `Declined: ${workflowTitle(workflow)}`,
        greeting: owner.name,
        blocks: [
          `${decliner.name} (${decliner.email}) declined "${workflow.name}". The envelope is now void.`,
          { lines: ['Reason given:', reason] },
        ],
      },
      input.branding,
    ),
    kind: 'DECLINED',
    workflowId: workflow.id,
    recipientId: decliner.id,
  };
}

/** To the other recipients already reached: the envelope was voided by a decline, nothing more to do. */
export function voidedMail(input: {
  workflow: WorkflowRow;
  recipient: RecipientRow;
  /** What happened, in a sentence: who declined, or who voided it and why. */
  why: string;
  branding?: MailBranding;
}): OutgoingMail {
  const { workflow, recipient, why } = input;
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    ...renderMail(
      {
        subject: `Voided: ${workflowTitle(workflow)}`,
        greeting: recipient.name,
        blocks: [why, 'The envelope has been voided. You do not need to do anything more.'],
      },
      input.branding,
    ),
    kind: 'VOIDED',
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}

/** A reminder while a dispatched SIGNER or APPROVER has not acted; the link is a fresh one. */
export function reminderMail(input: {
  workflow: WorkflowRow;
  recipient: RecipientRow;
  senderName: string;
  link: string;
  branding?: MailBranding;
}): OutgoingMail {
  const { workflow, recipient, link } = input;
  const action = recipient.role === 'APPROVER' ? 'approve' : 'sign';
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    ...renderMail(
      {
        subject: `Reminder: ${workflowTitle(workflow)}`,
        greeting: recipient.name,
        blocks: [
          `${input.senderName || 'The sender'} is still waiting for you to ${action} "${workflow.name}".`,
          { label: 'Open the document', url: link },
          'If you have already done so, please ignore this message.',
        ],
      },
      input.branding,
    ),
    kind: 'REMINDER',
    viaPlatform: linkProvesAddress(recipient),
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}
