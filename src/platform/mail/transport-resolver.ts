import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client.ts';
import { organizations } from '../db/schema/index.ts';
import type { SecretBox } from '../crypto/secrets.ts';
import type { TransportResolver } from './outbox.ts';
import type { MailMessage, MailTransport } from './transport.ts';
import { createProviderSender } from './senders/create-sender.ts';
import { MailSendError, type MailProvider, type SenderEnvironment } from './senders/mail-sender.ts';
import { isSecretKey, parseProviderSettings } from './senders/provider-settings.ts';

/**
 * The stored organizations.emailSettings (SPEC.md "Email settings"): credentials encrypted. GLOBAL keeps nothing
 * else; ORG_MANAGED names the provider and its configurations.
 */
export type StoredEmailSettings = {
  emailMode: 'GLOBAL' | 'ORG_MANAGED';
  source?: 'PLAN_CONNECTOR' | 'CUSTOM';
  provider?: MailProvider;
  configurations?: Record<string, string>;
};

/** The configurations as they are stored: every credential encrypted, everything else as given. */
export function encryptConfigurations(
  configurations: Record<string, string>,
  secrets: SecretBox,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(configurations).map(([key, value]) => [
      key,
      isSecretKey(key) && value ? secrets.encrypt(value) : value,
    ]),
  );
}

/** The stored configurations with their credentials in plain text; a credential this installation cannot decrypt is a CONFIG failure. */
export function decryptConfigurations(
  configurations: Record<string, string>,
  secrets: SecretBox,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(configurations).map(([key, value]) => {
      if (!isSecretKey(key) || !value) return [key, value];
      try {
        return [key, secrets.decrypt(value)];
      } catch (error) {
        throw new MailSendError(
          'CONFIG',
          `The stored ${key} cannot be decrypted (${(error as Error).message}); save the settings again`,
        );
      }
    }),
  );
}

/** Where an organization's mail goes: the platform's transport, or the organization's own provider. */
export type MailRoute = 'PLATFORM' | MailProvider;

export type MailRouting = {
  /** The organization's own sender when it manages its mail and its plan allows it, else the platform's transport. */
  resolve: TransportResolver;
  /** Sends one message with the given (plain-text) settings on a fresh sender; throws a MailSendError naming the failing step. */
  probe(
    provider: MailProvider,
    configurations: Record<string, string>,
    message: Omit<MailMessage, 'from'>,
  ): Promise<void>;
  close(): void;
};

/** Senders are rebuilt after this long, so the SMTP address check and a provider's token see fresh answers. */
const SENDER_MAX_AGE_MS = 10 * 60_000;
/** An old sender may still be carrying mails when it is replaced: it is closed only after this. */
const CLOSE_GRACE_MS = 30_000;

/** A sender for settings that cannot work: each send fails with the reason, so the outbox records it and retries. */
function failingTransport(error: MailSendError): MailTransport {
  return {
    send: async () => {
      throw error;
    },
    close() {},
  };
}

/**
 * One sender per organization that routes its own mail, rebuilt when its settings change. The plan decides:
 * an organization whose plan no longer allows custom mail (`allowsCustomMail`, the entitlements' check) sends
 * through the platform again rather than losing its mail.
 */
export function createMailRouting(deps: {
  db: Db;
  secrets: SecretBox;
  platform: { transport: MailTransport; from: string };
  environment: SenderEnvironment;
  allowsCustomMail: (db: DbOrTx, organizationId: number) => Promise<boolean>;
  log: (message: string) => void;
}): MailRouting {
  const own = new Map<
    number,
    { fingerprint: string; createdAt: number; transport: MailTransport; from: string; route: MailRoute }
  >();
  const retiring = new Set<MailTransport>();
  const platformRoute = { ...deps.platform, route: 'PLATFORM' as const };

  function retire(organizationId: number) {
    const cached = own.get(organizationId);
    if (!cached) return;
    own.delete(organizationId);
    retiring.add(cached.transport);
    setTimeout(() => {
      if (retiring.delete(cached.transport)) cached.transport.close();
    }, CLOSE_GRACE_MS).unref();
  }

  return {
    async resolve(organizationId, known) {
      if (organizationId === null) return platformRoute;
      // The delivery job reads the settings with the mail; anyone else has them read here.
      const emailSettings = known
        ? known.emailSettings
        : (
            await deps.db
              .select({ emailSettings: organizations.emailSettings })
              .from(organizations)
              .where(eq(organizations.id, organizationId))
          )[0]?.emailSettings;
      const settings = emailSettings as StoredEmailSettings | null | undefined;
      if (settings?.emailMode !== 'ORG_MANAGED' || !settings.provider) {
        retire(organizationId);
        return platformRoute;
      }
      if (!(await deps.allowsCustomMail(deps.db, organizationId))) {
        deps.log(
          `organization ${organizationId}: its plan does not allow custom mail; sending through the platform's transport`,
        );
        retire(organizationId);
        return platformRoute;
      }
      const fingerprint = JSON.stringify([settings.provider, settings.configurations]);
      const cached = own.get(organizationId);
      if (cached?.fingerprint === fingerprint && Date.now() - cached.createdAt < SENDER_MAX_AGE_MS) return cached;
      retire(organizationId);
      let parsed;
      try {
        parsed = parseProviderSettings(
          settings.provider,
          decryptConfigurations(settings.configurations ?? {}, deps.secrets),
        );
      } catch (error) {
        if (!(error instanceof MailSendError)) throw error;
        return { transport: failingTransport(error), from: deps.platform.from, route: settings.provider };
      }
      const entry = {
        fingerprint,
        createdAt: Date.now(),
        transport: createProviderSender(parsed, deps.environment, { pooled: true }),
        from: parsed.from,
        route: settings.provider,
      };
      own.set(organizationId, entry);
      return entry;
    },
    async probe(provider, configurations, message) {
      const settings = parseProviderSettings(provider, configurations);
      const sender = createProviderSender(settings, deps.environment, { pooled: false });
      try {
        await sender.send({ ...message, from: settings.from });
      } finally {
        sender.close();
      }
    },
    close() {
      for (const transport of [...own.values()].map((entry) => entry.transport).concat([...retiring]))
        transport.close();
      own.clear();
      retiring.clear();
    },
  };
}
