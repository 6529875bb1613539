import { type MailLanguage, mailText } from '../../platform/mail/messages/index.ts';
import type { OutgoingMail } from '../../platform/mail/outbox.ts';
import { renderMail, type MailBranding } from '../../platform/mail/templates/layout.ts';
import type { RecipientRow, WorkflowRow } from '../workflows/workflow-access.ts';

/**
 * The texts of the mails sending and signing produce, in the one mail layout. Each mail goes to the
 * recipient's address, through the organization's routing (organizationId), and names its workflow and
 * recipient for support and tests. `branding` is the organization's look, when the caller has it. A mail that
 * proves control of the address (a one-time code; the link of a recipient who signs with a platform-certified key)
 * goes through the platform's own mail (`viaPlatform`). `language` is the sender's mail language
 * (`senderMailLanguage`, asked in the transaction that queues the mail); absent, English. The texts are the
 * catalogue's (platform/mail/messages); names, titles and the sender's message go in as given.
 */

/**
 * Whether a mail carrying this recipient's signing link must leave through the platform's own mail: whoever holds the
 * link of a useDigitalCert recipient can create that person's platform-certified key, so the organization's own
 * provider must never see it (RUNTIME.md round three).
 */
export function linkProvesAddress(recipient: Pick<RecipientRow, 'useDigitalCert'>): boolean {
  return recipient.useDigitalCert;
}

/** The commence title, else the workflow name: what every mail about a workflow names in its subject. */
export function workflowTitle(workflow: WorkflowRow): string {
  return workflow.title?.trim() || workflow.name;
}

function approves(recipient: RecipientRow): boolean {
  return recipient.role === 'APPROVER';
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
  language?: MailLanguage;
}): OutgoingMail {
  const { workflow, recipient, link, expiresAt, delegatedBy } = input;
  const t = mailText(input.language);
  const sender = input.senderName || t.theSender;
  const message = workflow.message?.trim();
  const said = { sender, document: workflow.name, approve: approves(recipient) };
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    ...renderMail(
      {
        subject: workflowTitle(workflow),
        greeting: recipient.name,
        blocks: [
          delegatedBy ? t.commence.delegated({ ...said, delegatedBy }) : t.commence.sent(said),
          message && { quote: message, by: sender },
          { label: t.openDocument, url: link },
          t.commence.personalLink({ date: t.date(expiresAt) }),
        ],
        language: t.language,
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
  language?: MailLanguage;
}): OutgoingMail {
  const { workflow, recipient, link, expiresAt } = input;
  const t = mailText(input.language);
  const sender = input.senderName || t.theSender;
  const message = workflow.message?.trim();
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    ...renderMail(
      {
        subject: t.copy.subject({ title: workflowTitle(workflow) }),
        greeting: recipient.name,
        blocks: [
          t.copy.sent({ sender, document: workflow.name }),
          message && { quote: message, by: sender },
          { label: t.copy.viewDocument, url: link },
          t.copy.linkValid({ date: t.date(expiresAt) }),
        ],
        language: t.language,
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
  language?: MailLanguage;
}): OutgoingMail {
  const { workflow, recipient, code, lifetimeMinutes } = input;
  const t = mailText(input.language);
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    ...renderMail(
      {
        subject: t.otp.subject({ title: workflowTitle(workflow) }),
        greeting: recipient.name,
        blocks: [
          t.otp.code({ code }),
          {
            lines: [
              t.otp.enterIt({ document: workflow.name, approve: approves(recipient), minutes: lifetimeMinutes }),
              t.ignoreIfNotAsked,
            ],
          },
        ],
        language: t.language,
      },
      input.branding,
    ),
    kind: 'OTP',
    viaPlatform: true,
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}

/** To the owner, in the owner's mail language (`owner.language`): a recipient declined, with the reason. */
export function declinedMail(input: {
  workflow: WorkflowRow;
  owner: { name: string; email: string; language?: MailLanguage };
  decliner: RecipientRow;
  reason: string;
  branding?: MailBranding;
}): OutgoingMail {
  const { workflow, owner, decliner, reason } = input;
  const t = mailText(owner.language);
  return {
    organizationId: workflow.organizationId,
    to: owner.email,
    ...renderMail(
      {
        subject: t.declined.subject({ title: workflowTitle(workflow) }),
        greeting: owner.name,
        blocks: [
          t.declined.body({ name: decliner.name, email: decliner.email, document: workflow.name }),
          { lines: [t.declined.reasonGiven, reason] },
        ],
        language: t.language,
      },
      input.branding,
    ),
    kind: 'DECLINED',
    workflowId: workflow.id,
    recipientId: decliner.id,
  };
}

/** What voided an envelope: a recipient's decline, or its owner, who gave a reason. */
export type VoidCause = { declinedBy: string } | { voidedBy: string; reason: string };

/** To the other recipients already reached: the envelope was voided (a decline, or its owner), nothing more to do. */
export function voidedMail(input: {
  workflow: WorkflowRow;
  recipient: RecipientRow;
  why: VoidCause;
  branding?: MailBranding;
  language?: MailLanguage;
}): OutgoingMail {
  const { workflow, recipient, why } = input;
  const t = mailText(input.language);
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    ...renderMail(
      {
        subject: t.voided.subject({ title: workflowTitle(workflow) }),
        greeting: recipient.name,
        blocks: [
          'declinedBy' in why
            ? t.voided.byDecline({ name: why.declinedBy, document: workflow.name })
            : t.voided.byOwner({ name: why.voidedBy || t.theSender, document: workflow.name, reason: why.reason }),
          t.voided.nothingMore,
        ],
        language: t.language,
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
  language?: MailLanguage;
}): OutgoingMail {
  const { workflow, recipient, link } = input;
  const t = mailText(input.language);
  return {
    organizationId: workflow.organizationId,
    to: recipient.email,
    ...renderMail(
      {
        subject: t.reminder.subject({ title: workflowTitle(workflow) }),
        greeting: recipient.name,
        blocks: [
          t.reminder.waiting({
            sender: input.senderName || t.theSender,
            document: workflow.name,
            approve: approves(recipient),
          }),
          { label: t.openDocument, url: link },
          t.reminder.alreadyDone,
        ],
        language: t.language,
      },
      input.branding,
    ),
    kind: 'REMINDER',
    viaPlatform: linkProvesAddress(recipient),
    workflowId: workflow.id,
    recipientId: recipient.id,
  };
}
