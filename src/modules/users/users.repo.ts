import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { users } from '../../platform/db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;

/** Emails are compared and stored lower-cased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, normalizeEmail(email)));
  return row ?? null;
}

export async function findUserById(db: DbOrTx, id: number): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

/**
 * The user behind a recipient email: the registered or guest user holding it, or a new guest user
 * (SPEC.md: a recipient whose email matches no platform user gets a guest user). Concurrent calls for the
 * same email converge on one row through the unique index.
 */
export async function findOrCreateGuestUser(db: DbOrTx, email: string, name: string): Promise<UserRow> {
  const normalized = normalizeEmail(email);
  const existing = await findUserByEmail(db, normalized);
  if (existing) return existing;
  const [inserted] = await db.insert(users).values({ email: normalized, name, isGuest: true }).onConflictDoNothing().returning();
  return inserted ?? (await findUserByEmail(db, normalized))!;
}
