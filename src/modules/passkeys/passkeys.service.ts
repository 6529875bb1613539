import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { TokenSigner } from '../../platform/auth/jwt.ts';
import { consumeChallenge, storeChallenge, takeChallengeAllowance } from '../../platform/auth/challenges.ts';
import type { Db } from '../../platform/db/client.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import { issueSession, type SessionTokens } from '../auth/sessions.ts';
import { createSigninLimits } from '../auth/signin-limits.ts';
import { findRegisteredUser, findSignInAccount } from '../users/accounts.ts';
import { isUniqueViolation } from '../../platform/db/errors.ts';
import {
  advanceCounter,
  countPasskeys,
  deletePasskey,
  findPasskeyOfUser,
  findPasskeysOfUser,
  insertPasskey,
  lockUser,
  type PasskeyRow,
} from './passkeys.repo.ts';
import type { AssertionBody, RegistrationBody } from './passkeys.schemas.ts';

/**
 * @simplewebauthn/server is loaded on the first passkey call: ~5 MB of heap (measured) that every garbage collection of
 * a process that never sees a passkey would otherwise mark.
 */
const webauthn = () => import('@simplewebauthn/server');

/** A challenge (registration or login) is answered within 5 minutes, once. */
export const PASSKEY_CHALLENGE_SECONDS = 5 * 60;
/** Passkeys one account may hold. */
export const MAX_PASSKEYS = 20;

type Deps = { db: Db; tokens: TokenSigner; outbox: Outbox; rpId: string; origin: string; rpName: string };

/**
 * Passkeys (WebAuthn): registration by a signed-in user in settings, and sign-in with one (RUNTIME.md
 * "Passkey registration"; SPEC.md "Passkey"). User verification is required both times: the passkey is the
 * whole sign-in, so the authenticator must have checked its user (PIN, biometrics), and an account with
 * two-factor sign-in is not asked for its TOTP code on top.
 */
