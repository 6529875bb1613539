import dns from 'node:dns';
import net from 'node:net';
import nodemailer from 'nodemailer';
import { checkAddress } from '../../outbound/address-rules.ts';
import { toNodemailer } from '../transport.ts';
import { MailSendError, PROVIDER_TIMEOUT_MS, excerpt, type MailSender, type SenderEnvironment } from './mail-sender.ts';
import type { SmtpSettings } from './provider-settings.ts';

const CONNECT_CODES = new Set([
  'ECONNECTION',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
  'ETLS',
  'EREQUIRETLS',
  'EPROXY',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const AUTH_CODES = new Set(['EAUTH', 'ENOAUTH']);

/** A nodemailer failure as the step it happened at. */
function classify(error: unknown, host: string): MailSendError {
  const { code, response, message } = error as { code?: string; response?: string; message?: string };
  const detail = excerpt(response || message || String(error));
  if (code && AUTH_CODES.has(code)) return new MailSendError('AUTH', `${host} refused the login: ${detail}`);
  if (code && CONNECT_CODES.has(code)) return new MailSendError('CONNECT', `${host} could not be reached: ${detail}`);
  return new MailSendError('SEND', `${host} refused the message: ${detail}`);
}

/**
 * The address the organization's SMTP server name leads to, under the outbound rules (no private, loopback or
 * metadata address unless OUTBOUND_ALLOW_PRIVATE): an owner must not use the service to probe its internal network.
 * The connection is pinned to the checked address; TLS still verifies the name.
 */
async function checkedAddress(host: string, environment: SenderEnvironment): Promise<string> {
  let addresses: string[];
  if (net.isIP(host)) addresses = [host];
  else {
    const resolve =
      environment.resolve ??
      (async (name: string) => (await dns.promises.lookup(name, { all: true, verbatim: true })).map((a) => a.address));
    try {
      addresses = await resolve(host);
    } catch {
      throw new MailSendError('CONNECT', `${host} could not be resolved`);
    }
  }
  if (addresses.length === 0) throw new MailSendError('CONNECT', `${host} has no address`);
  for (const address of addresses) {
    const verdict = checkAddress(address, environment.allowPrivate);
    if (!verdict.allowed)
      throw new MailSendError('CONFIG', `SMTP_SERVER ${host} leads to a refused address (${verdict.reason})`);
  }
  return addresses[0];
}

/**
 * SMTP through nodemailer. With `pooled`, connections are kept and reused (the outbox's sender); without, each
 * send opens and closes one (the settings test). The address check runs once per sender: the resolver rebuilds
 * its senders periodically, so a changed DNS answer is checked again.
 */
export function createSmtpSender(
  settings: SmtpSettings,
  environment: SenderEnvironment,
  options: { pooled: boolean },
): MailSender {
  let transporter: ReturnType<typeof nodemailer.createTransport> | null = null;
  let connecting: Promise<ReturnType<typeof nodemailer.createTransport>> | null = null;

  async function ready() {
    if (transporter) return transporter;
    connecting ??= (async () => {
      const address = await checkedAddress(settings.host, environment);
      transporter = nodemailer.createTransport({
        host: address,
        port: settings.port,
        secure: settings.secure,
        requireTLS: settings.requireTLS,
        ...(net.isIP(settings.host) ? {} : { servername: settings.host, tls: { servername: settings.host } }),
        ...(settings.auth ? { auth: settings.auth } : {}),
        connectionTimeout: PROVIDER_TIMEOUT_MS,
        greetingTimeout: PROVIDER_TIMEOUT_MS,
        socketTimeout: PROVIDER_TIMEOUT_MS * 2,
        ...(options.pooled ? { pool: true, maxConnections: 4, maxMessages: 500 } : {}),
      });
      return transporter;
    })();
    try {
      return await connecting;
    } finally {
      connecting = null;
    }
  }

  return {
    async send(message) {
      const transport = await ready();
      try {
        await transport.sendMail(toNodemailer(message));
      } catch (error) {
        throw classify(error, settings.host);
      }
    },
    close() {
      transporter?.close();
      transporter = null;
    },
  };
}
