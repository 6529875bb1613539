import crypto from 'node:crypto';
import type { DbOrTx } from '../../platform/db/client.ts';
import {
  claimRefreshToken,
  findFamilyOfToken,
  findRefreshToken,
  insertRefreshToken,
  revokeFamily,
} from './sessions.repo.ts';
import type { TokenSigner, TokenType } from '../../platform/auth/jwt.ts';
import { AppError } from '../../errors.ts';
import { assertSessionStanding } from './account-standing.ts';

/** Access tokens live 15 minutes; clients refresh before expiry (SPEC.md). */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
/** Refresh-token lifetime: one day, or 30 days when the user chose "remember me". */
export const REFRESH_SECONDS = { short: 24 * 3600, rememberMe: 30 * 24 * 3600 } as const;
/**
 * Absolute lifetime of a session (one refresh family, from sign-in): rotation never moves it, so a stolen or
 * forgotten session ends on its own. 30 days with "remember me", 12 hours (a working day) without; guest and
 * business-app sessions have no "remember me". A guest session also ends with its signing link (`notAfter`).
 */
export const SESSION_SECONDS = { short: 12 * 3600, rememberMe: 30 * 24 * 3600 } as const;

export type SessionTokens = {
  accessToken: string;
  tokenType: 'Bearer';
  /** Seconds until the access token expires. */
  expiry: number;
  refreshToken: string;
  rememberMe: boolean;
};

export type SessionClaims = { organizationId?: number; recipientId?: number; workflowId?: number; appId?: number };

export type SessionSubject = {
  userId: number;
  type: TokenType;
  /** USER / CLIENT: organization; GUEST: recipientId + workflowId; CLIENT: appId. */
  claims: SessionClaims;
  rememberMe?: boolean;
  /** A new session ends no later than this (a guest session: its signing link's expiry). */
  notAfter?: Date;
};

export function hashRefreshToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** The family a rotated token continues: its id and its fixed end. */
type Family = { familyId: string; sessionExpiresAt: Date };

/**
 * Signs an access token and stores a new refresh token (hashed), starting a new family unless `family` is
 * given (rotation). Neither token outlives the family's end: the access token's lifetime is cut to it too.
 */
export async function issueSession(
  db: DbOrTx,
  tokens: TokenSigner,
  subject: SessionSubject,
  family?: Family,
): Promise<SessionTokens> {
  // Every sign-in and every refresh passes here: the operator's switches are honoured before anything is issued.
  await assertSessionStanding(db, subject);
  const rememberMe = subject.rememberMe ?? false;
  const now = Date.now();
  const sessionExpiresAt =
    family?.sessionExpiresAt ??
    new Date(
      Math.min(
        now + (rememberMe ? SESSION_SECONDS.rememberMe : SESSION_SECONDS.short) * 1000,
        subject.notAfter?.getTime() ?? Infinity,
      ),
    );
  const secondsLeft = Math.floor((sessionExpiresAt.getTime() - now) / 1000);
  if (secondsLeft <= 0) throw new AppError('INVALID_REFRESH_TOKEN', 'The session has ended; sign in again');
  const refreshToken = crypto.randomBytes(32).toString('base64url');
  const familyId = family?.familyId ?? crypto.randomUUID();
  await insertRefreshToken(db, {
    userId: subject.userId,
    familyId,
    tokenHash: hashRefreshToken(refreshToken),
    tokenType: subject.type,
    claims: subject.claims,
    rememberMe,
    expiresAt: new Date(
      Math.min(
        now + (rememberMe ? REFRESH_SECONDS.rememberMe : REFRESH_SECONDS.short) * 1000,
        sessionExpiresAt.getTime(),
      ),
    ),
    sessionExpiresAt,
  });
  const expiry = Math.min(ACCESS_TOKEN_SECONDS, secondsLeft);
  // sid: what is verified for this session (a recipient password) holds for every token of the family, and only for it.
  const accessToken = await tokens.sign(
    { sub: String(subject.userId), type: subject.type, ...subject.claims, sid: familyId },
    expiry,
  );
  return { accessToken, tokenType: 'Bearer', expiry, refreshToken, rememberMe };
}

const REUSED = 'Refresh token was already used; the session has been revoked';

/**
 * Exchanges a refresh token for a new pair in the same family. A token that was already rotated is a replay
 * (stolen token or a client bug): the whole family is revoked and the caller gets 401.
 *
 * `check` re-validates the subject before anything is issued (e.g. the user still exists, the business app is
 * still enabled); it throws to refuse. Pass the database, not an open transaction: the family revocation
 * must survive the error that follows it.
 */
export async function rotateSession(
  db: DbOrTx,
  tokens: TokenSigner,
  refreshToken: string,
  check?: (subject: SessionSubject) => Promise<void>,
): Promise<SessionTokens> {
  const row = await findRefreshToken(db, hashRefreshToken(refreshToken));
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now() || row.sessionExpiresAt.getTime() <= Date.now())
    throw new AppError('INVALID_REFRESH_TOKEN');
  if (row.rotatedAt) {
    await revokeFamily(db, row.familyId);
    throw new AppError('INVALID_REFRESH_TOKEN', REUSED);
  }
  const subject: SessionSubject = {
    userId: row.userId,
    type: row.tokenType as TokenType,
    claims: (row.claims ?? {}) as SessionClaims,
    rememberMe: row.rememberMe,
  };
  await check?.(subject);
  const rotated = await db.transaction(async (tx) => {
    // Only one of two concurrent rotations of the same token can claim it.
    if (!(await claimRefreshToken(tx, row.id))) return null;
    return issueSession(tx, tokens, subject, { familyId: row.familyId, sessionExpiresAt: row.sessionExpiresAt });
  });
  if (rotated) return rotated;
  await revokeFamily(db, row.familyId);
  throw new AppError('INVALID_REFRESH_TOKEN', REUSED);
}

export async function revokeFamilyOfToken(db: DbOrTx, userId: number, refreshToken: string): Promise<void> {
  const familyId = await findFamilyOfToken(db, userId, hashRefreshToken(refreshToken));
  if (familyId) await revokeFamily(db, familyId);
}

export { revokeAllForUser, revokeBusinessAppSessions, revokeFamily, revokeUserSessions } from './sessions.repo.ts';
