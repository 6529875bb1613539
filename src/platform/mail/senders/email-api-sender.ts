import { MailSendError, excerpt, providerRequest, type MailSender } from './mail-sender.ts';
import type { EmailApiSettings } from './provider-settings.ts';

/** SendGrid's error body: `{errors: [{message, field, help}]}`. */
function sendGridErrors(text: string): string {
  try {
    const parsed = JSON.parse(text) as { errors?: { message?: string; field?: string | null }[] };
    const messages = (parsed.errors ?? [])
      .map((e) => (e.field ? `${e.field}: ${e.message}` : e.message))
      .filter(Boolean);
    if (messages.length > 0) return excerpt(messages.join('; '));
  } catch {
    // Not JSON: the raw text below.
  }
  return excerpt(text || 'no details');
}

/**
 * EMAIL_API is SendGrid's Web API v3: `POST /v3/mail/send` with `Authorization: Bearer <API_KEY>` and the
 * message as JSON; 202 means accepted. 401 and 403 are the key's fault (AUTH), any other refusal the message's (SEND).
 */
export function createEmailApiSender(settings: EmailApiSettings, baseUrl: string): MailSender {
  const url = new URL('/v3/mail/send', baseUrl).toString();
  return {
    async send(message) {
      const content = [
        { type: 'text/plain', value: message.text },
        ...(message.html ? [{ type: 'text/html', value: message.html }] : []),
      ];
      const attachments = message.attachments?.map((a) => ({
        content: Buffer.from(a.content).toString('base64'),
        filename: a.filename,
        type: a.contentType,
        disposition: 'attachment',
      }));
      const body = {
        personalizations: [{ to: [{ email: message.to }] }],
        from: { email: settings.from },
        subject: message.subject,
        content,
        ...(attachments && attachments.length > 0 ? { attachments } : {}),
      };
      const response = await providerRequest(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${settings.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (response.status >= 200 && response.status < 300) return;
      const detail = `${response.status} ${sendGridErrors(response.text)}`;
      if (response.status === 401 || response.status === 403)
        throw new MailSendError('AUTH', `SendGrid refused the API key: ${detail}`);
      throw new MailSendError('SEND', `SendGrid refused the message: ${detail}`);
    },
    close() {},
  };
}
