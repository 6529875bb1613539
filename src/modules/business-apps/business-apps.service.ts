import crypto from 'node:crypto';
import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import type { SecretBox } from '../../platform/crypto/secrets.ts';
import { newClientSecret, hashClientSecret } from '../auth/client-secrets.ts';
import { revokeBusinessAppSessions } from '../auth/sessions.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import type { Tx } from '../../platform/db/client.ts';
import { resumeCallback } from '../webhooks/callback-pause.ts';
import { assertPersonalSession } from './business-app-caller.ts';
import {
  countEnabledApps,
  findAppNamed,
  findAppOfOrganization,
  findAppsOfOrganization,
  findClashingApps,
  insertBusinessApp,
  lockOrganizationForApps,
  updateApp,
  type BusinessAppRow,
} from './business-apps.repo.ts';
import type { RegisterAppBody, RotatableSecret, UpdateAppBody } from './business-apps.schemas.ts';
import { checkCallbackUrl, type ResolveHost } from './callback-url.ts';

type Deps = { db: Db; secrets: SecretBox; allowPrivateCallbacks: boolean; resolve: ResolveHost };

/**
 * Enabled apps (each receives the organization's webhooks) one organization may have, so that it cannot fill the
 * delivery queue with endpoints of its own. A disabled app receives none and does not count; enabling it does.
 */
export const BUSINESS_APP_CALLBACK_LIMIT = 10;

/**
 * Refuses one more enabled app past the limit. The caller holds the organization's row lock (lockOrganizationForApps,
 * taken first in its transaction), so two registrations or enables cannot both count nine.
 */
async function assertRoomForCallback(tx: Tx, organizationId: number): Promise<void> {
  if ((await countEnabledApps(tx, organizationId)) < BUSINESS_APP_CALLBACK_LIMIT) return;
  throw new AppError(
    'BUSINESS_APP_LIMIT_REACHED',
    `An organization may have at most ${BUSINESS_APP_CALLBACK_LIMIT} business apps with a callback enabled; disable one first`,
    { limit: BUSINESS_APP_CALLBACK_LIMIT },
  );
}

/** A webhook secret: 256 random bits, prefixed so a leaked one is recognisable for what it is. */
function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64url')}`;
}

/**
 * Business apps (SPEC.md "Business apps", RUNTIME.md's registration shape): partner integrations of one
 * organization. The client secret is kept as its SHA-256 digest (256 random bits need no slow hash); the webhook
 * secret is kept encrypted, because every delivery signs with it. Both are shown once, at registration or rotation.
 * Another organization's app is 404.
 */
