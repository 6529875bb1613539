import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { packages } from '../../platform/db/schema/index.ts';
import { findDefaultPackage, findPresetPackagesPage } from './billing.repo.ts';

/**
 * The platform's preset packages. "Starter" is the default every new sign-up gets, with credits so a new
 * account can send at once (RUNTIME.md).
 */
const PRESET_PACKAGES = [
  { name: 'Starter', description: 'Free plan for individuals: 50 envelopes a year', credits: 50, creditsPrice: 0, discount: 0, duration: 365, servicePlan: 'FREE', isDefault: true, allowSharing: true, allowCustomSmtp: false, powerSurveyRecipientLimit: 25 },
  { name: 'Business', description: 'For teams: 1000 envelopes a year, custom mail routing', credits: 1000, creditsPrice: 0.5, discount: 0, duration: 365, servicePlan: 'BUSINESS', isDefault: false, allowSharing: true, allowCustomSmtp: true, powerSurveyRecipientLimit: 500 },
  { name: 'Enterprise', description: 'High volume: 10000 envelopes a year, qualified signatures', credits: 10000, creditsPrice: 0.3, discount: 10, duration: 365, servicePlan: 'ENTERPRISE', isDefault: false, allowSharing: true, allowCustomSmtp: true, powerSurveyRecipientLimit: 5000, quotaAdvanced: 1000, quotaQualified: 1000 },
];

export function createBillingService({ db }: { db: Db }) {
  return {
    /** Idempotent: inserts the preset packages on first start; several instances may race. */
    async ensurePresetPackages(): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(42, 1)`);
        if (await findDefaultPackage(tx)) return;
        await tx.insert(packages).values(PRESET_PACKAGES.map((p) => ({ ...p, preset: true, status: 'ACTIVE', currencySymbol: '$' })));
      });
    },

    async listPresetPackages(search: string | undefined, page: number, size: number) {
      return findPresetPackagesPage(db, search?.trim() || undefined, size, page * size);
    },

    async defaultPackage() {
      const row = await findDefaultPackage(db);
      if (!row) throw new Error('preset packages missing');
      return row;
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
