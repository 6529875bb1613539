import crypto from 'node:crypto';
import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Db, Tx } from '../../platform/db/client.ts';
import {
  lockedForSeconds,
  recordAttempts,
  SIGNUPS_PER_ADDRESS,
  VERIFICATION_MAILS_PER_ACCOUNT,
} from '../../platform/limits/attempts.ts';
import type { TokenSigner } from '../../platform/auth/jwt.ts';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import type { BillingService } from '../billing/billing.service.ts';
import { createAccount } from '../users/accounts.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import {
  consumeTotpStep,
  findUserByEmail,
  findUserById,
  findUserByVerificationCode,
  setEmailVerificationCode,
  verifyEmailByCode,
  type UserRow,
} from '../users/users.directory.ts';
import { matchTotpStep } from '../users/totp.ts';
import { emailVerificationMail } from './account-mails.ts';
import { assertSessionStanding } from './account-standing.ts';
import { findBusinessAppByClientId, findBusinessAppById, findGuestSessionTarget, isActiveMember } from './auth.repo.ts';
import type { SigninBody, SignupBody } from './auth.schemas.ts';
import { clientSecretMatches, hashClientSecret } from './client-secrets.ts';
import {
  emailVerificationLink,
  hashEmailVerificationCode,
  isWellFormedVerificationCode,
  newEmailVerificationCode,
} from './email-verification.ts';
import {
  issueSession,
  revokeFamilyOfToken,
  revokeUserSessions,
  rotateSession,
  type SessionSubject,
  type SessionTokens,
} from './sessions.ts';
import { createSigninLimits, type CheckSubject } from './signin-limits.ts';

export type SigninResult = { kind: 'session'; session: SessionTokens } | { kind: 'totp-required' };

type Deps = {
  db: Db;
  tokens: TokenSigner;
  billing: BillingService;
  outbox: Outbox;
  signupEnabled: boolean;
  publicUrl: string;
};