export function createPasskeyService({ db, tokens, outbox, rpId, origin, rpName }: Deps) {
  const limits = createSigninLimits({ db, outbox });
  return { registrationOptions, register, list, remove, loginOptions, login };

  async function registrationOptions(caller: UserCaller) {
    assertOwnSession(caller);
    const user = await findAccount(caller);
    const existing = await findPasskeysOfUser(db, user.id);
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName,
      rpID: rpId,
      userName: user.email,
      userDisplayName: user.name,
      // A stable handle per account, so a second registration on one authenticator replaces its discoverable credential.
      userID: new TextEncoder().encode(`user-${user.id}`),
      timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({
        id: p.credentialId,
        transports: p.transports as AuthenticatorTransport[],
      })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    });
    await storeChallenge(db, {
      purpose: 'PASSKEY_REGISTRATION',
      challenge: options.challenge,
      userId: user.id,
      lifetimeSeconds: PASSKEY_CHALLENGE_SECONDS,
    });
    return options;
  }

  async function register(caller: UserCaller, body: RegistrationBody): Promise<PasskeyRow> {
    assertOwnSession(caller);
    const user = await findAccount(caller);
    const challenge = challengeOf(body.response.clientDataJSON);
    const stored = challenge === null ? null : await consumeChallenge(db, 'PASSKEY_REGISTRATION', { challenge });
    if (!stored || stored.userId !== user.id) {
      throw new AppError(
        'PASSKEY_REGISTRATION_FAILED',
        'The challenge is unknown, expired, already used or not yours: ask for new options',
      );
    }
    const { name, ...response } = body;
    let verification;
    try {
      verification = await (await webauthn()).verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: stored.challenge,
        expectedOrigin: origin,
        expectedRPID: rpId,
        requireUserVerification: true,
      });
    } catch (error) {
      throw new AppError('PASSKEY_REGISTRATION_FAILED', (error as Error).message);
    }
    if (!verification.verified) throw new AppError('PASSKEY_REGISTRATION_FAILED');
    const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
    try {
      return await db.transaction(async (tx) => {
        await lockUser(tx, user.id);
        const held = await countPasskeys(tx, user.id);
        if (held >= MAX_PASSKEYS)
          throw new AppError(
            'PASSKEY_LIMIT_REACHED',
            `An account holds at most ${MAX_PASSKEYS} passkeys; delete one first`,
          );
        return insertPasskey(tx, {
          userId: user.id,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? body.response.transports ?? [],
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
          name: name?.trim() || `Passkey ${held + 1}`,
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('PASSKEY_ALREADY_REGISTERED');
      throw error;
    }
  }

  async function list(caller: UserCaller): Promise<PasskeyRow[]> {
    return findPasskeysOfUser(db, caller.userId);
  }

  async function remove(caller: UserCaller, id: number): Promise<void> {
    assertOwnSession(caller);
    if (!(await deletePasskey(db, caller.userId, id))) throw new AppError('NOT_FOUND', 'Passkey not found');
  }

  /**
   * Request options for `username`. An unknown user, or one without passkeys, gets options with no credential
   * to offer (and a challenge that can never succeed) rather than an error.
   */
  async function loginOptions(username: string, address: string) {
    const retryAfter = await takeChallengeAllowance(db, address);
    if (retryAfter !== null) {
      throw new AppError(
        'CHALLENGE_RATE_LIMITED',
        `Too many sign-in challenges from this address; try again in ${retryAfter} seconds`,
        { retryAfterSeconds: retryAfter },
        { retryAfterSeconds: retryAfter },
      );
    }
    const user = await findSignInAccount(db, username);
    const held = user ? await findPasskeysOfUser(db, user.id) : [];
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID: rpId,
      timeout: PASSKEY_CHALLENGE_SECONDS * 1000,
      userVerification: 'required',
      allowCredentials: held.map((p) => ({ id: p.credentialId, transports: p.transports as AuthenticatorTransport[] })),
    });
    await storeChallenge(db, {
      purpose: 'PASSKEY_LOGIN',
      challenge: options.challenge,
      userId: user?.id ?? null,
      lifetimeSeconds: PASSKEY_CHALLENGE_SECONDS,
    });
    return {
      ...options,
      rpId,
      allowCredentials: options.allowCredentials ?? [],
      userVerification: options.userVerification ?? 'required',
    };
  }

  /**
   * Verifies an assertion for `username` and signs the account in. Every failure (unknown user or credential,
   * wrong origin or RP id, a challenge not issued for this user, expired or already used, a bad signature, a
   * counter that did not move forward) is 401 PASSKEY_REJECTED and counts against the sign-in limits of the
   * account and the address, which lock this route like password sign-in.
   */
  async function login(
    username: string,
    assertion: AssertionBody,
    address: string,
    rememberMe: boolean,
  ): Promise<SessionTokens> {
    const subject = { email: username, address };
    await limits.assertNotLocked(subject);
    const user = await findSignInAccount(db, username);
    const reject = async (reason: string): Promise<never> => {
      await limits.recordFailure(subject, user?.id ?? null);
      throw new AppError('PASSKEY_REJECTED', reason);
    };
    const challenge = challengeOf(assertion.response.clientDataJSON);
    // Used up even when the rest fails: an answer to a challenge is tried once.
    const stored = challenge === null ? null : await consumeChallenge(db, 'PASSKEY_LOGIN', { challenge });
    if (!stored) return reject('The challenge is unknown, expired or already used: ask for new options');
    if (!user || stored.userId !== user.id) return reject('The challenge was not issued for this username');
    const passkey = await findPasskeyOfUser(db, user.id, assertion.id);
    if (!passkey) return reject('This passkey is not registered to the account');
    let verification;
    try {
      verification = await (await webauthn()).verifyAuthenticationResponse({
        response: assertion as AuthenticationResponseJSON,
        expectedChallenge: stored.challenge,
        expectedOrigin: origin,
        expectedRPID: rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports as AuthenticatorTransport[],
        },
        requireUserVerification: true,
      });
    } catch (error) {
      return reject((error as Error).message);
    }
    if (!verification.verified) return reject('The assertion signature does not verify');
    if (!(await advanceCounter(db, passkey.id, passkey.counter, verification.authenticationInfo.newCounter))) {
      return reject('The signature counter did not move forward: the passkey may have been cloned');
    }
    await limits.recordSuccess(subject);
    return issueSession(db, tokens, {
      userId: user.id,
      type: 'USER',
      claims: { organizationId: user.organizationId },
      rememberMe,
    });
  }

  async function findAccount(caller: UserCaller) {
    const user = await findRegisteredUser(db, caller.userId);
    if (!user) throw new AppError('UNAUTHORIZED', 'The account behind this token does not exist');
    return user;
  }
}

/** The challenge inside a base64url clientDataJSON, or null when it is not such a document. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length > 0 && parsed.challenge.length <= 512
      ? parsed.challenge
      : null;
  } catch {
    return null;
  }
}

/** A business app's (CLIENT) token acts for the user but may not change or list how the user signs in. */
function assertOwnSession(caller: UserCaller): void {
  if (caller.appId !== undefined)
    throw new AppError('USER_NOT_HAVE_ACCESS', "Passkeys need the user's own sign-in, not a business app token");
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;
