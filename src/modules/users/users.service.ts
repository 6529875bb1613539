import QRCode from 'qrcode';
import { AppError } from '../../errors.ts';
import type { GuestCaller, UserCaller } from '../../http/authenticate.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { verifyPassword } from '../../platform/auth/passwords.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import { createSigninLimits } from '../auth/signin-limits.ts';
import { cloudProvidersGranted } from '../billing/entitlements.service.ts';
import { findWorkflowForCaller } from '../workflows/workflow-access.ts';
import {
  consumeTotpStep,
  findMailPreferences,
  findUserById,
  findUserSettings,
  normalizeEmail,
  setLocale,
  setPendingTotpSecret,
  setTwoFactorEnabled,
  upsertNotificationSettings,
  type UserRow,
} from './users.repo.ts';
import { matchTotpStep, newTotpSecret, totpUrl } from './totp.ts';
import {
  NOTIFICATION_KINDS,
  toGuestProfileResponse,
  type CloudImportFields,
  type NotificationName,
  type NotificationPreferences,
  type NotificationPreferencesBody,
  type ProfileResponse,
  type SecurityBody,
  DEFAULT_LOCALE,
} from './users.schemas.ts';

export type TotpEnrollment = { otpauthUrl: string; png: () => Promise<Buffer>; dataUrl: () => Promise<string> };

/** What the service can offer for cloud import (RUNTIME.md BOX_APP_KEY, DRIVE_CLIENT_ID + DRIVE_API_KEY). */
export type CloudImportKeys = {
  boxAppKey: string | undefined;
  drive: { clientId: string; apiKey: string } | undefined;
};

type Deps = { db: Db; outbox: Outbox; cloudImportKeys?: CloudImportKeys };

