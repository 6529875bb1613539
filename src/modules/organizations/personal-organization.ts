import type { Tx } from '../../platform/db/client.ts';
import { insertMembership, insertOrganization } from './organizations.repo.ts';

/** A plan as billing hands it out: its package, the credits it gives and how many days a cycle lasts. */
export type PlanCycle = { id: number; credits: number; duration: number };

/**
 * The organization a person owns and acts in when they have no other: made at sign-up (users/accounts.ts) and when
 * a removed member has nowhere else to go (organizations.service.ts), named after them, on `plan` from now, with
 * their owner membership. Answers its id; making it the one they act in is the caller's.
 */
export async function createPersonalOrganization(
  tx: Tx,
  owner: { userId: number; name: string },
  plan: PlanCycle,
): Promise<number> {
  const now = new Date();
  const organization = await insertOrganization(tx, {
    name: `${owner.name}'s organization`,
    ownerUserId: owner.userId,
    packageId: plan.id,
    credits: plan.credits,
    packageExpiresAt: new Date(now.getTime() + plan.duration * 24 * 3600 * 1000),
  });
  await insertMembership(tx, {
    organizationId: organization.id,
    userId: owner.userId,
    isOwner: true,
    status: 'ACTIVE',
    joinedAt: now,
  });
  return organization.id;
}
