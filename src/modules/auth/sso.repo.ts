import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { idpTokenUses, loginStates } from '../../platform/db/schema/index.ts';

export type LoginStateRow = typeof loginStates.$inferSelect;
export type NewLoginState = typeof loginStates.$inferInsert;

export async function insertLoginState(db: DbOrTx, state: NewLoginState): Promise<LoginStateRow> {
  const [row] = await db.insert(loginStates).values(state).returning();
  return row;
}

export async function findLoginState(db: DbOrTx, stateHash: string): Promise<LoginStateRow | null> {
  const [row] = await db.select().from(loginStates).where(eq(loginStates.stateHash, stateHash));
  return row ?? null;
}

/** Marks the state used; null when another request used it first (or it is past its end). */
export async function consumeLoginState(db: DbOrTx, id: number, now = new Date()): Promise<LoginStateRow | null> {
  const [row] = await db
    .update(loginStates)
    .set({ consumedAt: now })
    .where(and(eq(loginStates.id, id), isNull(loginStates.consumedAt), gt(loginStates.expiresAt, now)))
    .returning();
  return row ?? null;
}

/** Own sign-in page: the code the signed-in account takes to the callback; only while the state is unused and has no code yet. */
export async function attachAuthorizationCode(
  db: DbOrTx,
  id: number,
  code: { codeHash: string; userId: number; expiresAt: Date; rememberMe: boolean },
  now = new Date(),
): Promise<boolean> {
  const rows = await db
    .update(loginStates)
    .set({
      codeHash: code.codeHash,
      codeUserId: code.userId,
      codeExpiresAt: code.expiresAt,
      rememberMe: code.rememberMe,
    })
    .where(
      and(
        eq(loginStates.id, id),
        isNull(loginStates.consumedAt),
        isNull(loginStates.codeHash),
        gt(loginStates.expiresAt, now),
      ),
    )
    .returning({ id: loginStates.id });
  return rows.length === 1;
}

/** Rows past their end by more than a day: nothing can use them any more. */
export async function deleteStaleLoginStates(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(loginStates).where(lt(loginStates.expiresAt, before));
}

/** Records a social ID token as used; false when it was used before (a replay). */
export async function recordIdTokenUse(
  db: DbOrTx,
  use: { tokenHash: string; userId: number | null; expiresAt: Date },
): Promise<boolean> {
  await db.delete(idpTokenUses).where(lt(idpTokenUses.expiresAt, new Date()));
  const rows = await db
    .insert(idpTokenUses)
    .values(use)
    .onConflictDoNothing()
    .returning({ tokenHash: idpTokenUses.tokenHash });
  return rows.length === 1;
}
