import { type MailLanguage, mailText } from '../../platform/mail/messages/index.ts';
import type { OutgoingMail } from '../../platform/mail/outbox.ts';
import { renderMail } from '../../platform/mail/templates/layout.ts';

/**
 * The code that replaces a signing key (a locked or forgotten signing password). It proves the address, so it leaves
 * through the platform's own mail, in the organization's branding (RUNTIME.md round three), and in the mail language
 * of the envelope's sender (`language`; absent, English), as the recipient's other mails about it.
 */
export function signingKeyResetMail(input: {
  organizationId: number;
  workflowId: number;
  recipientId: number;
  to: string;
  name: string;
  code: string;
  lifetimeMinutes: number;
  language?: MailLanguage;
}): OutgoingMail {
  const t = mailText(input.language);
  return {
    organizationId: input.organizationId,
    viaPlatform: true,
    to: input.to,
    ...renderMail({
      subject: t.signingKeyReset.subject,
      greeting: input.name,
      blocks: [
        t.signingKeyReset.code({ code: input.code }),
        { lines: t.signingKeyReset.lines({ minutes: input.lifetimeMinutes }) },
      ],
      language: t.language,
    }),
    kind: 'SIGNING_KEY_RESET',
    workflowId: input.workflowId,
    recipientId: input.recipientId,
  };
}
