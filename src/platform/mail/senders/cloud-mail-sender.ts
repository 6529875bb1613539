import type { SESv2Client } from '@aws-sdk/client-sesv2';
import nodemailer from 'nodemailer';
import { toNodemailer } from '../transport.ts';
import { MailSendError, PROVIDER_TIMEOUT_MS, excerpt, type MailSender } from './mail-sender.ts';
import type { CloudMailSettings } from './provider-settings.ts';

/** What SES answers when the access key, its secret or the signature is wrong, or the key may not send. */
const AUTH_ERRORS = new Set([
  'UnrecognizedClientException',
  'InvalidSignatureException',
  'SignatureDoesNotMatch',
  'IncompleteSignature',
  'InvalidClientTokenId',
  'MissingAuthenticationToken',
  'ExpiredToken',
  'ExpiredTokenException',
  'AccessDeniedException',
  'AccessDenied',
]);

function classify(error: unknown, endpoint: string): MailSendError {
  const { name, message, $metadata } = error as {
    name?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
  };
  const status = $metadata?.httpStatusCode;
  const detail = excerpt(`${name ?? 'Error'}: ${message ?? String(error)}`);
  if (status === undefined) return new MailSendError('CONNECT', `${endpoint} could not be reached: ${detail}`);
  if ((name && AUTH_ERRORS.has(name)) || status === 401)
    return new MailSendError('AUTH', `Amazon SES refused the credentials: ${status} ${detail}`);
  return new MailSendError('SEND', `Amazon SES refused the message: ${status} ${detail}`);
}

/**
 * CLOUD_MAIL is Amazon SES API v2 `SendEmail` (`POST /v2/email/outbound-emails`, signed with AWS Signature Version
 * 4 for service `ses` in REGION) through the official client. The message goes as raw MIME, so the HTML part and
 * attachments arrive as they would over SMTP. One attempt per send: the outbox owns retries.
 */
export function createCloudMailSender(settings: CloudMailSettings, endpoint: string | undefined): MailSender {
  // The AWS SDK is loaded with the first message (~5 MB of heap, measured, that processes without a cloud sender
  // would otherwise carry through every garbage collection).
  let loaded: Promise<{
    client: SESv2Client;
    SendEmailCommand: typeof import('@aws-sdk/client-sesv2').SendEmailCommand;
  }> | null = null;
  const ses = () =>
    (loaded ??= import('@aws-sdk/client-sesv2').then(({ SESv2Client, SendEmailCommand }) => ({
      client: new SESv2Client({
        region: settings.region,
        ...(endpoint ? { endpoint } : {}),
        credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
        maxAttempts: 1,
        requestHandler: { connectionTimeout: PROVIDER_TIMEOUT_MS, requestTimeout: PROVIDER_TIMEOUT_MS },
      }),
      SendEmailCommand,
    })));
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const target = endpoint ?? `email.${settings.region}.amazonaws.com`;
  return {
    async send(message) {
      const composed = await composer.sendMail(toNodemailer(message));
      const { client, SendEmailCommand } = await ses();
      try {
        await client.send(
          new SendEmailCommand({
            FromEmailAddress: settings.from,
            Destination: { ToAddresses: [message.to] },
            Content: { Raw: { Data: new Uint8Array(composed.message as Buffer) } },
          }),
        );
      } catch (error) {
        throw classify(error, target);
      }
    },
    close() {
      void loaded?.then(
        ({ client }) => client.destroy(),
        () => {},
      );
    },
  };
}
