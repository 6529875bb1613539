import net from 'node:net';
import { MailSendError, type MailProvider } from './mail-sender.ts';

/**
 * SPEC.md "Email settings": the configuration keys each provider requires. Other keys a client sends are stored as given
 * (RUNTIME.md "Request shapes"; the senders use only these), within the caps of CONFIGURATION_LIMITS.
 */
export const PROVIDER_KEYS: Record<MailProvider, readonly string[]> = {
  SMTP: ['SMTP_SERVER', 'SMTP_PORT', 'SSL_TLS', 'AUTHENTICATION', 'USER_ID', 'PASSWORD', 'EMAIL_FROM'],
  EMAIL_API: ['API_KEY', 'EMAIL_FROM'],
  CLOUD_MAIL: ['API_KEY', 'ACCESS_KEY', 'REGION', 'EMAIL_FROM'],
  OAUTH2_MAIL: ['TENANT_ID', 'CLIENT_ID', 'CLIENT_SECRET', 'OAUTH_SCOPE', 'EMAIL_FROM'],
};

/**
 * What the configurations of one organization may hold, required keys included: at most `maxKeys` keys, each named by
 * 1 to `maxKeyLength` letters, digits, `_`, `-` or `.`, each value a string of at most `maxValueLength` characters.
 * The schemas of the email-settings routes enforce them (400 BAD_REQUEST_BODY).
 */
export const CONFIGURATION_LIMITS = {
  maxKeys: 20,
  maxKeyLength: 64,
  maxValueLength: 4096,
  keyPattern: '^[A-Za-z0-9_.-]+$',
} as const;

/**
 * Endings of the names of the configuration keys whose values are credentials: encrypted at rest, masked on read. They
 * cover SPEC.md's PASSWORD, CLIENT_SECRET, API_KEY and SECRET_KEY and any key a client adds that is named like one
 * (RUNTIME.md: a name ending in PASSWORD, SECRET, SECRET_KEY or API_KEY), in any case: SMTP_PASSWORD, webhook_secret.
 */
export const SECRET_KEY_ENDINGS = ['PASSWORD', 'SECRET', 'SECRET_KEY', 'API_KEY'] as const;

export function isSecretKey(key: string): boolean {
  const name = key.toUpperCase();
  return SECRET_KEY_ENDINGS.some((ending) => name.endsWith(ending));
}

export type SmtpSettings = {
  provider: 'SMTP';
  host: string;
  port: number;
  /** Implicit TLS from the first byte (SSL_TLS SSL or TRUE). */
  secure: boolean;
  /** Refuse to send unless STARTTLS succeeds (SSL_TLS TLS or STARTTLS). */
  requireTLS: boolean;
  auth: { user: string; pass: string } | null;
  from: string;
};
export type EmailApiSettings = { provider: 'EMAIL_API'; apiKey: string; from: string };
/** ACCESS_KEY is the AWS access key id, API_KEY its secret access key. */
export type CloudMailSettings = {
  provider: 'CLOUD_MAIL';
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  from: string;
};
export type OAuth2MailSettings = {
  provider: 'OAUTH2_MAIL';
  tenantId: string;
  clientId: string;
  clientSecret: string;
  scope: string;
  from: string;
};
export type ProviderSettings = SmtpSettings | EmailApiSettings | CloudMailSettings | OAuth2MailSettings;

/** Settings that cannot work, found before anything is sent: the keys at fault are named. */
export class MailConfigError extends MailSendError {
  readonly problem: 'MISSING' | 'INVALID';
  readonly keys: string[];
  constructor(problem: 'MISSING' | 'INVALID', keys: string[], message: string) {
    super('CONFIG', message);
    this.name = 'MailConfigError';
    this.problem = problem;
    this.keys = keys;
  }
}

