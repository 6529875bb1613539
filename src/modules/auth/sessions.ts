import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { refreshTokens } from '../../platform/db/schema/index.ts';
import type { TokenSigner, TokenType } from '../../platform/auth/jwt.ts';
import { AppError } from '../../errors.ts';

/** Access tokens live 15 minutes; clients refresh before expiry (SPEC.md). */
export const ACCESS_TOKEN_SECONDS = 15 * 60;
const REFRESH_SECONDS = { short: 24 * 3600, rememberMe: 30 * 24 * 3600 };

export type SessionTokens = {
  accessToken: string;
  tokenType: 'Bearer';
  /** Seconds until the access token expires. */
  expiry: number;
  refreshToken: string;
  rememberMe: boolean;
};

export type SessionSubject = {
  userId: number;
  type: TokenType;
  /** USER / CLIENT: organization; GUEST: recipientId + workflowId; CLIENT: appId. */
  claims: { organizationId?: number; recipientId?: number; workflowId?: number; appId?: number };
  rememberMe?: boolean;
};

export function hashRefreshToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Signs an access token and stores a new refresh token (hashed) starting a new family. */
export async function issueSession(db: DbOrTx, tokens: TokenSigner, subject: SessionSubject, familyId: string = crypto.randomUUID()): Promise<SessionTokens> {
  const rememberMe = subject.rememberMe ?? false;
  const refreshToken = crypto.randomBytes(32).toString('base64url');
  await db.insert(refreshTokens).values({
    userId: subject.userId,
    familyId,
    tokenHash: hashRefreshToken(refreshToken),
    tokenType: subject.type,
    claims: subject.claims,
    rememberMe,
    expiresAt: new Date(Date.now() + (rememberMe ? REFRESH_SECONDS.rememberMe : REFRESH_SECONDS.short) * 1000),
  });
  const accessToken = await tokens.sign({ sub: String(subject.userId), type: subject.type, ...subject.claims }, ACCESS_TOKEN_SECONDS);
  return { accessToken, tokenType: 'Bearer', expiry: ACCESS_TOKEN_SECONDS, refreshToken, rememberMe };
}

/**
 * Exchanges a refresh token for a new pair. A token that was already rotated is a replay (stolen token or
 * a client bug): the whole family is revoked and the caller gets 401.
 */
export async function rotateSession(db: DbOrTx, tokens: TokenSigner, refreshToken: string): Promise<SessionTokens> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, hashRefreshToken(refreshToken))).for('update');
  if (!row || row.revokedAt || row.expiresAt.getTime() <= Date.now()) throw new AppError('INVALID_REFRESH_TOKEN');
  if (row.rotatedAt) {
    await revokeFamily(db, row.familyId);
    throw new AppError('INVALID_REFRESH_TOKEN', 'Refresh token was already used; the session has been revoked');
  }
  const [claimed] = await db.update(refreshTokens).set({ rotatedAt: new Date() })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.rotatedAt))).returning();
  if (!claimed) {
    await revokeFamily(db, row.familyId);
    throw new AppError('INVALID_REFRESH_TOKEN', 'Refresh token was already used; the session has been revoked');
  }
  return issueSession(db, tokens, {
    userId: row.userId,
    type: row.tokenType as TokenType,
    claims: (row.claims ?? {}) as SessionSubject['claims'],
    rememberMe: row.rememberMe,
  }, row.familyId);
}

export async function revokeFamily(db: DbOrTx, familyId: string): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: new Date() }).where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Sign-out: every refresh token of the user is invalidated. */
export async function revokeAllForUser(db: DbOrTx, userId: number): Promise<void> {
  await db.update(refreshTokens).set({ revokedAt: new Date() }).where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