/** The signed-in user's own settings: profile, two-factor sign-in (RUNTIME.md "Accounts"), notifications and locale. */
export function createUsersService({ db, outbox, cloudImportKeys = { boxAppKey: undefined, drive: undefined } }: Deps) {
  // The code and password checks below are sign-in credentials too: they count against the same limits.
  const limits = createSigninLimits({ db, outbox });
  return {
    getProfile,
    getGuestProfile,
    enrollTwoFactor,
    updateSecurity,
    getNotifications,
    updateNotifications,
    getLocale,
    updateLocale,
  };

  /**
   * The profile, with the cloud-import keys of the providers the token's organization's plan grants (SPEC.md
   * "Profile"): Drive's pair only together, box's key alone; null for a provider the plan does not grant or
   * the service has no key for.
   */
  async function getProfile(
    caller: UserCaller,
  ): Promise<{ user: UserRow; organizationId: number; cloud: CloudImportFields }> {
    const user = await currentUser(caller);
    const granted = await cloudProvidersGranted(db, caller.organizationId);
    const drive = granted.includes('DRIVE') ? cloudImportKeys.drive : undefined;
    const cloud = {
      driveClientId: drive?.clientId ?? null,
      driveApiKey: drive?.apiKey ?? null,
      boxAppKey: granted.includes('BOX') ? (cloudImportKeys.boxAppKey ?? null) : null,
    };
    return { user, organizationId: caller.organizationId, cloud };
  }

  /**
   * A signing link's session reads the profile as its recipient row (RUNTIME.md "Who may do what"; SPEC.md's mobile
   * client reads the profile right after redeeming the code): the row's name and email, none of the account's
   * settings, even when the row is a registered user's (the link may have been forwarded). The row is reached as the
   * workflow is: a row or workflow that is gone is 404, and a recipient password not yet entered in this session is
   * 403 IDENTITY_NOT_VERIFIED, so a forwarded link does not show whom it was meant for.
   */
  async function getGuestProfile(caller: GuestCaller): Promise<ProfileResponse> {
    const { workflow, recipient } = await findWorkflowForCaller(db, caller, caller.workflowId);
    if (!recipient) throw new AppError('NOT_FOUND', 'The recipient row of this signing link no longer exists');
    return toGuestProfileResponse(recipient, workflow.organizationId);
  }

  async function getNotifications(caller: UserCaller): Promise<NotificationPreferences> {
    await currentUser(caller);
    return notificationPreferences(db, caller.userId);
  }

  /** Members left out keep their value; answers every preference. */
  async function updateNotifications(
    caller: UserCaller,
    body: NotificationPreferencesBody,
  ): Promise<NotificationPreferences> {
    await currentUser(caller);
    return db.transaction(async (tx) => {
      const merged = { ...(await notificationPreferences(tx, caller.userId)), ...body };
      await upsertNotificationSettings(tx, caller.userId, merged);
      return merged;
    });
  }

  async function getLocale(caller: UserCaller): Promise<{ locale: string }> {
    return { locale: (await currentUser(caller)).locale ?? DEFAULT_LOCALE };
  }

  async function updateLocale(caller: UserCaller, requested: string): Promise<{ locale: string }> {
    await currentUser(caller);
    let locale: string;
    try {
      [locale] = Intl.getCanonicalLocales(requested);
    } catch {
      throw new AppError('INVALID_REQUEST_BODY', `${requested} is not a BCP 47 language tag`);
    }
    await setLocale(db, caller.userId, locale);
    return { locale };
  }

  /**
   * A new secret, stored but not active until `updateSecurity` confirms a code from it. While two-factor is
   * on, a new enrollment is refused: replacing the active secret would lock the user out of the
   * authenticator they use, and would let a stolen access token take over the second factor.
   */
  async function enrollTwoFactor(caller: UserCaller): Promise<TotpEnrollment> {
    assertOwnSession(caller);
    const user = await currentUser(caller);
    const secret = newTotpSecret();
    if (user.twoFactorEnabled || !(await setPendingTotpSecret(db, user.id, secret))) {
      throw new AppError(
        'OPERATION_IS_NOT_ALLOWED',
        'Two-factor authentication is already on; turn it off before enrolling a new authenticator',
      );
    }
    const otpauthUrl = totpUrl(secret, user.email);
    return {
      otpauthUrl,
      png: () => QRCode.toBuffer(otpauthUrl, { type: 'png' }),
      dataUrl: () => QRCode.toDataURL(otpauthUrl),
    };
  }

  /**
   * Turns two-factor on (the code must come from the pending secret of the last enrollment) or off (the code
   * must come from the active secret: a stolen access token alone, without the authenticator, cannot remove the
   * second factor; RUNTIME.md asks nothing more, and a `password`, when sent, must be the account's too).
   * Asking for the state the account is already in changes nothing; when two-factor is on, the code must still
   * match. Every accepted code uses up its 30-second step. Wrong codes and passwords count against the sign-in
   * limits of the account and the address, which lock this too.
   */
  async function updateSecurity(
    caller: UserCaller,
    body: SecurityBody,
    address: string,
  ): Promise<{ twoFactorEnabled: boolean }> {
    assertOwnSession(caller);
    const user = await currentUser(caller);
    if (!body.twoFactorEnabled && !user.twoFactorEnabled) return { twoFactorEnabled: false };
    if (!user.totpSecret) {
      throw new AppError(
        'OPERATION_IS_NOT_ALLOWED',
        'No authenticator is enrolled: call GET /user/v1/settings/generateQR first',
      );
    }
    const checkPassword = !body.twoFactorEnabled && user.twoFactorEnabled && body.password !== undefined;
    const subject = { email: user.email, address };
    await limits.assertNotLocked(subject);
    // Checked outside the transaction: argon2id takes a while, and a failure must be counted, not rolled back.
    if (checkPassword && !(user.passwordHash && (await verifyPassword(user.passwordHash, body.password!)))) {
      await limits.recordFailure(subject, user.id);
      throw new AppError('WRONG_PASSWORD');
    }
    const failure = await db.transaction(async (tx) => {
      const current = await currentUser(caller, tx);
      // The secret may have changed since the read above (a concurrent enable, disable or enrollment).
      if (current.totpSecret !== user.totpSecret || current.twoFactorEnabled !== user.twoFactorEnabled)
        return 'The two-factor settings changed meanwhile; try again';
      const step = matchTotpStep(user.totpSecret!, body.tOtp);
      if (step === null) return 'The two-factor code does not match';
      if (!(await consumeTotpStep(tx, user.id, step))) return 'This code was already used; wait for the next one';
      if (body.twoFactorEnabled !== user.twoFactorEnabled)
        await setTwoFactorEnabled(tx, user.id, body.twoFactorEnabled);
      return null;
    });
    if (failure !== null) {
      await limits.recordFailure(subject, user.id);
      throw new AppError('INVALID_TOTP_SETUP', failure);
    }
    return { twoFactorEnabled: body.twoFactorEnabled };
  }

  async function currentUser(caller: UserCaller, dbOrTx: Parameters<typeof findUserById>[0] = db): Promise<UserRow> {
    const user = await findUserById(dbOrTx, caller.userId);
    // A valid token of a user that no longer exists (or was never registered) is not a session.
    if (!user || user.isGuest) throw new AppError('UNAUTHORIZED', 'The account behind this token does not exist');
    return user;
  }
}