/** Sign-up, email verification, the direct-bearer sign-in grants, refresh and sign-out (SPEC.md Authentication §2 and §4). */
export function createAuthService({ db, tokens, billing, outbox, signupEnabled, publicUrl }: Deps) {
  // Unknown users and guests get a password check against this hash, so the answer takes as long as for a
  // real account and response time does not reveal which emails are registered.
  const dummyHash = hashPassword(crypto.randomBytes(16).toString('hex'));
  const limits = createSigninLimits({ db, outbox });

  return {
    signupEnabled: () => signupEnabled,
    signup,
    verifyEmail,
    verificationCodeIsLive,
    resendVerification,
    signin,
    checkCredentials,
    issueUserSession: userSession,
    refresh,
    signout,
    endSession,
  };

  /**
   * `address` is the client's: a sign-up that gets as far as the hash counts against SIGNUPS_PER_ADDRESS (each costs a
   * hash, an account, an organization with credits and a mail to any address); past it, 429 SIGNUP_LIMIT_REACHED.
   */
  async function signup(body: SignupBody, address: string): Promise<{ userId: number; organizationId: number }> {
    if (!signupEnabled) throw new AppError('SIGNUP_DISABLED');
    const waitSeconds = await lockedForSeconds(db, SIGNUPS_PER_ADDRESS, address);
    if (waitSeconds !== null) {
      throw new AppError(
        'SIGNUP_LIMIT_REACHED',
        `${SIGNUPS_PER_ADDRESS.max} sign-ups from this address within an hour, the most allowed; try again in ${waitSeconds} seconds`,
        { retryAfterSeconds: waitSeconds },
        { retryAfterSeconds: waitSeconds },
      );
    }
    // Checked before the (slow) hash; createAccount checks again inside the transaction.
    const existing = await findUserByEmail(db, body.email);
    if (existing && !existing.isGuest) throw new AppError('EMAIL_ALREADY_REGISTERED');
    await recordAttempts(db, [[SIGNUPS_PER_ADDRESS, address]]);
    const passwordHash = await hashPassword(body.password);
    const plan = await billing.defaultPackage();
    try {
      const result = await db.transaction(async (tx) => {
        const { user, organizationId } = await createAccount(
          tx,
          { name: body.name, email: body.email, passwordHash },
          plan,
        );
        // The account works at once for its own workflows; what others address to this email waits for the link.
        await mailVerificationCode(tx, user);
        return { userId: user.id, organizationId };
      });
      outbox.notify();
      return result;
    } catch (error) {
      // Concurrent sign-ups with one email: the unique index decides, the losers are duplicates.
      if (isUniqueViolation(error)) throw new AppError('EMAIL_ALREADY_REGISTERED');
      throw error;
    }
  }

  /**
   * Marks the address of the code's account verified (RUNTIME.md "Accounts"); from then on the account reaches
   * the workflows others addressed to that email, a former guest's included. Reusing the code within its
   * lifetime answers the same; garbage, an unknown, replaced or expired code: 400 LINK_EXPIRED.
   */
  async function verifyEmail(code: string): Promise<{ verified: true }> {
    const user = isWellFormedVerificationCode(code)
      ? await verifyEmailByCode(db, hashEmailVerificationCode(code))
      : null;
    if (!user)
      throw new AppError(
        'LINK_EXPIRED',
        'The verification link is invalid, was replaced by a newer one, or has expired',
      );
    return { verified: true };
  }

  /**
   * Whether the code would verify, without using it: the page a browser gets from the mailed link asks the person to
   * confirm first, because mail scanners open every link (a scanner must not verify an address someone squatted).
   */
  async function verificationCodeIsLive(code: string): Promise<boolean> {
    return (
      isWellFormedVerificationCode(code) &&
      (await findUserByVerificationCode(db, hashEmailVerificationCode(code))) !== null
    );
  }

  /**
   * Mails a new verification link to the signed-in account's address (the earlier code stops working), at most
   * VERIFICATION_MAILS_PER_ACCOUNT.max times a day; an address already verified is not mailed.
   */
  async function resendVerification(caller: UserCaller): Promise<{ verified: boolean; mailed: boolean }> {
    const user = await findUserById(db, caller.userId);
    if (!user || user.isGuest) throw new AppError('UNAUTHORIZED', 'The account behind this token does not exist');
    if (user.emailVerifiedAt) return { verified: true, mailed: false };
    const subject = String(user.id);
    const retryAfterSeconds = await lockedForSeconds(db, VERIFICATION_MAILS_PER_ACCOUNT, subject);
    if (retryAfterSeconds !== null) {
      throw new AppError(
        'VERIFICATION_MAIL_LIMIT_REACHED',
        `${VERIFICATION_MAILS_PER_ACCOUNT.max} verification mails were sent within a day; try again in ${retryAfterSeconds} seconds`,
        { retryAfterSeconds },
        { retryAfterSeconds },
      );
    }
    await db.transaction(async (tx) => {
      await mailVerificationCode(tx, user);
      await recordAttempts(tx, [[VERIFICATION_MAILS_PER_ACCOUNT, subject]]);
    });
    outbox.notify();
    return { verified: false, mailed: true };
  }

  /** A new code for the user's address, stored as its digest, and its mail, in the caller's transaction. */
  async function mailVerificationCode(tx: Tx, user: UserRow): Promise<void> {
    const { code, codeHash, expiresAt } = newEmailVerificationCode();
    await setEmailVerificationCode(tx, user.id, codeHash, expiresAt);
    await outbox.enqueue(
      tx,
      emailVerificationMail({
        to: user.email,
        name: user.name,
        link: emailVerificationLink(publicUrl, code),
        expiresAt,
      }),
    );
  }

  /** `address` is the client's IP address, for the per-address limit. */
  async function signin(body: SigninBody, address: string): Promise<SigninResult> {
    switch (body.grant_type) {
      case 'PASSWORD':
      case 'G_AUTHENTICATOR': {
        const checked = await checkCredentials(body, address);
        if (checked.kind === 'totp-required') return checked;
        return { kind: 'session', session: await userSession(checked.user, body.rememberMe) };
      }
      case 'REFRESH_TOKEN': {
        const { refreshToken } = required(body, 'refreshToken');
        return { kind: 'session', session: await refresh(refreshToken) };
      }
      case 'CLIENT_CREDENTIALS': {
        const fields = required(body, 'client_id', 'client_secret', 'email');
        return { kind: 'session', session: await clientSession(fields.client_id, fields.client_secret, fields.email) };
      }
      case 'IDP_AUTH':
        // The routes hand IDP_AUTH to the SSO service (sso.service.ts), which knows the social provider.
        throw new AppError(
          'OPERATION_IS_NOT_ALLOWED',
          'IDP sign-in is not offered by this service (app settings sso.enableIdpAuth is false); use grant_type PASSWORD',
        );
    }
  }

  /**
   * The PASSWORD and G_AUTHENTICATOR checks, without issuing anything: the account, or "a TOTP code is needed".
   * Also what the service's own sign-in page checks before it hands out an authorization code.
   */
  async function checkCredentials(
    body: SigninBody,
    address: string,
  ): Promise<{ kind: 'user'; user: UserRow } | { kind: 'totp-required' }> {
    if (body.grant_type === 'PASSWORD') {
      const { username, password } = required(body, 'username', 'password');
      const subject = { email: username, address };
      const user = await checkPassword(subject, password);
      await assertStandingOf(user);
      if (user.twoFactorEnabled) return { kind: 'totp-required' };
      await limits.recordSuccess(subject);
      return { kind: 'user', user };
    }
    if (body.grant_type !== 'G_AUTHENTICATOR')
      throw new AppError('BAD_REQUEST_BODY', 'grant_type must be PASSWORD or G_AUTHENTICATOR');
    const { username, password, tOtp } = required(body, 'username', 'password', 'tOtp');
    const subject = { email: username, address };
    const user = await checkPassword(subject, password);
    if (!user.twoFactorEnabled || !user.totpSecret) {
      throw new AppError(
        'OPERATION_IS_NOT_ALLOWED',
        'Two-factor sign-in is not enabled for this account; use grant_type PASSWORD',
      );
    }
    const step = matchTotpStep(user.totpSecret, tOtp);
    const fresh = step !== null && (await consumeTotpStep(db, user.id, step));
    if (!fresh) {
      // A wrong code and a replayed one are both failed checks of the second factor.
      await limits.recordFailure(subject, user.id);
      throw new AppError(
        'INVALID_TOTP',
        step === null ? undefined : 'This code was already used; wait for the next one',
      );
    }
    await limits.recordSuccess(subject);
    await assertStandingOf(user);
    return { kind: 'user', user };
  }

  /**
   * Told only to whoever gave the right password: a disabled account (or its organization) is refused before the
   * own sign-in page hands out an authorization code, not only when the session would be issued.
   */
  async function assertStandingOf(user: UserRow): Promise<void> {
    await assertSessionStanding(db, {
      userId: user.id,
      type: 'USER',
      claims: { organizationId: user.organizationId ?? undefined },
    });
  }

  /** Same rotation rules whether the token came in the REFRESH_TOKEN grant or the refresh-session header. */
  async function refresh(refreshToken: string): Promise<SessionTokens> {
    return rotateSession(db, tokens, refreshToken, assertSubjectStillValid);
  }

  /**
   * A USER sign-out ends every USER session of the account (all devices); a CLIENT sign-out ends that
   * business app's sessions for the user. `refreshToken`, when it is the caller's, has its family revoked too.
   */
  async function signout(caller: UserCaller, refreshToken: string | undefined): Promise<{ logoutUrl: string }> {
    await db.transaction(async (tx) => {
      await revokeUserSessions(
        tx,
        caller.userId,
        caller.appId === undefined ? { type: 'USER' } : { type: 'CLIENT', appId: caller.appId },
      );
      if (refreshToken) await revokeFamilyOfToken(tx, caller.userId, refreshToken);
    });
    return { logoutUrl: `${publicUrl}/` };
  }

  /**
   * Unknown email, guest (no password) and wrong password give the same answer after the same work, and count
   * alike against the sign-in limits; while the account or the address is locked nothing is checked.
   */
  async function checkPassword(subject: CheckSubject, password: string): Promise<UserRow> {
    await limits.assertNotLocked(subject);
    const user = await findUserByEmail(db, subject.email);
    if (!user || user.isGuest || !user.passwordHash || user.organizationId === null) {
      await verifyPassword(await dummyHash, password);
      await limits.recordFailure(subject, null);
      throw new AppError('INVALID_CREDENTIALS');
    }
    if (!(await verifyPassword(user.passwordHash, password))) {
      await limits.recordFailure(subject, user.id);
      throw new AppError('INVALID_CREDENTIALS');
    }
    return user;
  }

  /** Ends one session (a refresh family) of the user: what a web session's sign-out revokes. */
  async function endSession(userId: number, refreshToken: string): Promise<void> {
    await revokeFamilyOfToken(db, userId, refreshToken);
  }

  function userSession(user: UserRow, rememberMe: boolean | undefined): Promise<SessionTokens> {
    return issueSession(db, tokens, {
      userId: user.id,
      type: 'USER',
      claims: { organizationId: user.organizationId! },
      rememberMe: rememberMe ?? false,
    });
  }

  async function clientSession(clientId: string, clientSecret: string, email: string): Promise<SessionTokens> {
    const app = await findBusinessAppByClientId(db, clientId);
    if (!app) {
      hashClientSecret(clientSecret);
      throw new AppError('INVALID_CLIENT');
    }
    if (!clientSecretMatches(clientSecret, app.secretHash)) throw new AppError('INVALID_CLIENT');
    if (!app.status) throw new AppError('INVALID_CLIENT', 'The business app is disabled');
    const user = await findUserByEmail(db, email);
    if (!user || user.isGuest || !(await isActiveMember(db, app.organizationId, user.id))) {
      throw new AppError(
        'INVALID_CLIENT',
        "The user named by email is not a member of the business app's organization",
      );
    }
    return issueSession(db, tokens, {
      userId: user.id,
      type: 'CLIENT',
      claims: { organizationId: app.organizationId, appId: app.id },
    });
  }

  /**
   * A refresh must not outlive what the session was granted on: the account; for USER its organization; for
   * CLIENT the business app and the membership; for GUEST the recipient row (not delegated away) and its
   * workflow (not deleted, not VOID). The signing link's expiry already bounds the guest session's end.
   */
  async function assertSubjectStillValid(subject: SessionSubject): Promise<void> {
    const user = await findUserById(db, subject.userId);
    if (!user) throw new AppError('INVALID_REFRESH_TOKEN', 'The account of this session no longer exists');
    if (subject.type === 'GUEST') {
      const { recipientId, workflowId } = subject.claims;
      const target =
        recipientId === undefined || workflowId === undefined
          ? null
          : await findGuestSessionTarget(db, workflowId, recipientId);
      if (
        !target ||
        target.workflow.deletedAt ||
        target.workflow.status === 'VOID' ||
        target.recipient.status === 'DELEGATED' ||
        target.recipient.userId !== subject.userId
      ) {
        throw new AppError(
          'INVALID_REFRESH_TOKEN',
          'The signing session ended: the workflow was voided or deleted, or the task was delegated',
        );
      }
    }
    if (subject.type === 'USER' && (user.isGuest || user.organizationId !== subject.claims.organizationId)) {
      throw new AppError('INVALID_REFRESH_TOKEN', "The account's organization changed; sign in again");
    }
    if (subject.type === 'CLIENT') {
      const app = subject.claims.appId === undefined ? null : await findBusinessAppById(db, subject.claims.appId);
      if (!app?.status || user.isGuest || !(await isActiveMember(db, app.organizationId, user.id))) {
        throw new AppError('INVALID_REFRESH_TOKEN', 'The business app is disabled or the user left its organization');
      }
    }
  }
}

/** The grant's fields, or 400 BAD_REQUEST_BODY naming the first one missing. */
function required<K extends keyof SigninBody>(
  body: SigninBody,
  ...keys: K[]
): { [P in K]-?: NonNullable<SigninBody[P]> } {
  for (const key of keys) {
    if (body[key] === undefined || body[key] === null)
      throw new AppError('BAD_REQUEST_BODY', `${key} is required with grant_type ${body.grant_type}`);
  }
  return body as unknown as { [P in K]-?: NonNullable<SigninBody[P]> };
}

export type AuthService = ReturnType<typeof createAuthService>;
