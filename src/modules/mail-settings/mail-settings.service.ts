import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { SecretBox } from '../../platform/crypto/secrets.ts';
import type { Db } from '../../platform/db/client.ts';
import { MAIL_SETTINGS_TESTS, longestLock, recordAttempts, type AttemptRule } from '../../platform/limits/attempts.ts';
import { MailSendError, type MailProvider } from '../../platform/mail/senders/mail-sender.ts';
import { MailConfigError, isSecretKey, parseProviderSettings } from '../../platform/mail/senders/provider-settings.ts';
import { renderMail } from '../../platform/mail/templates/layout.ts';
import {
  encryptConfigurations,
  type MailRouting,
  type StoredEmailSettings,
} from '../../platform/mail/transport-resolver.ts';
import { canonicalAddress, checkAddress } from '../../platform/outbound/address-rules.ts';
import { allowsCustomMail } from '../billing/entitlements.service.ts';
import {
  countDeliveries,
  findDeliveries,
  findDelivery,
  findEmailSettings,
  saveEmailSettings,
  type DeliveryRow,
} from './mail-settings.repo.ts';
import type {
  DeliveriesQuery,
  EmailSettingsBody,
  EmailSettingsResponse,
  EmailSettingsTestBody,
  EmailSettingsTestResponse,
} from './mail-settings.schemas.ts';

/** What every credential reads as (SPEC.md): a fixed run of asterisks, so not even its length shows. */
export const SECRET_MASK = '********';

/** A settings problem found before anything is sent, as the 400 that names the keys at fault. */
function toSettingsError(error: MailConfigError, provider: MailProvider): AppError {
  if (error.problem === 'MISSING')
    return new AppError('MAIL_SETTINGS_KEY_MISSING', `${provider} needs ${error.keys.join(', ')}`, {
      provider,
      missingKeys: error.keys,
    });
  return new AppError('MAIL_SETTINGS_INVALID', error.message, { provider, keys: error.keys });
}

/**
 * SPEC.md "Organization: email settings" (owner only; the route policy checks the owner): the organization's own
 * mail provider, its credentials encrypted at rest and masked on read, a test that names the step that failed,
 * and the delivery log of the mails the provider carried.
 */