const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;
const AWS_REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;
const AWS_ACCESS_KEY_ID = /^[A-Za-z0-9]{4,128}$/;
const TENANT = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,253}[A-Za-z0-9])?$/;
const SSL_TLS_MODES: Record<string, { secure: boolean; requireTLS: boolean }> = {
  SSL: { secure: true, requireTLS: false },
  TRUE: { secure: true, requireTLS: false },
  TLS: { secure: false, requireTLS: true },
  STARTTLS: { secure: false, requireTLS: true },
  NONE: { secure: false, requireTLS: false },
  FALSE: { secure: false, requireTLS: false },
};
const AUTHENTICATION_WORDS: Record<string, boolean> = {
  TRUE: true,
  YES: true,
  LOGIN: true,
  PLAIN: true,
  FALSE: false,
  NO: false,
  NONE: false,
};

function invalid(key: string, reason: string): MailConfigError {
  return new MailConfigError('INVALID', [key], `${key} ${reason}`);
}

/**
 * The configurations of one provider as typed settings (credentials in plain text), or a MailConfigError naming
 * the missing or invalid keys. A key is missing when absent or blank; USER_ID and PASSWORD may be blank
 * when AUTHENTICATION is off. Keys the provider does not require are left out of the settings.
 */
export function parseProviderSettings(
  provider: MailProvider,
  configurations: Record<string, string>,
): ProviderSettings {
  const required = PROVIDER_KEYS[provider];
  const value = (key: string) => (configurations[key] ?? '').trim();
  const authOff = provider === 'SMTP' && AUTHENTICATION_WORDS[value('AUTHENTICATION').toUpperCase()] === false;
  const missing = required.filter(
    (key) => value(key) === '' && !(authOff && (key === 'USER_ID' || key === 'PASSWORD')),
  );
  if (missing.length > 0) throw new MailConfigError('MISSING', missing, `${provider} needs ${missing.join(', ')}`);
  const from = value('EMAIL_FROM');
  if (from.length > 255 || !EMAIL.test(from))
    throw invalid('EMAIL_FROM', 'must be an email address of at most 255 characters');
  switch (provider) {
    case 'SMTP':
      return smtp(configurations, value, from);
    case 'EMAIL_API':
      return { provider, apiKey: configurations.API_KEY, from };
    case 'CLOUD_MAIL': {
      if (!AWS_REGION.test(value('REGION'))) throw invalid('REGION', 'must be an AWS region such as eu-west-1');
      if (!AWS_ACCESS_KEY_ID.test(value('ACCESS_KEY')))
        throw invalid('ACCESS_KEY', 'must be an AWS access key id (letters and digits)');
      return {
        provider,
        accessKeyId: value('ACCESS_KEY'),
        secretAccessKey: configurations.API_KEY,
        region: value('REGION'),
        from,
      };
    }
    case 'OAUTH2_MAIL': {
      if (!TENANT.test(value('TENANT_ID')))
        throw invalid('TENANT_ID', 'must be a directory (tenant) id or domain name');
      return {
        provider,
        tenantId: value('TENANT_ID'),
        clientId: value('CLIENT_ID'),
        clientSecret: configurations.CLIENT_SECRET,
        scope: value('OAUTH_SCOPE'),
        from,
      };
    }
  }
}

function smtp(configurations: Record<string, string>, value: (key: string) => string, from: string): SmtpSettings {
  const host = value('SMTP_SERVER').replace(/^\[|\]$/g, '');
  if (!HOST_NAME.test(host) && net.isIP(host) === 0) throw invalid('SMTP_SERVER', 'must be a host name or IP address');
  const port = Number(value('SMTP_PORT'));
  if (!/^\d{1,5}$/.test(value('SMTP_PORT')) || port < 1 || port > 65535)
    throw invalid('SMTP_PORT', 'must be a port number from 1 to 65535');
  const mode = SSL_TLS_MODES[value('SSL_TLS').toUpperCase()];
  if (!mode) throw invalid('SSL_TLS', 'must be SSL (implicit TLS), TLS or STARTTLS (required STARTTLS), or NONE');
  const useAuth = AUTHENTICATION_WORDS[value('AUTHENTICATION').toUpperCase()];
  if (useAuth === undefined) throw invalid('AUTHENTICATION', 'must be TRUE or FALSE');
  return {
    provider: 'SMTP',
    host,
    port,
    ...mode,
    auth: useAuth ? { user: value('USER_ID'), pass: configurations.PASSWORD ?? '' } : null,
    from,
  };
}
