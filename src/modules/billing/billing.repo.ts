import { and, asc, count, eq, ilike, or } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { organizations, packageChanges, packages } from '../../platform/db/schema/index.ts';

export type PackageRow = typeof packages.$inferSelect;

export async function findPresetPackagesPage(db: DbOrTx, search: string | undefined, limit: number, offset: number) {
  const where = and(
    eq(packages.preset, true),
    search
      ? or(ilike(packages.name, `%${escapeLike(search)}%`), ilike(packages.description, `%${escapeLike(search)}%`))
      : undefined,
  );
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(packages).where(where).orderBy(asc(packages.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(packages).where(where),
  ]);
  return { rows, total };
}

export async function findDefaultPackage(db: DbOrTx): Promise<PackageRow | null> {
  const [row] = await db.select().from(packages).where(eq(packages.isDefault, true)).limit(1);
  return row ?? null;
}

export async function findPackage(db: DbOrTx, packageId: number): Promise<PackageRow | null> {
  const [row] = await db.select().from(packages).where(eq(packages.id, packageId));
  return row ?? null;
}

/** The organization's billing columns and its package; `lock` takes the organization row for the change that follows. */
export async function findOrganizationBilling(db: DbOrTx, organizationId: number, options: { lock?: boolean } = {}) {
  const query = db
    .select({
      organizationId: organizations.id,
      credits: organizations.credits,
      packageStartedAt: organizations.packageStartedAt,
      packageExpiresAt: organizations.packageExpiresAt,
      servicePlanActive: organizations.servicePlanActive,
      package: packages,
    })
    .from(organizations)
    .innerJoin(packages, eq(packages.id, organizations.packageId))
    .where(eq(organizations.id, organizationId));
  const [row] = options.lock ? await query.for('no key update', { of: organizations }) : await query;
  return row ?? null;
}

export type OrganizationBillingRow = NonNullable<Awaited<ReturnType<typeof findOrganizationBilling>>>;

export async function setOrganizationPackage(
  db: DbOrTx,
  organizationId: number,
  cycle: { packageId: number; credits: number; startedAt: Date; expiresAt: Date },
): Promise<void> {
  await db
    .update(organizations)
    .set({
      packageId: cycle.packageId,
      credits: cycle.credits,
      packageStartedAt: cycle.startedAt,
      packageExpiresAt: cycle.expiresAt,
    })
    .where(eq(organizations.id, organizationId));
}

export async function insertPackageChange(db: DbOrTx, change: typeof packageChanges.$inferInsert): Promise<void> {
  await db.insert(packageChanges).values(change);
}

export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
