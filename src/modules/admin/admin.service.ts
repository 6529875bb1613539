import type { Readable } from 'node:stream';
import { AppError } from '../../errors.ts';
import type { Database, Db } from '../../platform/db/client.ts';
import { takeSnapshot, TooManySnapshotsError, type BucketSettings } from '../../platform/backup/snapshot.ts';
import type { SnapshotRecord } from '../../platform/backup/layout.ts';
import type { JobQueue } from '../../platform/jobs/queue.ts';
import type { Logger } from '../../platform/logger.ts';
import type { BillingService } from '../billing/billing.service.ts';
import type { DownloadService } from '../downloads/downloads.service.ts';
import type { HistoryService } from '../history/history.service.ts';
import { exportOrganization } from './organization-export.ts';
import { SEAL_JOB } from '../signing/completion.ts';
import { requestReseal } from '../signing/seal-job.ts';
import {
  findAwaitingSealPage,
  findOrganization,
  findOrganizationsPage,
  findPackagesPage,
  findUser,
  findUsersPage,
  setOrganizationDisabled,
  setUserDisabled,
  type DisabledMark,
} from './admin.repo.ts';
import { SEAL_STATES, type DisableBody } from './admin.schemas.ts';

type Paging = { page: number; size: number };

/**
 * The operator's API (RUNTIME.md "Plans and credits belong to the operator"): every organization and user, not
 * one caller's. It decides nothing the owning modules decide: a package goes through billing (recorded in
 * package_changes as the operator's), a reseal through signing.
 */
export function createAdminService({
  db,
  jobs,
  billing,
  downloads,
  history,
  logger,
  backup,
}: {
  db: Db;
  jobs: JobQueue;
  billing: BillingService;
  downloads: Pick<DownloadService, 'download'>;
  history: Pick<HistoryService, 'getHistory' | 'getEvidenceReport'>;
  logger: Pick<Logger, 'warn'>;
  /** What a backup snapshot reads: the database, DATA_DIR, the bucket, and which keys come from the environment. */
  backup: { database: Database; dataDir: string; bucket?: BucketSettings; keysFromEnvironment: string[] };
}) {
  // One snapshot at a time: each holds a dump of the database in memory while it is written.
  let snapshotting: Promise<unknown> = Promise.resolve();

  return {
    grantPackage,
    renewPackage,
    listOrganizations,
    organization,
    listUsers,
    listPackages,
    awaitingSeal,
    reseal,
    setUserEnabled,
    setOrganizationEnabled,
    queues,
    exportFor,
    snapshot,
  };

  /**
   * The part of a backup only the running service can take, written into DATA_DIR/backups/ for the command line on
   * this host to claim (platform/backup/snapshot.ts; docs/operations.md "Backups"); nothing of it goes over HTTP.
   */
  async function snapshot(): Promise<SnapshotRecord> {
    const next = snapshotting.then(() => takeSnapshot(backup));
    snapshotting = next.catch(() => {});
    try {
      return await next;
    } catch (error) {
      if (error instanceof TooManySnapshotsError)
        throw new AppError(
          'BACKUP_SNAPSHOTS_WAITING',
          undefined,
          { detail: error.message },
          { retryAfterSeconds: 600 },
        );
      throw error;
    }
  }

  function markOf(enabled: boolean, body: DisableBody | undefined): DisabledMark {
    return enabled ? null : { at: new Date(), by: body?.by ?? 'operator', reason: body?.reason ?? null };
  }

  /**
   * The operator's switch on an account (docs/security.md "The operator's switches"): recorded on the row, honoured
   * by every check that authenticates (modules/auth/account-standing.ts). Nothing else changes: enabling restores all.
   */
  async function setUserEnabled(userId: number, enabled: boolean, body?: DisableBody) {
    if (!(await setUserDisabled(db, userId, markOf(enabled, body))))
      throw new AppError('NOT_FOUND', `User ${userId} not found`);
    const row = await findUser(db, userId);
    if (!row) throw new AppError('NOT_FOUND', `User ${userId} not found`);
    return row;
  }

  async function setOrganizationEnabled(organizationId: number, enabled: boolean, body?: DisableBody) {
    if (!(await setOrganizationDisabled(db, organizationId, markOf(enabled, body))))
      throw new AppError('NOT_FOUND', `Organization ${organizationId} not found`);
    return organization(organizationId);
  }

  /** Each queue's depth and its oldest waiting job (pg-boss's statistics, through platform/jobs). */
  async function queues() {
    return jobs.stats();
  }

  /** 404 before anything is sent; then the zip, written while it streams (organization-export.ts). */
  async function exportFor(organizationId: number): Promise<{ name: string; stream: Readable }> {
    const found = await organization(organizationId);
    return { name: found.name, stream: exportOrganization({ db, downloads, history, logger }, found) };
  }

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
