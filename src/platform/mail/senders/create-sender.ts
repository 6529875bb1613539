import { createCloudMailSender } from './cloud-mail-sender.ts';
import { createEmailApiSender } from './email-api-sender.ts';
import type { MailSender, SenderEnvironment } from './mail-sender.ts';
import { createOAuth2MailSender } from './oauth2-mail-sender.ts';
import type { ProviderSettings } from './provider-settings.ts';
import { createSmtpSender } from './smtp-sender.ts';

/** The one sender for a provider's settings; `pooled` keeps SMTP connections open between sends. */
export function createProviderSender(
  settings: ProviderSettings,
  environment: SenderEnvironment,
  options: { pooled: boolean },
): MailSender {
  const { endpoints } = environment;
  switch (settings.provider) {
    case 'SMTP':
      return createSmtpSender(settings, environment, options);
    case 'EMAIL_API':
      return createEmailApiSender(settings, endpoints.emailApiUrl);
    case 'CLOUD_MAIL':
      return createCloudMailSender(settings, endpoints.cloudMailEndpoint);
    case 'OAUTH2_MAIL':
      return createOAuth2MailSender(settings, { loginUrl: endpoints.oauth2LoginUrl, apiUrl: endpoints.oauth2ApiUrl });
  }
}
