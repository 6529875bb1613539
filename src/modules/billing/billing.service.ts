import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import {
  findDefaultPackage,
  findOrganizationBilling,
  findPackage,
  findPresetPackagesPage,
  insertPackageChange,
  setOrganizationPackage,
  type OrganizationBillingRow,
  type PackageRow,
} from './billing.repo.ts';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The cycle a package starts when it is chosen or renewed: its credits and its duration, from now. Unused
 * credits and days of the cycle it replaces lapse, so calling update or renew again gives nothing more than
 * one cycle (there is no payment step to make a second call cost anything).
 */
export function newCycle(pkg: Pick<PackageRow, 'id' | 'credits' | 'duration'>, now: Date) {
  return {
    packageId: pkg.id,
    credits: pkg.credits,
    startedAt: now,
    expiresAt: new Date(now.getTime() + pkg.duration * DAY_MS),
  };
}

/** A package someone pays for: any creditsPrice above 0. Only the operator puts organizations on one (unless BILLING_SELF_SERVICE). */
export function isPriced(pkg: Pick<PackageRow, 'creditsPrice'>): boolean {
  return Number(pkg.creditsPrice) > 0;
}

/**
 * package_changes.action: UPDATE and RENEW by a member (byUserId), OPERATOR_UPDATE and OPERATOR_RENEW by the
 * operator's API (byUserId null; the action says who, since a deleted member's rows also lose their byUserId).
 */
type ChangeAction = 'UPDATE' | 'RENEW' | 'OPERATOR_UPDATE' | 'OPERATOR_RENEW';

type Chooser = (tx: DbOrTx, current: OrganizationBillingRow) => Promise<PackageRow>;

/**
 * `selfService` (BILLING_SELF_SERVICE): whether members may choose and renew priced packages themselves. Off, a
 * member's change or renewal takes only a free package (RUNTIME.md "Plans and credits belong to the operator").
 */
export function createBillingService({ db, selfService = false }: { db: Db; selfService?: boolean }) {
  return {
    selfService,
    listPresetPackages,
    defaultPackage,
    organizationBilling,
    changePackage,
    renewPackage,
    grantPackage,
    renewForOperator,
  };

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
  async function changePackage(
    caller: UserCaller,
    organizationId: number,
    packageId: number,
  ): Promise<OrganizationBillingRow> {
    assertMember(caller, organizationId);
    return startCycle(organizationId, { action: 'UPDATE', byUserId: caller.userId }, async (tx, current) => {
      const target = await findPackage(tx, packageId);
      // A custom (non-preset) package is not offered to anyone but the organization already on it.
      if (!target || (!target.preset && target.id !== current.package.id))
        throw new AppError('NOT_FOUND', 'Package not found');
      return target;
    });
  }

  /** PUT /auth/v1/package/renew: a new cycle of the organization's current package. */
  async function renewPackage(caller: UserCaller, organizationId: number): Promise<OrganizationBillingRow> {
    assertMember(caller, organizationId);
    return startCycle(
      organizationId,
      { action: 'RENEW', byUserId: caller.userId },
      async (_tx, current) => current.package,
    );
  }

  /**
   * The operator's PUT /admin/v1/organizations/{orgId}/package: any ACTIVE package, preset or custom (a deal made
   * for this organization), priced or not, for a new cycle with its credits. A switched-off service plan stays off.
   */
  async function grantPackage(organizationId: number, packageId: number): Promise<OrganizationBillingRow> {
    return startCycle(organizationId, { action: 'OPERATOR_UPDATE', byUserId: null }, async (tx) => {
      const target = await findPackage(tx, packageId);
      if (!target) throw new AppError('NOT_FOUND', `Package ${packageId} not found`);
      return target;
    });
  }

  /** The operator's PUT /admin/v1/organizations/{orgId}/package/renew: a new cycle of the current package. */
  async function renewForOperator(organizationId: number): Promise<OrganizationBillingRow> {
    return startCycle(
      organizationId,
      { action: 'OPERATOR_RENEW', byUserId: null },
      async (_tx, current) => current.package,
    );
  }

  /**
   * A member's change or renewal: the caller's own organization only (another id answers 404, as if it did not
   * exist), a person rather than a partner's client token.
   */
  function assertMember(caller: UserCaller, organizationId: number): void {
    if (caller.appId !== undefined)
      throw new AppError('USER_NOT_HAVE_ACCESS', "A business app cannot change the organization's package");
    if (organizationId !== caller.organizationId) throw new AppError('NOT_FOUND', 'Organization not found');
  }

  /**
   * Every change: an ACTIVE package. A member's, also a plan the operator has not switched off (500
   * SERVICE_PLAN_INACTIVE, which a renewal must not lift) and, without self-service, a free package (403
   * PAYMENT_REQUIRED: checked last, so a member learns first what the operator could not fix by granting), and a new
   * cycle of the package the organization is on only once the running one has ended (400 OPERATION_IS_NOT_ALLOWED). The
   * organization row is locked, so the change and its record in package_changes commit together, after any send
   * that debited a credit.
   */
  async function startCycle(
    organizationId: number,
    by: { action: ChangeAction; byUserId: number | null },
    choose: Chooser,
  ): Promise<OrganizationBillingRow> {
    const byOperator = by.byUserId === null;
    return db.transaction(async (tx) => {
      const current = await findOrganizationBilling(tx, organizationId, { lock: true });
      if (!current) throw new AppError('NOT_FOUND', 'Organization not found');
      const target = await choose(tx, current);
      if (!byOperator && !current.servicePlanActive)
        throw new AppError(
          'SERVICE_PLAN_INACTIVE',
          "The organization's service plan is switched off; the operator must switch it on again",
        );
      if (target.status !== 'ACTIVE')
        throw new AppError(
          'PACKAGE_NOT_AVAILABLE',
          `The package "${target.name}" is ${target.status.toLowerCase()}; choose another`,
        );
      if (!byOperator && !selfService && isPriced(target)) {
        throw new AppError(
          'PAYMENT_REQUIRED',
          `The package "${target.name}" is priced: ask the operator of this service to ${by.action === 'RENEW' ? 'renew it' : 'put your organization on it'}`,
          { packageId: target.id },
        );
      }
      const now = new Date();
      // A free package's cycle is its allowance (Starter: 50 envelopes a year): started again at will, it would be no limit at all.
      if (
        !byOperator &&
        !selfService &&
        target.id === current.package.id &&
        current.packageExpiresAt.getTime() > now.getTime()
      ) {
        throw new AppError(
          'OPERATION_IS_NOT_ALLOWED',
          `The package "${target.name}" starts a new cycle once the current one ends (${current.packageExpiresAt.toISOString()})`,
          { renewableAt: current.packageExpiresAt.toISOString() },
        );
      }
      const cycle = newCycle(target, now);
      await setOrganizationPackage(tx, organizationId, cycle);
      await insertPackageChange(tx, {
        organizationId,
        action: by.action,
        fromPackageId: current.package.id,
        toPackageId: target.id,
        creditsBefore: current.credits,
        creditsAfter: cycle.credits,
        expiresBefore: current.packageExpiresAt,
        expiresAfter: cycle.expiresAt,
        byUserId: by.byUserId,
      });
      return {
        ...current,
        credits: cycle.credits,
        packageStartedAt: cycle.startedAt,
        packageExpiresAt: cycle.expiresAt,
        package: target,
      };
    });
  }
}

export type BillingService = ReturnType<typeof createBillingService>;
