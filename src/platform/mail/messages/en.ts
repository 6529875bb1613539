import { languageTools } from './format.ts';

/**
 * The mail texts in English: the source of truth. Every other language file is typed `MailMessages` (derived from
 * this object), so a key missing or added there fails the compiler, and mail-messages.test.ts names it too.
 * A text with values in it is a function of named values, since word order differs between languages; `approve`
 * chooses between the signer's and the approver's wording (RecipientRole APPROVER). Names, titles, reasons and the
 * sender's message arrive as given and are never translated; the layout escapes them for HTML.
 */
const { locale, categories, number, plural } = languageTools('en-GB', ['one', 'other']);

export const en = {
  locale,
  /** The plural categories this language writes forms for (its rules may name no others for a mail's counts). */
  pluralCategories: categories as readonly Intl.LDMLPluralRule[],

  layout: {
    greeting: (p: { name: string }) => `Hello ${p.name},`,
    messageFrom: (p: { by: string }) => `Message from ${p.by}:`,
    /** A link to act on, in the plain-text part (the HTML part shows a button). */
    link: (p: { label: string; url: string }) => `${p.label}: ${p.url}`,
  },

  /** Stands in for a sender whose account has neither a name nor an address any more. */
  theSender: 'The sender',
  openDocument: 'Open the document',
  ignoreIfNotAsked: 'If you did not ask for it, ignore this message.',

  commence: {
    sent: (p: { sender: string; document: string; approve: boolean }) =>
      `${p.sender} has sent you "${p.document}" to ${p.approve ? 'review and approve' : 'sign'}.`,
    delegated: (p: { delegatedBy: string; sender: string; document: string; approve: boolean }) =>
      `${p.delegatedBy} has asked you to ${p.approve ? 'review and approve' : 'sign'} "${p.document}" in their place, sent by ${p.sender}.`,
    personalLink: (p: { date: string }) => `This link is personal: do not forward it. It can be used until ${p.date}.`,
  },

  copy: {
    subject: (p: { title: string }) => `Copy: ${p.title}`,
    sent: (p: { sender: string; document: string }) =>
      `${p.sender} has sent "${p.document}" for signature and copied you. You do not need to do anything.`,
    viewDocument: 'View the document',
    linkValid: (p: { date: string }) => `This link can be used until ${p.date}.`,
  },

  otp: {
    subject: (p: { title: string }) => `Your verification code for "${p.title}"`,
    code: (p: { code: string }) => `Your verification code is ${p.code}`,
    enterIt: (p: { document: string; approve: boolean; minutes: number }) =>
      `Enter it to confirm your identity before you ${p.approve ? 'review and approve' : 'sign'} "${p.document}". It is valid for ${minutes(p.minutes)}.`,
  },

  declined: {
    subject: (p: { title: string }) => `Declined: ${p.title}`,
    body: (p: { name: string; email: string; document: string }) =>
      `${p.name} (${p.email}) declined "${p.document}". The envelope is now void.`,
    reasonGiven: 'Reason given:',
  },

  voided: {
    subject: (p: { title: string }) => `Voided: ${p.title}`,
    byDecline: (p: { name: string; document: string }) => `${p.name} declined "${p.document}".`,
    byOwner: (p: { name: string; document: string; reason: string }) => `${p.name} voided "${p.document}": ${p.reason}`,
    nothingMore: 'The envelope has been voided. You do not need to do anything more.',
  },

  reminder: {
    subject: (p: { title: string }) => `Reminder: ${p.title}`,
    waiting: (p: { sender: string; document: string; approve: boolean }) =>
      `${p.sender} is still waiting for you to ${p.approve ? 'approve' : 'sign'} "${p.document}".`,
    alreadyDone: 'If you have already done so, please ignore this message.',
  },

  completed: {
    subject: (p: { title: string }) => `Completed: ${p.title}`,
    finished: (p: { document: string; count: number }) =>
      `Everyone has finished "${p.document}". The signed ${plural(p.count, { one: 'document is', other: 'documents are' })} sealed with the platform's digital seal:`,
    attached: (_: { count: number }) => 'The sealed PDF files are attached to this mail.',
    tooLarge: (p: { megabytes: number }) =>
      `The sealed files are larger than ${number(p.megabytes)} MB, so they are not attached.`,
    download: 'Download them here',
  },

  sealFailed: {
    subject: (p: { title: string }) => `Sealing failed: ${p.title}`,
    body: (p: { document: string }) =>
      `Everyone has finished "${p.document}", but the service could not seal the signed document after several attempts.`,
    reason: (p: { reason: string }) => `Reason: ${p.reason}`,
    kept: 'The signatures and the audit trail are kept. Please contact your administrator.',
  },

  signingKeyReset: {
    subject: 'Your code for a new signing key',
    code: (p: { code: string }) => `Your code for a new signing key is ${p.code}`,
    lines: (p: { minutes: number }) => [
      `Enter it on the signing page with a new signing password. It is valid for ${minutes(p.minutes)}.`,
      'Your earlier signatures stay valid; the old signing password stops working.',
      'If you did not ask for it, ignore this message: your key stays as it is.',
    ],
  },
};

function minutes(count: number): string {
  return `${number(count)} ${plural(count, { one: 'minute', other: 'minutes' })}`;
}

export type MailMessages = typeof en;
