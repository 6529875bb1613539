import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { refreshTokens } from '../../platform/db/schema/index.ts';
import type { TokenType } from '../../platform/auth/jwt.ts';

/** The refresh-token store (one row per issued refresh token, grouped in families = sessions). */
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type NewRefreshToken = typeof refreshTokens.$inferInsert;

export async function insertRefreshToken(db: DbOrTx, values: NewRefreshToken): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

export async function findRefreshToken(db: DbOrTx, tokenHash: string): Promise<RefreshTokenRow | null> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row ?? null;
}

/** Marks a token used; false when another rotation (or a revocation) got there first. */
export async function claimRefreshToken(db: DbOrTx, id: number): Promise<boolean> {
  const [claimed] = await db
    .update(refreshTokens)
    .set({ rotatedAt: new Date() })
    .where(and(eq(refreshTokens.id, id), isNull(refreshTokens.rotatedAt), isNull(refreshTokens.revokedAt)))
    .returning();
  return Boolean(claimed);
}

export async function findFamilyOfToken(db: DbOrTx, userId: number, tokenHash: string): Promise<string | null> {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tokenHash, tokenHash), eq(refreshTokens.userId, userId)));
  return row?.familyId ?? null;
}

export async function revokeFamily(db: DbOrTx, familyId: string): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Revokes the family `refreshToken` belongs to, if that token is `userId`'s; anyone else's token is left alone. */
/** Every refresh token of the user, of every kind (account removal, password change). */
export async function revokeAllForUser(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}

/**
 * Sign-out: the user's refresh tokens of one kind. A CLIENT sign-out is narrowed to one business app, so a
 * partner ending its session does not end the user's own, and the other way round.
 */
export async function revokeUserSessions(
  db: DbOrTx,
  userId: number,
  filter: { type: TokenType; appId?: number },
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        eq(refreshTokens.tokenType, filter.type),
        filter.appId === undefined ? undefined : sql`(${refreshTokens.claims} ->> 'appId')::int = ${filter.appId}`,
        isNull(refreshTokens.revokedAt),
      ),
    );
}

/**
 * Every session of one business app, whoever it acts for: disabling the app or rotating its client secret ends
 * them, so re-enabling it later does not revive refresh tokens issued before.
 */
export async function revokeBusinessAppSessions(db: DbOrTx, appId: number): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(refreshTokens.tokenType, 'CLIENT'),
        sql`(${refreshTokens.claims} ->> 'appId')::int = ${appId}`,
        isNull(refreshTokens.revokedAt),
      ),
    );
}
