import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import {
  findDefaultPackage, findOrganizationBilling, findPackage, findPresetPackagesPage, insertPackageChange, setOrganizationPackage,
  type OrganizationBillingRow, type PackageRow,
} from './billing.repo.ts';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The cycle a package starts when it is chosen or renewed: its credits and its duration, from now. Unused
 * credits and days of the cycle it replaces lapse, so calling update or renew again gives nothing more than
 * one cycle (there is no payment step to make a second call cost anything).
 */
export function newCycle(pkg: Pick<PackageRow, 'id' | 'credits' | 'duration'>, now: Date) {
  return { packageId: pkg.id, credits: pkg.credits, startedAt: now, expiresAt: new Date(now.getTime() + pkg.duration * DAY_MS) };
}

export function createBillingService({ db }: { db: Db }) {
  return { listPresetPackages, defaultPackage, organizationBilling, changePackage, renewPackage };

  async function listPresetPackages(search: string | undefined, page: number, size: number) {
    return findPresetPackagesPage(db, search?.trim() || undefined, size, page * size);
  }

  /** The package every sign-up starts on (seeded by migration 0008). */
  async function defaultPackage(): Promise<PackageRow> {
    const row = await findDefaultPackage(db);
    if (!row) throw new Error('the default preset package is missing (migration 0008 seeds it)');
    return row;
  }

  async function organizationBilling(caller: UserCaller): Promise<OrganizationBillingRow> {
    const row = await findOrganizationBilling(db, caller.organizationId);
    if (!row) throw new AppError('NOT_FOUND', 'Organization not found');
    return row;
  }

  /** PUT /auth/v1/package/update: the organization moves to another preset package and starts its cycle. */
  async function changePackage(caller: UserCaller, organizationId: number, packageId: number): Promise<OrganizationBillingRow> {
    return startCycle(caller, organizationId, 'UPDATE', async (tx, current) => {
      const target = await findPackage(tx, packageId);
      // A custom (non-preset) package is not offered to anyone but the organization already on it.
      if (!target || (!target.preset && target.id !== current.package.id)) throw new AppError('NOT_FOUND', 'Package not found');
      return target;
    });
  }

  /** PUT /auth/v1/package/renew: a new cycle of the organization's current package. */
  async function renewPackage(caller: UserCaller, organizationId: number): Promise<OrganizationBillingRow> {
    return startCycle(caller, organizationId, 'RENEW', async (_tx, current) => current.package);
  }

  /**
   * Both calls: the caller's own organization only (another id answers 404, as if it did not exist), a person
   * rather than a partner's client token, a plan the operator has not switched off (500 SERVICE_PLAN_INACTIVE,
   * which a renewal must not lift) and an ACTIVE package. The organization row is locked, so the change and its
   * record in package_changes commit together, after any send that debited a credit.
   */
  async function startCycle(caller: UserCaller, organizationId: number, action: 'UPDATE' | 'RENEW', choose: (tx: DbOrTx, current: OrganizationBillingRow) => Promise<PackageRow>) {
    if (caller.appId !== undefined) throw new AppError('USER_NOT_HAVE_ACCESS', 'A business app cannot change the organization\'s package');
    if (organizationId !== caller.organizationId) throw new AppError('NOT_FOUND', 'Organization not found');
    return db.transaction(async (tx) => {
      const current = await findOrganizationBilling(tx, organizationId, { lock: true });
      if (!current) throw new AppError('NOT_FOUND', 'Organization not found');
      const target = await choose(tx, current);
      if (!current.servicePlanActive) throw new AppError('SERVICE_PLAN_INACTIVE', 'The organization\'s service plan is switched off; the operator must switch it on again');
      if (target.status !== 'ACTIVE') throw new AppError('PACKAGE_NOT_AVAILABLE', `The package "${target.name}" is ${target.status.toLowerCase()}; choose another`);
      const cycle = newCycle(target, new Date());
      await setOrganizationPackage(tx, organizationId, cycle);
      await insertPackageChange(tx, {
        organizationId, action, fromPackageId: current.package.id, toPackageId: target.id, creditsBefore: current.credits, creditsAfter: cycle.credits,
        expiresBefore: current.packageExpiresAt, expiresAfter: cycle.expiresAt, byUserId: caller.userId,
      });
      return { ...current, credits: cycle.credits, packageStartedAt: cycle.startedAt, packageExpiresAt: cycle.expiresAt, package: target };
    });
  }
}

export type BillingService = ReturnType<typeof createBillingService>;
