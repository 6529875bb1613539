import crypto from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { refreshTokens } from '../../platform/db/schema/index.ts';
import type { TokenSigner, TokenType } from '../../platform/auth/jwt.ts';
import { AppError } from '../../errors.ts';

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
export async function issueSession(db: DbOrTx, tokens: TokenSigner, subject: SessionSubject, family?: Family): Promise<SessionTokens> {
  const rememberMe = subject.rememberMe ?? false;
  const now = Date.now();
  const sessionExpiresAt = family?.sessionExpiresAt ?? new Date(Math.min(
    now + (rememberMe ? SESSION_SECONDS.rememberMe : SESSION_SECONDS.short) * 1000,
    subject.notAfter?.getTime() ?? Infinity,
  ));
  const secondsLeft = Math.floor((sessionExpiresAt.getTime() - now) / 1000);
  if (secondsLeft <= 0) throw new AppError('INVALID_REFRESH_TOKEN', 'The session has ended; sign in again');
  const refreshToken = crypto.randomBytes(32).toString('base64url');
  const familyId = family?.familyId ?? crypto.randomUUID();
  await db.insert(refreshTokens).values({
    userId: subject.userId,
    familyId,
    tokenHash: hashRefreshToken(refreshToken),
    tokenType: subject.type,
    claims: subject.claims,
    rememberMe,
    expiresAt: new Date(Math.min(now + (rememberMe ? REFRESH_SECONDS.rememberMe : REFRESH_SECONDS.short) * 1000, sessionExpiresAt.getTime())),
    sessionExpiresAt,
  });
  const expiry = Math.min(ACCESS_TOKEN_SECONDS, secondsLeft);
  // sid: what is verified for this session (a recipient password) holds for every token of the family, and only for it.
  const accessToken = await tokens.sign({ sub: String(subject.userId), type: subject.type, ...subject.claims, sid: familyId }, expiry);
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
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashRefreshToken(refreshToken)));
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now() || row.sessionExpiresAt.getTime() <= Date.now()) throw new AppError('INVALID_REFRESH_TOKEN');
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
    const [claimed] = await tx.update(refreshTokens).set({ rotatedAt: new Date() })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt))).returning();
    if (!claimed) return null;
    return issueSession(tx, tokens, subject, { familyId: row.familyId, sessionExpiresAt: row.sessionExpiresAt });
  });
  if (rotated) return rotated;
  await revokeFamily(db, row.familyId);
  throw new AppError('INVALID_REFRESH_TOKEN', REUSED);
}

export async function revokeFamily(db: DbOrTx, familyId: string): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: new Date() }).where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes the family `refreshToken` belongs to, if that token is `userId`'s; anyone else's token is left alone. */
export async function revokeFamilyOfToken(db: DbOrTx, userId: number, refreshToken: string): Promise<void> {
  const [row] = await db.select({ familyId: refreshTokens.familyId }).from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, hashRefreshToken(refreshToken)), eq(refreshTokens.userId, userId)));
  if (row) await revokeFamily(db, row.familyId);
}

/** Every refresh token of the user, of every kind (account removal, password change). */
export async function revokeAllForUser(db: DbOrTx, userId: number): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: new Date() }).where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/**
 * Sign-out: the user's refresh tokens of one kind. A CLIENT sign-out is narrowed to one business app, so a
 * partner ending its session does not end the user's own, and the other way round.
 */
export async function revokeUserSessions(db: DbOrTx, userId: number, filter: { type: TokenType; appId?: number }): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: new Date() }).where(and(
    eq(refreshTokens.userId, userId),
    eq(refreshTokens.tokenType, filter.type),
    filter.appId === undefined ? undefined : sql`(${refreshTokens.claims} ->> 'appId')::int = ${filter.appId}`,
    isNull(refreshTokens.revokedAt),
  ));
}
