import type { OutgoingMail } from '../../platform/mail/outbox.ts';
import { renderMail } from '../../platform/mail/templates/layout.ts';

/**
 * The code that replaces a signing key (a locked or forgotten signing password). It proves the address, so it leaves
 * through the platform's own mail, in the organization's branding (RUNTIME.md round three).
 */
export function signingKeyResetMail(input: {
  organizationId: number;
  workflowId: number;
  recipientId: number;
  to: string;
  name: string;
  code: string;
  lifetimeMinutes: number;
}): OutgoingMail {
  return {
    organizationId: input.organizationId,
    viaPlatform: true,
    to: input.to,
    ...renderMail({
      subject: 'Your code for a new signing key',
      greeting: input.name,
      blocks: [
        `Your code for a new signing key is ${input.code}`,
        {
          lines: [
            `Enter it on the signing page with a new signing password. It is valid for ${input.lifetimeMinutes} minutes.`,
            'Your earlier signatures stay valid; the old signing password stops working.',
            'If you did not ask for it, ignore this message: your key stays as it is.',
          ],
        },
      ],
    }),
    kind: 'SIGNING_KEY_RESET',
    workflowId: input.workflowId,
    recipientId: input.recipientId,
  };
}
