import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.ts';
import { memberships, organizations, users } from '../../platform/db/schema/index.ts';
import type { PackageRow } from '../billing/billing.repo.ts';
import { AppError } from '../../errors.ts';
import { findUserByEmail, normalizeEmail, type UserRow } from './users.repo.ts';

export type NewAccount = { name: string; email: string; passwordHash: string };

/**
 * Creates a registered user and the organization it owns, on `plan` with the plan's credits (RUNTIME.md
 * sign-up). An email held only by a guest user turns that guest into the account, keeping its history (which
 * the account reaches once its address is verified: users.email_verified_at stays null here); one held by a
 * registered user is a conflict. Run inside a transaction.
 */
export async function createAccount(tx: Tx, account: NewAccount, plan: PackageRow): Promise<{ user: UserRow; organizationId: number }> {
  const email = normalizeEmail(account.email);
  const existing = await findUserByEmail(tx, email);
  if (existing && !existing.isGuest) throw new AppError('EMAIL_ALREADY_REGISTERED');

  let user: UserRow;
  if (existing) {
    // Only upgrade if it is still a guest: a concurrent sign-up may have just upgraded it.
    const [upgraded] = await tx.update(users).set({ name: account.name, passwordHash: account.passwordHash, isGuest: false })
      .where(eqGuest(existing.id)).returning();
    if (!upgraded) throw new AppError('EMAIL_ALREADY_REGISTERED');
    user = upgraded;
  } else {
    const [inserted] = await tx.insert(users).values({ email, name: account.name, passwordHash: account.passwordHash }).onConflictDoNothing().returning();
    if (!inserted) throw new AppError('EMAIL_ALREADY_REGISTERED');
    user = inserted;
  }

  const expiresAt = new Date(Date.now() + plan.duration * 24 * 3600 * 1000);
  const [organization] = await tx.insert(organizations).values({
    name: `${account.name}'s organization`,
    ownerUserId: user.id,
    packageId: plan.id,
    credits: plan.credits,
    packageExpiresAt: expiresAt,
  }).returning();
  await tx.insert(memberships).values({ organizationId: organization.id, userId: user.id, isOwner: true, status: 'ACTIVE' });
  const [withOrganization] = await tx.update(users).set({ organizationId: organization.id }).where(eq(users.id, user.id)).returning();
  return { user: withOrganization, organizationId: organization.id };
}

function eqGuest(userId: number) {
  return and(eq(users.id, userId), eq(users.isGuest, true));
}

/**
 * A PostgreSQL unique violation (SQLSTATE 23505), from either driver; Drizzle wraps driver errors and keeps
 * the original as `cause`.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; current && depth < 5; current = current.cause as typeof current, depth++) {
    if (current.code === '23505') return true;
  }
  return false;
}
