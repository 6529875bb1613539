import { and, eq, gte, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { preparedShapes, preparedStatement } from '../../platform/db/prepared.ts';
import { memberships, organizations, packages, roles } from '../../platform/db/schema/index.ts';

const organizationPlan = (db: DbOrTx) =>
  db
    .select({
      credits: organizations.credits,
      packageExpiresAt: organizations.packageExpiresAt,
      servicePlanActive: organizations.servicePlanActive,
      disabledAt: organizations.disabledAt,
      allowSharing: packages.allowSharing,
      allowCustomSmtp: packages.allowCustomSmtp,
      powerSurveyRecipientLimit: packages.powerSurveyRecipientLimit,
      cloudProviders: packages.cloudProviders,
    })
    .from(organizations)
    .innerJoin(packages, eq(packages.id, organizations.packageId))
    .where(eq(organizations.id, sql.placeholder('organizationId')));
const organizationPlanRead = preparedStatement('organization_plan', organizationPlan);
const organizationPlanLocked = preparedStatement('organization_plan_locked', (db) =>
  organizationPlan(db).for('no key update', { of: organizations }),
);

/** The organization's billing state and its package's flags; `lock` serializes the sends of one organization. */
export async function findOrganizationPlan(db: DbOrTx, organizationId: number, options: { lock?: boolean } = {}) {
  const [row] = await (options.lock ? organizationPlanLocked : organizationPlanRead)(db).execute({ organizationId });
  return row ?? null;
}

/** Takes one credit only if one is left, so two racing debits cannot both spend the last credit. Returns the new balance, or null. */
export async function debitOneCredit(db: DbOrTx, organizationId: number): Promise<number | null> {
  const [row] = await db
    .update(organizations)
    .set({ credits: sql`${organizations.credits} - 1` })
    .where(and(eq(organizations.id, organizationId), gte(organizations.credits, 1)))
    .returning({ credits: organizations.credits });
  return row?.credits ?? null;
}

/** Takes `count` credits only if that many are left (all or none). Returns the new balance, or null. */
export async function debitCreditsAtOnce(db: DbOrTx, organizationId: number, count: number): Promise<number | null> {
  const [row] = await db
    .update(organizations)
    .set({ credits: sql`${organizations.credits} - ${count}` })
    .where(and(eq(organizations.id, organizationId), gte(organizations.credits, count)))
    .returning({ credits: organizations.credits });
  return row?.credits ?? null;
}

export type SignatureQualifier = 'ELECTRONIC' | 'ADVANCED' | 'QUALIFIED';

const USED = { ELECTRONIC: 'usedElectronic', ADVANCED: 'usedAdvanced', QUALIFIED: 'usedQualified' } as const;
const PACKAGE_QUOTA = {
  ELECTRONIC: packages.quotaElectronic,
  ADVANCED: packages.quotaAdvanced,
  QUALIFIED: packages.quotaQualified,
} as const;

const signatureQuota = preparedShapes('signature_quota', (db, qualifier: SignatureQualifier) =>
  db
    .select({
      membershipId: memberships.id,
      used: memberships[USED[qualifier]],
      roleSettings: roles.signatureSettings,
      packageQuota: PACKAGE_QUOTA[qualifier],
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .innerJoin(packages, eq(packages.id, organizations.packageId))
    .leftJoin(roles, and(eq(roles.id, memberships.roleId), eq(roles.organizationId, sql.placeholder('organizationId'))))
    .where(
      and(
        eq(memberships.organizationId, sql.placeholder('organizationId')),
        eq(memberships.userId, sql.placeholder('userId')),
        eq(memberships.status, 'ACTIVE'),
      ),
    ),
);

/**
 * The user's ACTIVE membership in the organization with its use of one qualifier, its role's signatureSettings
 * (null without a role; a role's settings bind its members whatever the role's status, so deactivating a role
 * never lifts its restrictions) and the package's quota for that qualifier. Null: not a member.
 */
export async function findSignatureQuota(
  db: DbOrTx,
  organizationId: number,
  userId: number,
  qualifier: SignatureQualifier,
) {
  const [row] = await signatureQuota(db, qualifier).execute({ organizationId, userId });
  return row ?? null;
}

/** The package's per-member quota of each qualifier for the organization (null: no plan). */
export async function findPackageQuotas(
  db: DbOrTx,
  organizationId: number,
): Promise<Record<SignatureQualifier, number> | null> {
  const [row] = await db
    .select({
      ELECTRONIC: packages.quotaElectronic,
      ADVANCED: packages.quotaAdvanced,
      QUALIFIED: packages.quotaQualified,
    })
    .from(organizations)
    .innerJoin(packages, eq(packages.id, organizations.packageId))
    .where(eq(organizations.id, organizationId));
  return row ?? null;
}

/** Counts one signature only while the count is under `quota`, so racing signatures cannot overrun it. Returns the new count, or null. */
export async function countOneSignature(
  db: DbOrTx,
  membershipId: number,
  qualifier: SignatureQualifier,
  quota: number,
): Promise<number | null> {
  const used = memberships[USED[qualifier]];
  const [row] = await db
    .update(memberships)
    .set({ [USED[qualifier]]: sql`${used} + 1` })
    .where(and(eq(memberships.id, membershipId), lt(used, quota)))
    .returning({ used });
  return row?.used ?? null;
}

/** The role's signatureSettings of the user's ACTIVE membership in the organization: undefined when not a member, null without a role. */
export async function findMemberSignatureSettings(
  db: DbOrTx,
  organizationId: number,
  userId: number,
): Promise<unknown | null | undefined> {
  const [row] = await db
    .select({ settings: roles.signatureSettings })
    .from(memberships)
    .leftJoin(roles, and(eq(roles.id, memberships.roleId), eq(roles.organizationId, organizationId)))
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.userId, userId),
        eq(memberships.status, 'ACTIVE'),
      ),
    );
  return row === undefined ? undefined : row.settings;
}
