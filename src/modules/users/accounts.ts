import type { DbOrTx, Tx } from '../../platform/db/client.ts';
import { AppError } from '../../errors.ts';
import {
  findUserByEmail,
  findUserById,
  insertAccountUser,
  normalizeEmail,
  setUserOrganization,
  upgradeGuestUser,
  type UserRow,
} from './users.repo.ts';
import { createPersonalOrganization, type PlanCycle } from '../organizations/personal-organization.ts';

/**
 * `passwordHash` null: an account created by a single sign-on provider (it signs in there, never with a password);
 * `emailVerifiedAt`: when the provider vouched for the address.
 */
export type NewAccount = { name: string; email: string; passwordHash: string | null; emailVerifiedAt?: Date };

/**
 * Creates a registered user and the organization it owns, on `plan` with the plan's credits (RUNTIME.md
 * sign-up). An email held only by a guest user turns that guest into the account, keeping its history (which
 * the account reaches once its address is verified: users.email_verified_at stays null here); one held by a
 * registered user is a conflict. Run inside a transaction.
 */
export async function createAccount(
  tx: Tx,
  account: NewAccount,
  plan: PlanCycle,
): Promise<{ user: UserRow; organizationId: number }> {
  const email = normalizeEmail(account.email);
  const existing = await findUserByEmail(tx, email);
  if (existing && !existing.isGuest) throw new AppError('EMAIL_ALREADY_REGISTERED');

  let user: UserRow;
  if (existing) {
    // Only upgrade if it is still a guest: a concurrent sign-up may have just upgraded it.
    const upgraded = await upgradeGuestUser(tx, existing.id, {
      name: account.name,
      passwordHash: account.passwordHash,
      isGuest: false,
      ...(account.emailVerifiedAt ? { emailVerifiedAt: account.emailVerifiedAt } : {}),
    });
    if (!upgraded) throw new AppError('EMAIL_ALREADY_REGISTERED');
    user = upgraded;
  } else {
    const inserted = await insertAccountUser(tx, {
      email,
      name: account.name,
      passwordHash: account.passwordHash,
      emailVerifiedAt: account.emailVerifiedAt ?? null,
    });
    if (!inserted) throw new AppError('EMAIL_ALREADY_REGISTERED');
    user = inserted;
  }

  const organizationId = await createPersonalOrganization(tx, { userId: user.id, name: account.name }, plan);
  return { user: await setUserOrganization(tx, user.id, organizationId), organizationId };
}

/**
 * The registered account that an email signs in to (passkey, smart card), or null: no user, a guest (no
 * account), or a user without an organization to act in.
 */
export async function findSignInAccount(
  db: DbOrTx,
  email: string,
): Promise<(UserRow & { organizationId: number }) | null> {
  const user = await findUserByEmail(db, email);
  if (!user || user.isGuest || user.organizationId === null) return null;
  return user as UserRow & { organizationId: number };
}

/** The registered account behind a user token, or null (removed, or a guest). */
export async function findRegisteredUser(db: DbOrTx, userId: number): Promise<UserRow | null> {
  const user = await findUserById(db, userId);
  return user && !user.isGuest ? user : null;
}

/**
 * The organization the user's tokens act in from the next sign-in (organizations module: joining and leaving an
 * organization). Refresh tokens issued for the former one stop working ("sign in again").
 */
export async function setActingOrganization(tx: Tx, userId: number, organizationId: number): Promise<void> {
  await setUserOrganization(tx, userId, organizationId);
}
