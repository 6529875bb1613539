import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/data-dir.ts';

export type MailMessage = {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; contentType: string; content: Uint8Array }[];
  /**
   * The Message-ID header (`<...@...>`): the same on every attempt at one outbox row, so a mail sent again after a
   * crash (accepted by the peer, but the process died before recording it) is recognisably the same message.
   */
  messageId?: string;
};

/** An SMTP server given by parts (an organization's settings) rather than by SMTP_URL. */
export type SmtpServer = {
  host: string;
  port: number;
  /** Implicit TLS from the first byte (port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  /** Refuse to send unless STARTTLS succeeds. */
  requireTLS: boolean;
  auth?: { user: string; pass: string };
};

/** Hands one message to the outside world; throws when the peer refuses, so the job retries. */
export type MailTransport = { send(message: MailMessage): Promise<void>; close(): void };

/**
 * SMTP through nodemailer (`smtp://user:pass@host:port`, or `smtps://` for implicit TLS). Connections are
 * pooled and reused: opening one per mail (greeting, EHLO, TLS) cost some 100 ms each and capped delivery
 * near 130 mails/s. Query parameters of SMTP_URL (`?pool=false`, `?maxConnections=4`) override these.
 */
export function createSmtpTransport(target: string | SmtpServer): MailTransport {
  const server = typeof target === 'string' ? { url: target } : target;
  const transporter = nodemailer.createTransport({ ...server, pool: true, maxConnections: 8, maxMessages: 500 });
  return {
    async send(message) {
      await transporter.sendMail(toNodemailer(message));
    },
    close: () => transporter.close(),
  };
}

/**
 * No SMTP configured: each mail is written as an .eml file under DATA_DIR/outbox/ and logged. The files hold live
 * signing links and one-time codes, so they are readable by the service's user alone.
 */
export function createFileTransport(outboxDir: string, log: (line: string) => void): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transporter.sendMail(toNodemailer(message));
      await fsp.mkdir(outboxDir, { recursive: true, mode: PRIVATE_DIR_MODE });
      const file = path.join(outboxDir, `${Date.now()}-${crypto.randomUUID()}.eml`);
      await fsp.writeFile(`${file}.tmp`, info.message as Buffer, { mode: PRIVATE_FILE_MODE });
      await fsp.rename(`${file}.tmp`, file);
      log(`mail to ${message.to} "${message.subject}" written to ${file}`);
    },
    close() {},
  };
}

export function toNodemailer(message: MailMessage) {
  return {
    from: message.from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html ? { html: message.html } : {}),
    ...(message.messageId ? { messageId: message.messageId } : {}),
    attachments: message.attachments?.map((a) => ({
      filename: a.filename,
      contentType: a.contentType,
      content: Buffer.from(a.content),
    })),
  };
}
