import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { organizations, users, webSessions } from '../../platform/db/schema/index.ts';

export type WebSessionRow = typeof webSessions.$inferSelect;
export type NewWebSession = typeof webSessions.$inferInsert;

export async function insertWebSession(db: DbOrTx, session: NewWebSession): Promise<WebSessionRow> {
  const [row] = await db.insert(webSessions).values(session).returning();
  return row;
}

export async function findWebSession(db: DbOrTx, cookieHash: string): Promise<WebSessionRow | null> {
  const [row] = await db.select().from(webSessions).where(eq(webSessions.cookieHash, cookieHash));
  return row ?? null;
}

/** The session with the account it signs in (GET /bff/auth/me). */
export async function findWebSessionWithUser(db: DbOrTx, cookieHash: string) {
  const [row] = await db
    .select({
      session: webSessions,
      user: { id: users.id, email: users.email, name: users.name, organizationId: users.organizationId },
      userDisabledAt: users.disabledAt,
      organizationDisabledAt: organizations.disabledAt,
    })
    .from(webSessions)
    .innerJoin(users, eq(users.id, webSessions.userId))
    .leftJoin(organizations, eq(organizations.id, users.organizationId))
    .where(eq(webSessions.cookieHash, cookieHash));
  return row ?? null;
}

/**
 * Claims the right to refresh generation `generation` of the session for `seconds`: at most one request of
 * any instance rotates a refresh token at a time (a second rotation of the same token would be taken for a
 * replay and revoke the session). False: someone else holds the claim, or the generation moved on.
 */
export async function claimRefresh(
  db: DbOrTx,
  id: number,
  generation: number,
  seconds: number,
  now = new Date(),
): Promise<boolean> {
  const rows = await db
    .update(webSessions)
    .set({ refreshingUntil: new Date(now.getTime() + seconds * 1000) })
    .where(
      and(
        eq(webSessions.id, id),
        eq(webSessions.generation, generation),
        isNull(webSessions.endedAt),
        or(isNull(webSessions.refreshingUntil), lt(webSessions.refreshingUntil, now)),
      ),
    )
    .returning({ id: webSessions.id });
  return rows.length === 1;
}

export async function storeRefreshedTokens(
  db: DbOrTx,
  id: number,
  generation: number,
  tokens: { accessToken: string; accessExpiresAt: Date; refreshToken: string },
): Promise<void> {
  await db
    .update(webSessions)
    .set({ ...tokens, generation: sql`${webSessions.generation} + 1`, refreshingUntil: null })
    .where(and(eq(webSessions.id, id), eq(webSessions.generation, generation)));
}

export async function releaseRefreshClaim(db: DbOrTx, id: number): Promise<void> {
  await db.update(webSessions).set({ refreshingUntil: null }).where(eq(webSessions.id, id));
}

/** Ends the session once (the first reason stays) and forgets its tokens; answers the row as it was, or null when it had already ended. */
export async function endWebSession(db: DbOrTx, id: number, reason: string): Promise<WebSessionRow | null> {
  const [before] = await db
    .select()
    .from(webSessions)
    .where(and(eq(webSessions.id, id), isNull(webSessions.endedAt)));
  if (!before) return null;
  const rows = await db
    .update(webSessions)
    .set({
      endedAt: new Date(),
      endReason: reason,
      accessToken: '',
      refreshToken: '',
      idToken: null,
      refreshingUntil: null,
    })
    .where(and(eq(webSessions.id, id), isNull(webSessions.endedAt)))
    .returning({ id: webSessions.id });
  return rows.length === 1 ? before : null;
}

/** Sessions ended or past their end for more than a day: kept that long so a late request still hears SESSION_EXPIRED. */
export async function deleteStaleWebSessions(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(webSessions).where(or(lt(webSessions.expiresAt, before), lt(webSessions.endedAt, before)));
}
