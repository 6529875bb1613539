import { MailSendError, excerpt, providerRequest, type MailSender } from './mail-sender.ts';
import type { OAuth2MailSettings } from './provider-settings.ts';

/** A token is renewed this long before the expiry the provider announced. */
const TOKEN_MARGIN_MS = 60_000;

function parseJson(text: string): Record<string, any> | null {
  try {
    const value = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : null;
  } catch {
    return null;
  }
}

/**
 * OAUTH2_MAIL is Microsoft Graph: an app-only access token from the Microsoft identity platform by the OAuth 2.0
 * client-credentials grant (`POST /<TENANT_ID>/oauth2/v2.0/token`, scope OAUTH_SCOPE, usually
 * `https://graph.microsoft.com/.default`), then `POST /v1.0/users/<EMAIL_FROM>/sendMail` with it; 202 means accepted.
 * A refused token request is TOKEN; Graph refusing the token (401) or the mailbox (403, no Mail.Send right) is AUTH.
 */
export function createOAuth2MailSender(
  settings: OAuth2MailSettings,
  endpoints: { loginUrl: string; apiUrl: string },
): MailSender {
  const tokenUrl = new URL(
    `/${encodeURIComponent(settings.tenantId)}/oauth2/v2.0/token`,
    endpoints.loginUrl,
  ).toString();
  const sendUrl = new URL(`/v1.0/users/${encodeURIComponent(settings.from)}/sendMail`, endpoints.apiUrl).toString();
  let cached: { token: string; expiresAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (cached && cached.expiresAt - TOKEN_MARGIN_MS > Date.now()) return cached.token;
    const response = await providerRequest(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: settings.clientId,
        client_secret: settings.clientSecret,
        scope: settings.scope,
      }).toString(),
    });
    const body = parseJson(response.text);
    if (response.status !== 200 || typeof body?.access_token !== 'string') {
      const reason = body?.error
        ? `${body.error}${body.error_description ? `: ${body.error_description}` : ''}`
        : response.text || 'no details';
      throw new MailSendError(
        'TOKEN',
        `The identity platform refused the token request: ${response.status} ${excerpt(reason)}`,
      );
    }
    const lifetime = Number(body.expires_in);
    cached = {
      token: body.access_token,
      expiresAt: Date.now() + (Number.isFinite(lifetime) && lifetime > 0 ? lifetime * 1000 : 300_000),
    };
    return cached.token;
  }

  return {
    async send(message) {
      const token = await accessToken();
      const graphMessage = {
        subject: message.subject,
        body: message.html
          ? { contentType: 'HTML', content: message.html }
          : { contentType: 'Text', content: message.text },
        toRecipients: [{ emailAddress: { address: message.to } }],
        ...(message.attachments && message.attachments.length > 0
          ? {
              attachments: message.attachments.map((a) => ({
                '@odata.type': '#microsoft.graph.fileAttachment',
                name: a.filename,
                contentType: a.contentType,
                contentBytes: Buffer.from(a.content).toString('base64'),
              })),
            }
          : {}),
      };
      const response = await providerRequest(sendUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: graphMessage, saveToSentItems: false }),
      });
      if (response.status >= 200 && response.status < 300) return;
      const error = parseJson(response.text)?.error as { code?: string; message?: string } | undefined;
      const detail = `${response.status} ${excerpt(error ? `${error.code ?? ''}: ${error.message ?? ''}` : response.text || 'no details')}`;
      if (response.status === 401 || response.status === 403) {
        // A revoked or rejected token must not be reused by the retry.
        cached = null;
        throw new MailSendError('AUTH', `Microsoft Graph refused to send as ${settings.from}: ${detail}`);
      }
      throw new MailSendError('SEND', `Microsoft Graph refused the message: ${detail}`);
    },
    close() {
      cached = null;
    },
  };
}
