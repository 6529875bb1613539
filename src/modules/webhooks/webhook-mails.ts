import type { OutgoingMail } from '../../platform/mail/outbox.ts';
import { renderMail } from '../../platform/mail/templates/layout.ts';

const DATE_TIME = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

/**
 * To the organization's owner, once per pause: the app's callback failed for a day, so its deliveries are held until
 * the owner resumes them. Through the organization's mail routing and in its branding, like its other mail.
 */
export function webhookPausedMail(input: {
  to: string;
  name: string;
  organizationId: number;
  appName: string;
  callbackUrl: string;
  failingSince: Date;
  held: number;
  appsUrl: string;
}): OutgoingMail {
  const held = input.held === 1 ? '1 delivery is' : `${input.held} deliveries are`;
  return {
    to: input.to,
    organizationId: input.organizationId,
    ...renderMail({
      subject: `Webhooks to ${input.appName} are paused`,
      greeting: input.name,
      blocks: [
        `Every webhook delivery to the business app ${input.appName} (${input.callbackUrl}) has failed since ` +
          `${DATE_TIME.format(input.failingSince)} UTC, so its deliveries are paused.`,
        `${held} held now. New events are kept for the app too, but nothing is sent to it until you resume it.`,
        'To resume, make the receiver answer again, then save the app (with a corrected webhook URL if it moved) or redeliver one ' +
          'of its deliveries: every held delivery is sent then.',
        { label: 'Open the business apps', url: input.appsUrl },
      ],
    }),
    kind: 'WEBHOOK_PAUSED',
  };
}
