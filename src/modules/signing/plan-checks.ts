import { eq } from 'drizzle-orm';
import { AppError } from '../../errors.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { organizations } from '../../platform/db/schema/index.ts';
import { debitOneCredit } from './commence.repo.ts';

/**
 * SPEC.md: an expired package blocks sending AND signing for the whole organization (16003), and an
 * inactive service plan is a 500 billing state. Checked on every signing action of the workflow's
 * organization (the owner's, not the signer's: guests have none).
 */
export async function assertPlanAllowsSigning(db: DbOrTx, organizationId: number, now = new Date()): Promise<void> {
  const [plan] = await db.select({ packageExpiresAt: organizations.packageExpiresAt, servicePlanActive: organizations.servicePlanActive })
    .from(organizations).where(eq(organizations.id, organizationId));
  if (!plan) throw new AppError('SERVICE_PLAN_INACTIVE', 'The workflow\'s organization has no billing plan');
  if (plan.packageExpiresAt.getTime() <= now.getTime()) throw new AppError('PACKAGE_EXPIRED');
  if (!plan.servicePlanActive) throw new AppError('SERVICE_PLAN_INACTIVE');
}

/**
 * A self-signed envelope never commences, so it pays its one credit when it completes: one credit per
 * envelope either way. Without a credit the final signature is refused and nothing of it is kept.
 */
export async function debitSelfSignCredit(db: DbOrTx, organizationId: number): Promise<void> {
  if ((await debitOneCredit(db, organizationId)) === null) throw new AppError('INSUFFICIENT_CREDITS', 'Insufficient credit balance: completing a self-signed envelope uses one credit');
}
