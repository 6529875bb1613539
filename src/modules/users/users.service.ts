import QRCode from 'qrcode';
import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import { verifyPassword } from '../../platform/auth/passwords.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import { createSigninLimits } from '../auth/signin-limits.ts';
import { consumeTotpStep, findUserById, setPendingTotpSecret, setTwoFactorEnabled, type UserRow } from './users.repo.ts';
import { matchTotpStep, newTotpSecret, totpUrl } from './totp.ts';
import type { SecurityBody } from './users.schemas.ts';

export type TotpEnrollment = { otpauthUrl: string; png: () => Promise<Buffer>; dataUrl: () => Promise<string> };

/** The signed-in user's own settings: profile and two-factor sign-in (RUNTIME.md "Accounts"). */
export function createUsersService({ db, outbox }: { db: Db; outbox: Outbox }) {
  // The code and password checks below are sign-in credentials too: they count against the same limits.
  const limits = createSigninLimits({ db, outbox });
  return { getProfile, enrollTwoFactor, updateSecurity };

  async function getProfile(caller: UserCaller): Promise<{ user: UserRow; organizationId: number }> {
    return { user: await currentUser(caller), organizationId: caller.organizationId };
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
      throw new AppError('OPERATION_IS_NOT_ALLOWED', 'Two-factor authentication is already on; turn it off before enrolling a new authenticator');
    }
    const otpauthUrl = totpUrl(secret, user.email);
    return { otpauthUrl, png: () => QRCode.toBuffer(otpauthUrl, { type: 'png' }), dataUrl: () => QRCode.toDataURL(otpauthUrl) };
  }

  /**
   * Turns two-factor on (the code must come from the pending secret of the last enrollment) or off (the code
   * must come from the active secret, and `password` must be the account's: a stolen access token alone must
   * not remove the second factor). Asking for the state the account is already in changes nothing; when
   * two-factor is on, the code must still match. Every accepted code uses up its 30-second step. Wrong codes
   * and passwords count against the sign-in limits of the account and the address, which lock this too.
   */
  async function updateSecurity(caller: UserCaller, body: SecurityBody, address: string): Promise<{ twoFactorEnabled: boolean }> {
    assertOwnSession(caller);
    const user = await currentUser(caller);
    if (!body.twoFactorEnabled && !user.twoFactorEnabled) return { twoFactorEnabled: false };
    if (!user.totpSecret) {
      throw new AppError('OPERATION_IS_NOT_ALLOWED', 'No authenticator is enrolled: call GET /user/v1/settings/generateQR first');
    }
    const turningOff = !body.twoFactorEnabled && user.twoFactorEnabled;
    if (turningOff && body.password === undefined) throw new AppError('BAD_REQUEST_BODY', 'password is required to turn two-factor sign-in off');
    const subject = { email: user.email, address };
    await limits.assertNotLocked(subject);
    // Checked outside the transaction: argon2id takes a while, and a failure must be counted, not rolled back.
    if (turningOff && !(user.passwordHash && (await verifyPassword(user.passwordHash, body.password!)))) {
      await limits.recordFailure(subject, user.id);
      throw new AppError('WRONG_PASSWORD');
    }
    const failure = await db.transaction(async (tx) => {
      const current = await currentUser(caller, tx);
      // The secret may have changed since the read above (a concurrent enable, disable or enrollment).
      if (current.totpSecret !== user.totpSecret || current.twoFactorEnabled !== user.twoFactorEnabled) return 'The two-factor settings changed meanwhile; try again';
      const step = matchTotpStep(user.totpSecret!, body.tOtp);
      if (step === null) return 'The two-factor code does not match';
      if (!(await consumeTotpStep(tx, user.id, step))) return 'This code was already used; wait for the next one';
      if (body.twoFactorEnabled !== user.twoFactorEnabled) await setTwoFactorEnabled(tx, user.id, body.twoFactorEnabled);
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
  if (caller.appId !== undefined) throw new AppError('USER_NOT_HAVE_ACCESS', 'Two-factor settings need the user\'s own sign-in, not a business app token');
}

export type UsersService = ReturnType<typeof createUsersService>;
