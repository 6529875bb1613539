import crypto from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { authChallenges } from '../db/schema/index.ts';
import { CHALLENGES_PER_ADDRESS, lockedForSeconds, recordAttempts } from '../limits/attempts.ts';

/**
 * Single-use sign-in challenges (passkey registration and login, smart-card hashes), kept in the database so
 * that the instance answering the second call need not be the one that answered the first.
 */
export type ChallengePurpose = 'PASSKEY_REGISTRATION' | 'PASSKEY_LOGIN' | 'SMART_CARD';
export type ChallengeRow = typeof authChallenges.$inferSelect;

/** Expired challenges are kept this long before they are deleted (a late answer still reads as expired, not unknown). */
const KEEP_EXPIRED_MS = 60 * 60 * 1000;

export async function storeChallenge(
  db: DbOrTx,
  challenge: {
    purpose: ChallengePurpose;
    challenge: string;
    userId: number | null;
    data?: unknown;
    lifetimeSeconds: number;
  },
  now = new Date(),
): Promise<ChallengeRow> {
  await db.delete(authChallenges).where(lt(authChallenges.expiresAt, new Date(now.getTime() - KEEP_EXPIRED_MS)));
  const [row] = await db
    .insert(authChallenges)
    .values({
      id: crypto.randomUUID(),
      purpose: challenge.purpose,
      challenge: challenge.challenge,
      userId: challenge.userId,
      data: challenge.data ?? null,
      expiresAt: new Date(now.getTime() + challenge.lifetimeSeconds * 1000),
    })
    .returning();
  return row;
}

/**
 * Uses up a challenge: the row, if it exists with this purpose, is unexpired and was never used; null otherwise.
 * One conditional UPDATE, so of two requests racing with one answer only one gets the row.
 */
export async function consumeChallenge(
  db: DbOrTx,
  purpose: ChallengePurpose,
  key: { id: string } | { challenge: string },
  now = new Date(),
): Promise<ChallengeRow | null> {
  const match = 'id' in key ? eq(authChallenges.id, key.id) : eq(authChallenges.challenge, key.challenge);
  const [row] = await db
    .update(authChallenges)
    .set({ usedAt: now })
    .where(
      and(match, eq(authChallenges.purpose, purpose), isNull(authChallenges.usedAt), gt(authChallenges.expiresAt, now)),
    )
    .returning();
  return row ?? null;
}

/** Counts one challenge against the address; when the address has used up its allowance, counts nothing and returns the seconds to wait. */
export async function takeChallengeAllowance(db: DbOrTx, address: string): Promise<number | null> {
  const seconds = await lockedForSeconds(db, CHALLENGES_PER_ADDRESS, address);
  if (seconds !== null) return seconds;
  await recordAttempts(db, [[CHALLENGES_PER_ADDRESS, address]]);
  return null;
}