export function createBusinessAppService({ db, secrets, allowPrivateCallbacks, resolve }: Deps) {
  return { register, list, get, update, setStatus, rotateSecrets };

  async function getApp(caller: UserCaller, appId: number): Promise<BusinessAppRow> {
    const app = await findAppOfOrganization(db, caller.organizationId, appId);
    if (!app) throw new AppError('NOT_FOUND', 'Business app not found');
    return app;
  }

  async function register(caller: UserCaller, body: RegisterAppBody) {
    assertPersonalSession(caller);
    const appName = body.appName.trim();
    if (!appName) throw new AppError('INVALID_REQUEST_BODY', 'appName must not be blank');
    const callbackUrl = await checkCallbackUrl(body.callbackUrl, { allowPrivate: allowPrivateCallbacks, resolve });
    const clientSecret = newClientSecret();
    const webhookSecret = newWebhookSecret();
    try {
      const app = await db.transaction(async (tx) => {
        if (body.status ?? true) {
          await lockOrganizationForApps(tx, caller.organizationId);
          await assertRoomForCallback(tx, caller.organizationId);
        }
        assertNoClash(await findClashingApps(tx, caller.organizationId, body.clientId, appName), body.clientId);
        return insertBusinessApp(tx, {
          organizationId: caller.organizationId,
          clientId: body.clientId,
          appName,
          callbackUrl,
          secretHash: hashClientSecret(clientSecret),
          webhookSecret: secrets.encrypt(webhookSecret),
          status: body.status ?? true,
        });
      });
      return { app, clientSecret, webhookSecret };
    } catch (error) {
      // Concurrent registrations race past the pre-check; the unique indexes decide, and name the loser's clash.
      if (!isUniqueViolation(error)) throw error;
      throw new AppError(
        violates(error, 'business_apps_client_id_key') ? 'BUSINESS_APP_CLIENT_ID_TAKEN' : 'BUSINESS_APP_NAME_TAKEN',
      );
    }
  }

  function assertNoClash(clashes: BusinessAppRow[], clientId: string): void {
    if (clashes.some((app) => app.clientId === clientId))
      throw new AppError('BUSINESS_APP_CLIENT_ID_TAKEN', `The client id "${clientId}" is taken`);
    if (clashes.length > 0)
      throw new AppError(
        'BUSINESS_APP_NAME_TAKEN',
        `The organization already has an app named "${clashes[0].appName}"`,
      );
  }

  async function list(caller: UserCaller): Promise<BusinessAppRow[]> {
    assertPersonalSession(caller);
    return findAppsOfOrganization(db, caller.organizationId);
  }

  async function get(caller: UserCaller, appId: number): Promise<BusinessAppRow> {
    assertPersonalSession(caller);
    return getApp(caller, appId);
  }

  /**
   * Renames the app or points its webhooks at another callback URL (checked as at registration). Every update, even
   * one that changes nothing, resumes a paused callback: saving the app is how its owner says the receiver answers again.
   */
  async function update(caller: UserCaller, appId: number, body: UpdateAppBody): Promise<BusinessAppRow> {
    assertPersonalSession(caller);
    const appName = body.appName?.trim();
    if (appName === '') throw new AppError('INVALID_REQUEST_BODY', 'appName must not be blank');
    const callbackUrl =
      body.callbackUrl === undefined
        ? undefined
        : await checkCallbackUrl(body.callbackUrl, { allowPrivate: allowPrivateCallbacks, resolve });
    try {
      return await db.transaction(async (tx) => {
        const app = await findAppOfOrganization(tx, caller.organizationId, appId, { lock: true });
        if (!app) throw new AppError('NOT_FOUND', 'Business app not found');
        if (appName !== undefined) {
          const clash = await findAppNamed(tx, caller.organizationId, appName, app.id);
          if (clash)
            throw new AppError(
              'BUSINESS_APP_NAME_TAKEN',
              `The organization already has an app named "${clash.appName}"`,
            );
        }
        await resumeCallback(tx, app.id, new Date());
        const changes = {
          ...(appName === undefined ? {} : { appName }),
          ...(callbackUrl === undefined ? {} : { callbackUrl }),
        };
        return Object.keys(changes).length > 0
          ? updateApp(tx, app.id, changes)
          : (await findAppOfOrganization(tx, caller.organizationId, app.id))!;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new AppError('BUSINESS_APP_NAME_TAKEN');
    }
  }

  /**
   * Disabling takes effect on the next request of any of the app's access tokens (the per-request account check
   * joins the app) and ends its refresh tokens, so enabling it again needs a new client-credentials sign-in.
   * Its pending webhook deliveries are dead-lettered when their next attempt comes; the owner may replay them.
   * Enabling counts against BUSINESS_APP_CALLBACK_LIMIT under the organization's lock, taken before the app's (one
   * order for both locks). A change resumes a paused callback: disabled, its held deliveries are dead-lettered.
   */
  async function setStatus(caller: UserCaller, appId: number, status: boolean): Promise<BusinessAppRow> {
    assertPersonalSession(caller);
    return db.transaction(async (tx) => {
      if (status) await lockOrganizationForApps(tx, caller.organizationId);
      const app = await findAppOfOrganization(tx, caller.organizationId, appId, { lock: true });
      if (!app) throw new AppError('NOT_FOUND', 'Business app not found');
      if (app.status === status) return app;
      if (status) await assertRoomForCallback(tx, caller.organizationId);
      if (!status) await revokeBusinessAppSessions(tx, app.id);
      await resumeCallback(tx, app.id, new Date());
      return updateApp(tx, app.id, { status });
    });
  }

  /**
   * A new client secret replaces the old at once and ends the app's refresh tokens (access tokens already issued
   * run out within 15 minutes; disable the app to cut them off now). A new webhook secret signs every delivery
   * attempted from now on, retries of earlier events included.
   */
  async function rotateSecrets(caller: UserCaller, appId: number, which: RotatableSecret) {
    assertPersonalSession(caller);
    const clientSecret = which === 'WEBHOOK' ? undefined : newClientSecret();
    const webhookSecret = which === 'CLIENT' ? undefined : newWebhookSecret();
    const app = await db.transaction(async (tx) => {
      const current = await findAppOfOrganization(tx, caller.organizationId, appId, { lock: true });
      if (!current) throw new AppError('NOT_FOUND', 'Business app not found');
      if (clientSecret) await revokeBusinessAppSessions(tx, current.id);
      // A new webhook secret is often the fix for a receiver that refused the signatures: an edit, it resumes a paused callback.
      await resumeCallback(tx, current.id, new Date());
      return updateApp(tx, current.id, {
        ...(clientSecret ? { secretHash: hashClientSecret(clientSecret) } : {}),
        ...(webhookSecret ? { webhookSecret: secrets.encrypt(webhookSecret) } : {}),
      });
    });
    return { app, clientSecret, webhookSecret };
  }
}

/** Whether a driver error (either driver, possibly wrapped by Drizzle) names this constraint. */
function violates(error: unknown, constraint: string): boolean {
  for (
    let current = error as { constraint?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 5;
    current = current.cause as typeof current, depth++
  ) {
    if (current.constraint === constraint || String(current.message ?? '').includes(`"${constraint}"`)) return true;
  }
  return false;
}

export type BusinessAppService = ReturnType<typeof createBusinessAppService>;