export function createMailSettingsService(deps: {
  db: Db;
  secrets: SecretBox;
  mailRouting: Pick<MailRouting, 'probe'>;
  allowPrivate: boolean;
  log: (message: string) => void;
}) {
  const { db } = deps;
  return { get, update, test, listDeliveries, getDelivery };

  async function toResponse(
    organizationId: number,
    settings: StoredEmailSettings | null,
  ): Promise<EmailSettingsResponse> {
    const managed = settings?.emailMode === 'ORG_MANAGED' && settings.provider;
    return {
      licenseSmtpEnabled: true,
      planAllowCustomSmtp: await allowsCustomMail(db, organizationId),
      isOwner: true,
      emailMode: managed ? 'ORG_MANAGED' : 'GLOBAL',
      source: managed ? (settings.source ?? 'CUSTOM') : null,
      provider: managed ? settings.provider! : null,
      configurations: managed
        ? Object.fromEntries(
            Object.entries(settings.configurations ?? {}).map(([key, value]) => [
              key,
              isSecretKey(key) ? SECRET_MASK : value,
            ]),
          )
        : {},
      allowedConnectors: [],
    };
  }

  async function get(caller: UserCaller): Promise<EmailSettingsResponse> {
    return toResponse(caller.organizationId, await findEmailSettings(db, caller.organizationId));
  }

  /**
   * GLOBAL forgets the custom configuration and its credentials (and is allowed on any plan); ORG_MANAGED needs the
   * plan's custom mail, source CUSTOM, a provider and its required keys; other keys are kept beside them (RUNTIME.md).
   * Values are stored as sent, credentials (isSecretKey: every key named like one) encrypted: a masked value sent back
   * is stored as the credential, as SPEC.md warns.
   */
  async function update(caller: UserCaller, body: EmailSettingsBody): Promise<EmailSettingsResponse> {
    const organizationId = caller.organizationId;
    const settings = await db.transaction(async (tx) => {
      await findEmailSettings(tx, organizationId, { lock: true });
      if (body.emailMode === 'GLOBAL') {
        const global: StoredEmailSettings = { emailMode: 'GLOBAL' };
        await saveEmailSettings(tx, organizationId, global);
        return global;
      }
      if (!(await allowsCustomMail(tx, organizationId))) throw new AppError('CUSTOM_MAIL_NOT_ALLOWED');
      if (body.source === 'PLAN_CONNECTOR')
        throw new AppError(
          'MAIL_CONNECTOR_UNAVAILABLE',
          "This installation's plans offer no mail connectors: use source CUSTOM with your own provider",
        );
      if (!body.provider)
        throw new AppError('MAIL_SETTINGS_INVALID', 'ORG_MANAGED needs a provider', { keys: ['provider'] });
      const configurations = body.configurations ?? {};
      assertUsable(body.provider, configurations);
      const managed: StoredEmailSettings = {
        emailMode: 'ORG_MANAGED',
        source: 'CUSTOM',
        provider: body.provider,
        configurations: encryptConfigurations(configurations, deps.secrets),
      };
      await saveEmailSettings(tx, organizationId, managed);
      return managed;
    });
    return toResponse(organizationId, settings);
  }

  /** The keys the provider needs, in the right form; an SMTP server given as a refused IP address is refused now (names are checked when connecting). */
  function assertUsable(provider: MailProvider, configurations: Record<string, string>): void {
    let parsed;
    try {
      parsed = parseProviderSettings(provider, configurations);
    } catch (error) {
      if (error instanceof MailConfigError) throw toSettingsError(error, provider);
      throw error;
    }
    if (parsed.provider === 'SMTP' && canonicalAddress(parsed.host)) {
      const verdict = checkAddress(parsed.host, deps.allowPrivate);
      if (!verdict.allowed)
        throw new AppError('MAIL_SETTINGS_INVALID', `SMTP_SERVER: ${verdict.reason}`, {
          provider,
          keys: ['SMTP_SERVER'],
        });
    }
  }

  /**
   * Sends one test mail to `testRecipient` with the configurations in the body (not the stored ones, so settings can
   * be tried before they are saved; a masked credential is tried as the mask). Answers 200 either way: the failure is
   * the answer, with its step.
   */
  async function test(caller: UserCaller, body: EmailSettingsTestBody): Promise<EmailSettingsTestResponse> {
    const organizationId = caller.organizationId;
    if (!(await allowsCustomMail(db, organizationId))) throw new AppError('CUSTOM_MAIL_NOT_ALLOWED');
    if (body.connectorId !== undefined && body.connectorId !== null)
      throw new AppError(
        'MAIL_CONNECTOR_UNAVAILABLE',
        `Connector ${body.connectorId} is not available: this installation's plans offer no mail connectors`,
      );
    const check: [AttemptRule, string] = [MAIL_SETTINGS_TESTS, String(organizationId)];
    const lockedFor = await longestLock(db, [check]);
    if (lockedFor !== null)
      throw new AppError('MAIL_SETTINGS_TEST_LIMITED', undefined, undefined, { retryAfterSeconds: lockedFor });
    await recordAttempts(db, [check]);
    const provider = body.provider;
    const mail = renderMail({
      subject: "Test of your organization's email settings",
      greeting: body.testRecipient,
      blocks: [
        `This message was sent through your organization's ${provider} settings. If you can read it, they work.`,
      ],
    });
    try {
      await deps.mailRouting.probe(provider, body.configurations, {
        to: body.testRecipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    } catch (error) {
      if (error instanceof MailSendError) return { success: false, provider, step: error.step, message: error.message };
      deps.log(
        `organization ${organizationId}: email settings test failed unexpectedly: ${(error as Error).stack ?? error}`,
      );
      return { success: false, provider, step: 'SEND', message: 'The test failed unexpectedly; see the service log' };
    }
    return {
      success: true,
      provider,
      step: null,
      message: `The test mail was accepted by ${provider} for ${body.testRecipient}`,
    };
  }

  async function listDeliveries(caller: UserCaller, query: DeliveriesQuery) {
    const [rows, total] = await Promise.all([
      findDeliveries(db, caller.organizationId, {
        status: query.status,
        limit: query.size,
        offset: query.page * query.size,
      }),
      countDeliveries(db, caller.organizationId, query.status),
    ]);
    return { rows, total, totalPages: Math.ceil(total / query.size), number: query.page, size: query.size };
  }

  async function getDelivery(caller: UserCaller, deliveryId: number): Promise<DeliveryRow> {
    const row = await findDelivery(db, caller.organizationId, deliveryId);
    if (!row) throw new AppError('NOT_FOUND', 'Mail delivery not found');
    return row;
  }
}

export type MailSettingsService = ReturnType<typeof createMailSettingsService>;
