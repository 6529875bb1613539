import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { organizations } from '../db/schema/index.ts';
import type { SecretBox } from '../crypto/secrets.ts';
import type { TransportResolver } from './outbox.ts';
import { createSmtpTransport, type MailTransport, type SmtpServer } from './transport.ts';

/** The stored organizations.emailSettings (SPEC.md "Email settings"), secret values encrypted. */
export type StoredEmailSettings = {
  emailMode: 'GLOBAL' | 'ORG_MANAGED';
  source?: 'PLAN_CONNECTOR' | 'CUSTOM';
  provider: 'SMTP' | 'EMAIL_API' | 'CLOUD_MAIL' | 'OAUTH2_MAIL';
  configurations: Record<string, string>;
};

/** Configuration keys whose values are credentials: encrypted at rest, masked on read. */
export const SECRET_CONFIGURATION_KEYS = ['PASSWORD', 'CLIENT_SECRET', 'API_KEY', 'SECRET_KEY'] as const;

/** The configurations as they are stored: every credential encrypted, everything else as given. */
export function encryptConfigurations(configurations: Record<string, string>, secrets: SecretBox): Record<string, string> {
  return Object.fromEntries(Object.entries(configurations).map(([key, value]) => [
    key, (SECRET_CONFIGURATION_KEYS as readonly string[]).includes(key) && value ? secrets.encrypt(value) : value,
  ]));
}

export type MailRouting = {
  /** The organization's own SMTP server when it manages its mail, else the platform's transport. */
  resolve: TransportResolver;
  close(): void;
};

/**
 * One pooled transport per organization that routes its own mail, rebuilt when its settings change. Only
 * SMTP is driven here; an organization set to another provider gets the platform's transport (and a log
 * line) until a client for that provider exists, rather than losing its mail.
 */
export function createMailRouting(deps: {
  db: Db;
  secrets: SecretBox;
  platform: { transport: MailTransport; from: string };
  log: (message: string) => void;
}): MailRouting {
  const own = new Map<number, { settings: string; transport: MailTransport; from: string }>();
  return {
    async resolve(organizationId) {
      if (organizationId === null) return deps.platform;
      const [row] = await deps.db.select({ emailSettings: organizations.emailSettings }).from(organizations).where(eq(organizations.id, organizationId));
      const settings = row?.emailSettings as StoredEmailSettings | null | undefined;
      const cached = own.get(organizationId);
      if (!settings || settings.emailMode !== 'ORG_MANAGED') {
        if (cached) { cached.transport.close(); own.delete(organizationId); }
        return deps.platform;
      }
      if (settings.provider !== 'SMTP') {
        deps.log(`organization ${organizationId}: mail provider ${settings.provider} has no client yet; sending through the platform's transport`);
        return deps.platform;
      }
      const fingerprint = JSON.stringify(settings.configurations);
      if (cached?.settings === fingerprint) return cached;
      cached?.transport.close();
      const { server, from } = smtpSettings(settings.configurations, deps.secrets, organizationId);
      const entry = { settings: fingerprint, transport: createSmtpTransport(server), from };
      own.set(organizationId, entry);
      return entry;
    },
    close() {
      for (const entry of own.values()) entry.transport.close();
      own.clear();
    },
  };
}

/** SPEC.md's SMTP keys: SMTP_SERVER, SMTP_PORT, SSL_TLS, AUTHENTICATION, USER_ID, PASSWORD, EMAIL_FROM. */
function smtpSettings(configurations: Record<string, string>, secrets: SecretBox, organizationId: number): { server: SmtpServer; from: string } {
  const { SMTP_SERVER: host, SMTP_PORT: port, SSL_TLS: tls = '', AUTHENTICATION: authentication = '', USER_ID: user, PASSWORD: password, EMAIL_FROM: from } = configurations;
  if (!host || !from || !Number.isInteger(Number(port))) {
    throw new Error(`organization ${organizationId}: its SMTP settings lack SMTP_SERVER, a numeric SMTP_PORT or EMAIL_FROM`);
  }
  const mode = tls.trim().toUpperCase();
  const useAuth = !['', 'FALSE', 'NONE', 'NO'].includes(authentication.trim().toUpperCase());
  return {
    server: {
      host,
      port: Number(port),
      secure: mode === 'SSL' || mode === 'TRUE' || (mode === '' && Number(port) === 465),
      requireTLS: mode === 'TLS' || mode === 'STARTTLS',
      ...(useAuth && user ? { auth: { user, pass: password ? secrets.decrypt(password) : '' } } : {}),
    },
    from,
  };
}
