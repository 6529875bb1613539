import type { OutgoingMail } from '../../platform/mail/outbox.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';

/**
 * The texts of the mails sending and signing produce. Each mail goes to the recipient's address, through the
 * organization's routing (organizationId), and names its workflow and recipient for support and tests.
 */

const DATE = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** Line breaks never reach a mail header. */
function subjectTitle(workflow: WorkflowRow): string {
  return (workflow.title?.trim() || workflow.name).replace(/\s+/g, ' ');
}

function task(recipient: RecipientRow): string {
  return recipient.role === 'APPROVER' ? 'review and approve' : 'sign';
}

function lines(...parts: (string | null | false | undefined)[]): string {
  return parts.filter((p) => p !== null && p !== false && p !== undefined).join('\n');
}

/**
 * The commence mail (RUNTIME.md "Mail"): the subject is the commence title, else the workflow name; the text
 * holds the signing link. `delegatedBy` names who handed this recipient the task.
 */
export function commenceMail(input: { workflow: WorkflowRow; recipient: RecipientRow; senderName: string; link: string; expiresAt: Date; delegatedBy?: string }): OutgoingMail {
  const { workflow, recipient, senderName, link, expiresAt, delegatedBy } = input;
  const message = workflow.message?.trim();
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    subject: subjectTitle(workflow),
    text: lines(
      `Hello ${recipient.name},`,
      '',
      delegatedBy
        ? `${delegatedBy} has asked you to ${task(recipient)} "${workflow.name}" in their place, sent by ${senderName}.`
        : `${senderName} has sent you "${workflow.name}" to ${task(recipient)}.`,
      message ? '' : null,
      message ? `Message from ${senderName}:` : null,
      message || null,
      '',
      `Open the document: ${link}`,
      '',
      `This link is personal: do not forward it. It can be used until ${DATE.format(expiresAt)}.`,
    ),
    kind: 'COMMENCE',
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}

/** A CC recipient is told when the sequence reaches it; its link opens the document read-only. */
export function ccNotificationMail(input: { workflow: WorkflowRow; recipient: RecipientRow; senderName: string; link: string; expiresAt: Date }): OutgoingMail {
  const { workflow, recipient, senderName, link, expiresAt } = input;
  const message = workflow.message?.trim();
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    subject: `Copy: ${subjectTitle(workflow)}`,
    text: lines(
      `Hello ${recipient.name},`,
      '',
      `${senderName} has sent "${workflow.name}" for signature and copied you. You do not need to do anything.`,
      message ? '' : null,
      message ? `Message from ${senderName}:` : null,
      message || null,
      '',
      `View the document: ${link}`,
      '',
      `This link can be used until ${DATE.format(expiresAt)}.`,
    ),
    kind: 'CC_NOTIFICATION',
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}

/** The identity step-up code (RUNTIME.md: the text part holds the 6 digits). */
export function otpMail(input: { workflow: WorkflowRow; recipient: RecipientRow; code: string; lifetimeMinutes: number }): OutgoingMail {
  const { workflow, recipient, code, lifetimeMinutes } = input;
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    subject: `Your verification code for "${workflow.name}"`,
    text: lines(
      `Hello ${recipient.name},`,
      '',
      `Your verification code is ${code}`,
      '',
      `Enter it to confirm your identity before you ${task(recipient)} "${workflow.name}". It is valid for ${lifetimeMinutes} minutes.`,
      'If you did not ask for it, ignore this message.',
    ),
    kind: 'OTP',
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}

/** To the owner: a recipient declined, with the reason. */
export function declinedMail(input: { workflow: WorkflowRow; owner: { name: string; email: string }; decliner: RecipientRow; reason: string }): OutgoingMail {
  const { workflow, owner, decliner, reason } = input;
  return {
    organizationId: workflow.organizationId,
    to: owner.email,
    subject: `Declined: ${subjectTitle(workflow)}`,
    text: lines(
      `Hello ${owner.name},`,
      '',
      `${decliner.name} (${decliner.email}) declined "${workflow.name}". The envelope is now void.`,
      '',
      'Reason given:',
      reason,
    ),
    kind: 'DECLINED',
    workflowId: workflow.id,
    recipientId: decliner.id,
  };
}

/** To the other recipients already reached: the envelope was voided by a decline, nothing more to do. */
export function voidedMail(input: { workflow: WorkflowRow; recipient: RecipientRow; decliner: RecipientRow }): OutgoingMail {
  const { workflow, recipient, decliner } = input;
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    subject: `Voided: ${subjectTitle(workflow)}`,
    text: lines(
      `Hello ${recipient.name},`,
      '',
      `${decliner.name} declined "${workflow.name}", so the envelope has been voided. You do not need to do anything more.`,
    ),
    kind: 'VOIDED',
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}
