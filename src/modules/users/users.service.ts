import QRCode from 'qrcode';
import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import { consumeTotpStep, findUserById, setPendingTotpSecret, setTwoFactorEnabled, type UserRow } from './users.repo.ts';
import { matchTotpStep, newTotpSecret, totpUrl } from './totp.ts';
import type { SecurityBody } from './users.schemas.ts';

export type TotpEnrollment = { otpauthUrl: string; png: () => Promise<Buffer>; dataUrl: () => Promise<string> };

/** The signed-in user's own settings: profile and two-factor sign-in (RUNTIME.md "Accounts"). */
export function createUsersService({ db }: { db: Db }) {
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
   * must come from the active secret). Asking for the state the account is already in changes nothing; when
   * two-factor is on, the code must still match. Every accepted code uses up its 30-second step.
   */
  async function updateSecurity(caller: UserCaller, body: SecurityBody): Promise<{ twoFactorEnabled: boolean }> {
    assertOwnSession(caller);
    return db.transaction(async (tx) => {
      const user = await currentUser(caller, tx);
      if (!body.twoFactorEnabled && !user.twoFactorEnabled) return { twoFactorEnabled: false };
      if (!user.totpSecret) {
        throw new AppError('OPERATION_IS_NOT_ALLOWED', 'No authenticator is enrolled: call GET /user/v1/settings/generateQR first');
      }
      const step = matchTotpStep(user.totpSecret, body.tOtp);
      if (step === null) throw new AppError('INVALID_TOTP_SETUP');
      if (!(await consumeTotpStep(tx, user.id, step))) throw new AppError('INVALID_TOTP_SETUP', 'This code was already used; wait for the next one');
      if (body.twoFactorEnabled !== user.twoFactorEnabled) await setTwoFactorEnabled(tx, user.id, body.twoFactorEnabled);
      return { twoFactorEnabled: body.twoFactorEnabled };
    });
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
