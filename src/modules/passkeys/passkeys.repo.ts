import { and, asc, count, eq, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { passkeys, users } from '../../platform/db/schema/index.ts';

export type PasskeyRow = typeof passkeys.$inferSelect;
export type NewPasskey = typeof passkeys.$inferInsert;

export async function findPasskeysOfUser(db: DbOrTx, userId: number): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.userId, userId)).orderBy(asc(passkeys.id));
}

export async function findPasskeyOfUser(db: DbOrTx, userId: number, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.credentialId, credentialId)));
  return row ?? null;
}

export async function countPasskeys(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
  return row.n;
}

/** Serialises one user's passkey registrations (the count check and the insert). */
export async function lockUser(db: DbOrTx, userId: number): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

export async function insertPasskey(db: DbOrTx, values: NewPasskey): Promise<PasskeyRow> {
  const [row] = await db.insert(passkeys).values(values).returning();
  return row;
}

export async function deletePasskey(db: DbOrTx, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}

/**
 * Stores the counter of an accepted assertion, only if it moved forward from the stored one (or both are 0:
 * an authenticator that keeps no counter). False: another sign-in with this credential got there first with
 * the same or a later counter, which is what a cloned authenticator looks like.
 */
export async function advanceCounter(
  db: DbOrTx,
  id: number,
  seen: number,
  next: number,
  now = new Date(),
): Promise<boolean> {
  const rows = await db
    .update(passkeys)
    .set({ counter: next, lastUsedAt: now })
    .where(and(eq(passkeys.id, id), eq(passkeys.counter, seen), or(lt(passkeys.counter, next), sql`${next} = 0`)))
    .returning({ id: passkeys.id });
  return rows.length > 0;
}