/** A partner's CLIENT token acts for the user but may not change how the user signs in. */
function assertOwnSession(caller: UserCaller): void {
  if (caller.appId !== undefined)
    throw new AppError(
      'USER_NOT_HAVE_ACCESS',
      "Two-factor settings need the user's own sign-in, not a business app token",
    );
}

export type UsersService = ReturnType<typeof createUsersService>;

/** Every preference, stored or default (true). */
export async function notificationPreferences(db: DbOrTx, userId: number): Promise<NotificationPreferences> {
  const stored = ((await findUserSettings(db, userId))?.notifications ?? {}) as Partial<Record<string, unknown>>;
  const names = Object.keys(NOTIFICATION_KINDS) as NotificationName[];
  return Object.fromEntries(names.map((name) => [name, stored[name] !== false])) as NotificationPreferences;
}

/** The preference that can hold back a mail of this outbox kind (COMPLETED, DECLINED, ...); none for a kind nobody can turn off. */
function preferenceOf(mailKind: string): NotificationName | undefined {
  return (Object.keys(NOTIFICATION_KINDS) as NotificationName[]).find((key) => NOTIFICATION_KINDS[key] === mailKind);
}

/**
 * The outbox's question for every mail it queues (app.ts hands it to the platform): whether the person at each
 * address wants a mail of that kind. Only the optional kinds (NOTIFICATION_KINDS: completed copies, declined and voided
 * notices...) are ever held back, and only for a registered user whose address is verified: a guest has no settings,
 * and an account someone opened with another person's address must not silence that person's mail. Mails a person
 * needs in order to act (signing requests, reminders, one-time codes) are not optional (docs/mail-and-webhooks.md "Notification preferences").
 * One query for all the addresses asked about (a completion's copies go to everyone at once), none when no kind asked
 * is optional.
 */
export async function addresseesWantMail(db: DbOrTx, asked: { address: string; kind: string }[]): Promise<boolean[]> {
  const addresses = [...new Set(asked.filter((entry) => preferenceOf(entry.kind)).map((entry) => entry.address))];
  if (addresses.length === 0) return asked.map(() => true);
  const people = await findMailPreferences(db, addresses);
  return asked.map(({ address, kind }) => {
    const name = preferenceOf(kind);
    if (!name) return true;
    const person = people.get(normalizeEmail(address));
    if (!person || person.isGuest || !person.emailVerifiedAt) return true;
    return (person.notifications as Partial<Record<string, unknown>> | null)?.[name] !== false;
  });
}
