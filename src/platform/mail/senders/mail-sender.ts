import type { MailTransport } from '../transport.ts';

/** SPEC.md "Email settings": the four ways an organization may send its own mail. */
export const MAIL_PROVIDERS = ['SMTP', 'EMAIL_API', 'CLOUD_MAIL', 'OAUTH2_MAIL'] as const;
export type MailProvider = (typeof MAIL_PROVIDERS)[number];

/**
 * Where a delivery failed (SPEC.md "Email settings", test): the settings themselves (CONFIG), reaching the provider
 * (CONNECT), the provider refusing the credentials (AUTH), obtaining an OAuth2 access token (TOKEN), or the provider
 * refusing the message (SEND).
 */
export type DeliveryStep = 'CONFIG' | 'CONNECT' | 'AUTH' | 'TOKEN' | 'SEND';

export class MailSendError extends Error {
  readonly step: DeliveryStep;
  constructor(step: DeliveryStep, message: string) {
    super(message);
    this.name = 'MailSendError';
    this.step = step;
  }
}

/** Every sender is a MailTransport: the outbox hands it a message, a refusal throws a MailSendError naming its step. */
export type MailSender = MailTransport;

/**
 * The providers' real addresses, fixed by the operator (never by an organization, so no owner can point the
 * service's requests somewhere else); tests point them at local servers.
 */
export type MailProviderEndpoints = {
  /** EMAIL_API (SendGrid v3): base of POST /v3/mail/send. */
  emailApiUrl: string;
  /** CLOUD_MAIL (Amazon SES v2): unset, the regional endpoint https://email.<REGION>.amazonaws.com. */
  cloudMailEndpoint: string | undefined;
  /** OAUTH2_MAIL token authority (Microsoft identity platform): base of /<tenant>/oauth2/v2.0/token. */
  oauth2LoginUrl: string;
  /** OAUTH2_MAIL API (Microsoft Graph): base of /v1.0/users/<EMAIL_FROM>/sendMail. */
  oauth2ApiUrl: string;
};

export const DEFAULT_MAIL_PROVIDER_ENDPOINTS: MailProviderEndpoints = {
  emailApiUrl: 'https://api.sendgrid.com',
  cloudMailEndpoint: undefined,
  oauth2LoginUrl: 'https://login.microsoftonline.com',
  oauth2ApiUrl: 'https://graph.microsoft.com',
};

export type SenderEnvironment = {
  endpoints: MailProviderEndpoints;
  /** OUTBOUND_ALLOW_PRIVATE: an organization's SMTP server may be on a private or loopback address (tests only). */
  allowPrivate: boolean;
  /** Name resolution for the SMTP address check; tests may substitute it. */
  resolve?: (hostname: string) => Promise<string[]>;
};

/** How long one exchange with a provider may take before the attempt counts as failed to CONNECT (or SEND). */
export const PROVIDER_TIMEOUT_MS = 15_000;

/** A provider's error text, cut short: it ends up in the delivery log and the test answer. */
export function excerpt(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

/**
 * One HTTP exchange with a provider: a network failure or timeout is CONNECT; the answer is returned whatever its
 * status, with at most 64 KB of its body read.
 */
export async function providerRequest(
  url: string,
  init: { method: 'POST'; headers: Record<string, string>; body: string },
): Promise<{ status: number; headers: Headers; text: string }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new MailSendError(
      'CONNECT',
      `${new URL(url).host} could not be reached: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
    );
  }
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (reader && size < 64 * 1024) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // The status already says what happened; a body cut short only shortens the error text.
  }
  await reader?.cancel().catch(() => {});
  return { status: response.status, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') };
}
