import { AppError } from '../../errors.ts';
import type { Db } from '../../platform/db/client.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { BillingService } from '../billing/billing.service.ts';
import { SEAL_JOB } from '../signing/completion.ts';
import { requestReseal } from '../signing/seal-job.ts';
import {
  findAwaitingSealPage,
  findOrganization,
  findOrganizationsPage,
  findPackagesPage,
  findUsersPage,
} from './admin.repo.ts';
import { SEAL_STATES } from './admin.schemas.ts';

type Paging = { page: number; size: number };

/**
 * The operator's API (RUNTIME.md "Plans and credits belong to the operator"): every organization and user, not
 * one caller's. It decides nothing the owning modules decide: a package goes through billing (recorded in
 * package_changes as the operator's), a reseal through signing.
 */
export function createAdminService({ db, jobs, billing }: { db: Db; jobs: JobQueue; billing: BillingService }) {
  return { grantPackage, renewPackage, listOrganizations, organization, listUsers, listPackages, awaitingSeal, reseal };

  async function grantPackage(organizationId: number, packageId: number) {
    return billing.grantPackage(organizationId, packageId);
  }

  async function renewPackage(organizationId: number) {
    return billing.renewForOperator(organizationId);
  }

  async function listOrganizations(query: Paging & { search?: string }) {
    return findOrganizationsPage(db, query.search, query.size, query.page * query.size);
  }

  async function organization(organizationId: number) {
    const row = await findOrganization(db, organizationId);
    if (!row) throw new AppError('NOT_FOUND', `Organization ${organizationId} not found`);
    return row;
  }

  async function listUsers(query: Paging & { search?: string }) {
    return findUsersPage(db, query.search, query.size, query.page * query.size);
  }

  async function listPackages(query: Paging & { search?: string }) {
    return findPackagesPage(db, query.search, query.size, query.page * query.size);
  }

  /** Each row also says whether a seal job is live for it now (one question to the queue per row of the page). */
  async function awaitingSeal(query: Paging & { sealStatus?: (typeof SEAL_STATES)[number] }) {
    const { rows, total } = await findAwaitingSealPage(
      db,
      query.sealStatus ? [query.sealStatus] : SEAL_STATES,
      query.size,
      query.page * query.size,
    );
    const live = await Promise.all(rows.map((row) => jobs.isLive(SEAL_JOB, { workflowId: row.id })));
    return { rows: rows.map((row, i) => ({ ...row, sealJobLive: live[i] })), total };
  }

  async function reseal(workflowId: number) {
    return requestReseal(db, jobs, workflowId);
  }
}

export type AdminService = ReturnType<typeof createAdminService>;
