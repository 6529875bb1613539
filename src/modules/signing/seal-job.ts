import diagnostics from 'node:diagnostics_channel';
import { AppError } from '../../errors.ts';
import type { Db } from '../../platform/db/client.ts';
import {
  findDocumentsInOrder,
  findFieldsOfWorkflow,
  findRecipientsById,
  findStalePendingSeals,
  findWorkflowRow,
  lockWorkflowRow,
  setSealedFile,
  updateWorkflowRow,
} from './signing.repo.ts';
import { userContact } from '../users/users.directory.ts';
import type { Job, JobQueue } from '../../platform/jobs/queue.ts';
import { senderMailLanguage } from '../users/mail-language.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
import { createReadBuffers } from '../../platform/storage/read-buffers.ts';
import { appendSignatureTo } from '../../platform/signing/append-signature.ts';
import type { PlatformSeal } from '../../platform/signing/platform-seal.ts';
import { IncrementalPdf } from '../../platform/pdf/incremental-update.ts';
import { stampFieldsInto, type StampField } from '../../platform/pdf/stamp-fields.ts';
import { findSignedRevision, stampsFor } from './signer-revisions.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { SEAL_JOB, SEAL_WATCHDOG_JOB, type SealJobPayload } from './signing.jobs.ts';
import { completionMails, sealFailedMail, type SealedDocument } from './completion-mails.ts';
import type { SigningCodes } from './signing-codes.ts';
import type { SealWaiter } from './seal-waiter.ts';
import { isFinishedStatus } from '../workflows/workflow-status.ts';

export type SealJobDeps = {
  db: Db;
  jobs: JobQueue;
  blobs: BlobStore;
  outbox: Outbox;
  codes: SigningCodes;
  publicUrl: string;
  seal: Pick<PlatformSeal, 'signer'>;
  log: (message: string, error?: unknown) => void;
  /** Told when a sealed file is stored and when a seal leaves PENDING here, so readers waiting answer at once (seal-waiter.ts). */
  seals?: Pick<SealWaiter, 'progressed'>;
  /** SEAL_TEST_DELAY_MS, tests only: each attempt waits this long before sealing (a window to kill the process in). */
  testDelayMs?: number;
  /** Counts seals by outcome (metrics). */
  onOutcome?: (outcome: 'sealed' | 'failed') => void;
};

/** One attempt is abandoned (and counts as failed) before the job queue would abandon it unannounced (SEAL_JOB's expireInSeconds). */
const ATTEMPT_TIMEOUT_MS = 4 * 60 * 1000;

/** Sources of 4 MB and more are read into one of two kept buffers (as many seals of large files as run at once, mostly). */
const readBuffers = createReadBuffers({ minBytes: 4 * 1024 * 1024, keep: 2 });

export const SEAL_REASON = 'Signed electronically by every party; sealed by the signature service on completion';

/**
 * The sealing job. For each document still without a sealed file: draws the workflow's field values onto
 * the source PDF (or onto its newest signer revision, drawing only what that did not), applies the platform's
 * invisible PAdES seal (B-T with the configured TSA), stores the result and links it to the document. Then, in
 * one transaction, the seal becomes SEALED and the completion mails are queued. Safe to run twice: sealed
 * documents are skipped, and only the run that moves the seal out of PENDING queues mails.
 */
export function sealJob(deps: SealJobDeps): Job<typeof SealJobPayload> {
  return {
    ...SEAL_JOB,
    async handler({ workflowId }, meta) {
      if (deps.testDelayMs) {
        // A warning: the delay is for crash tests and must never go unnoticed in production.
        meta.log.warn(
          { workflowId },
          `attempt ${meta.retryCount + 1} waits SEAL_TEST_DELAY_MS=${deps.testDelayMs} before sealing`,
        );
        await new Promise((resolve) => setTimeout(resolve, deps.testDelayMs));
      }
      try {
        await withTimeout(sealWorkflow(deps, workflowId), ATTEMPT_TIMEOUT_MS);
        deps.onOutcome?.('sealed');
      } catch (error) {
        const message = errorMessage(error);
        if (meta.retryCount < meta.retryLimit) throw error;
        meta.log.error(
          { err: error, workflowId },
          `could not be sealed; giving up after ${meta.retryCount + 1} attempts`,
        );
        await markSealFailed(deps, workflowId, message);
        deps.onOutcome?.('failed');
      }
    },
  };
}

/** Every five minutes: re-queues seals whose job vanished (resumeOrphanedSeals). */
export function sealWatchdogJob(deps: SealJobDeps): Job<typeof SEAL_WATCHDOG_JOB.payload> {
  return {
    ...SEAL_WATCHDOG_JOB,
    async handler() {
      await resumeOrphanedSeals(deps, new Date());
    },
  };
}

/** Longer than every retry of a seal job together (6-10 minutes) plus one expiry, so a live job is never doubled. */
const ORPHAN_AFTER_MS = 20 * 60 * 1000;

/**
 * A seal job can vanish without reaching its failure branch: an instance killed during the last attempt
 * leaves pg-boss to mark the job failed on expiry. Such a workflow would stay COMPLETED with its seal PENDING
 * for ever; the watchdog finds those with no live seal job and enqueues a fresh one. Returns their ids.
 */
export async function resumeOrphanedSeals(deps: SealJobDeps, now: Date): Promise<number[]> {
  const stale = await findStalePendingSeals(deps.db, new Date(now.getTime() - ORPHAN_AFTER_MS));
  const resumed: number[] = [];
  for (const id of stale) {
    if (await deps.jobs.isLive(SEAL_JOB, { workflowId: id })) continue;
    await deps.db.transaction(async (tx) => {
      await deps.jobs.send(tx, SEAL_JOB, { workflowId: id });
    });
    deps.log(`${SEAL_WATCHDOG_JOB.name}: workflow ${id} had a PENDING seal and no live job; sealing again`);
    resumed.push(id);
  }
  if (resumed.length > 0) deps.jobs.notify(SEAL_JOB);
  return resumed;
}

/**
 * The operator's reseal (modules/admin): a finished workflow whose seal FAILED goes back to PENDING, keeping its
 * last error until a run succeeds, with a SEAL_REQUESTED activity and a fresh seal job (all its retries) in the
 * same transaction; a PENDING one without a live job (what the watchdog finds, sooner) gets its job. The run
 * that then seals it mails the completion as a first seal does. 404 for no such workflow, 400
 * INVALID_WORKFLOW_STATUS when there is nothing to seal (not finished, or NONE or SEALED).
 */
export async function requestReseal(
  db: Db,
  jobs: JobQueue,
  workflowId: number,
): Promise<{ workflowId: number; queued: boolean; sealStatus: 'PENDING' }> {
  // Asked before the transaction: on the embedded database a query outside it would wait for its end.
  const live = await jobs.isLive(SEAL_JOB, { workflowId });
  const queued = await db.transaction(async (tx) => {
    const locked = await lockWorkflowRow(tx, workflowId);
    if (!locked) throw new AppError('NOT_FOUND', `Workflow ${workflowId} not found`);
    const resealable =
      isFinishedStatus(locked.status) && (locked.sealStatus === 'FAILED' || locked.sealStatus === 'PENDING');
    if (!resealable)
      throw new AppError(
        'INVALID_WORKFLOW_STATUS',
        `Workflow ${workflowId} is ${locked.status} with seal ${locked.sealStatus}: only a FAILED or PENDING seal of a finished workflow can be sealed again`,
      );
    if (locked.sealStatus === 'PENDING' && live) return false;
    if (locked.sealStatus === 'FAILED') {
      await updateWorkflowRow(tx, workflowId, { sealStatus: 'PENDING' });
      await recordActivity(tx, {
        workflowId,
        kind: 'SEAL_REQUESTED',
        action: 'Seal requested again',
        status: locked.status,
        sentence: `The service's operator asked for the signed document to be sealed again after: ${locked.sealError ?? 'unknown error'}`,
      });
    }
    await jobs.send(tx, SEAL_JOB, { workflowId });
    return true;
  });
  if (queued) jobs.notify(SEAL_JOB);
  return { workflowId, queued, sealStatus: 'PENDING' as const };
}

/**
 * Each seal's steps as they end, `{ workflowId, phase, at }` (`at`: performance.now()): 'started' (the attempt began),
 * 'read' (the rows and the source file read), 'drawn' (field values stamped), 'signed' (the seal appended), 'stored' (the sealed
 * file stored and linked), 'committed' (SEALED). For benches and metrics to observe; publishing without a
 * subscriber costs nothing.
 */
export const sealPhases = diagnostics.channel('signature-service.seal-phases');
export type SealPhase = {
  workflowId: number;
  phase: 'started' | 'read' | 'drawn' | 'signed' | 'stored' | 'committed';
  at: number;
};
const phase = (workflowId: number, name: SealPhase['phase']) => {
  if (sealPhases.hasSubscribers)
    sealPhases.publish({ workflowId, phase: name, at: performance.now() } satisfies SealPhase);
};

export async function sealWorkflow(deps: SealJobDeps, workflowId: number): Promise<void> {
  phase(workflowId, 'started');
  const workflow = await findWorkflowRow(deps.db, workflowId);
  if (!workflow || !isFinishedStatus(workflow.status) || workflow.sealStatus !== 'PENDING') return;

  const docs = await findDocumentsInOrder(deps.db, workflowId);
  const values = await findFieldsOfWorkflow(deps.db, workflowId);
  const seal = await deps.seal.signer({ reason: SEAL_REASON });
  for (const document of docs) {
    if (document.sealedBlobKey) continue;
    // Signers with their own certificates left signed revisions: start from the newest and draw only what they
    // did not, so their signatures stay valid byte for byte and the seal is the last revision.
    const signed = await findSignedRevision(deps.db, document.id);
    const stamps: StampField[] = stampsFor(
      values.filter((f) => f.documentId === document.id),
      signed?.drawnFieldIds ?? new Set(),
    );
    const sourceKey = signed ? signed.blobKey : document.blobKey;
    // The source is read into a reused buffer (read-buffers.ts): nothing reads it once the sealed file is stored.
    const lease = readBuffers.lease();
    try {
      const source = await deps.blobs.get(sourceKey, lease.into);
      phase(workflowId, 'read');
      // Kept over its source: only the update is written (appended-blob.ts).
      const file = await IncrementalPdf.open(source, sourceKey);
      stampFieldsInto(file, stamps);
      phase(workflowId, 'drawn');
      const sealed = await appendSignatureTo(file, seal);
      phase(workflowId, 'signed');
      const stored = await deps.blobs.put(sealed.hashedParts());
      await setSealedFile(deps.db, document.id, stored);
      phase(workflowId, 'stored');
    } finally {
      lease.release();
    }
    // The sealed file is final now: a download of this document waiting for it can answer (seal-waiter.ts). Its one
    // query goes first: the embedded database runs one statement at a time, and the commit below would hold it.
    deps.seals?.progressed(workflowId);
    await new Promise((resolve) => setImmediate(resolve));
  }

  const queued = await deps.db.transaction(async (tx) => {
    const locked = await lockWorkflowRow(tx, workflowId);
    if (locked?.sealStatus !== 'PENDING') return false;
    const sealedDocs = await findDocumentsInOrder(tx, workflowId);
    const unsealed = sealedDocs.find((d) => !d.sealedBlobKey);
    if (unsealed) throw new Error(`document ${unsealed.id} has no sealed file`);
    await updateWorkflowRow(tx, workflowId, { sealStatus: 'SEALED', sealError: null });
    // RUNTIME.md: self-signing runs without mail; the owner downloads the sealed file.
    if (locked.sequence === 'SELF') return false;
    const rows = await findRecipientsById(tx, workflowId);
    const owner = { ...(await userContact(tx, locked.ownerUserId)), language: await senderMailLanguage(tx, locked) };
    const sealedFiles: SealedDocument[] = sealedDocs.map((d) => ({
      name: d.name,
      sealedBlobKey: d.sealedBlobKey!,
      sealedSize: d.sealedSize ?? 0,
    }));
    // One multi-row insert for the owner's and every recipient's mail.
    await deps.outbox.enqueueMany(
      tx,
      completionMails({
        workflow: locked,
        owner,
        recipients: rows,
        documents: sealedFiles,
        publicUrl: deps.publicUrl,
        codes: deps.codes,
      }),
    );
    return true;
  });
  phase(workflowId, 'committed');
  deps.seals?.progressed(workflowId);
  if (queued) deps.outbox.notify();
}

/** The last attempt failed: FAILED with the reason, a SEAL_FAILED activity and a mail to the owner, once. */
async function markSealFailed(deps: SealJobDeps, workflowId: number, reason: string): Promise<void> {
  const sealError = reason.slice(0, 1000);
  await deps.db.transaction(async (tx) => {
    const locked = await lockWorkflowRow(tx, workflowId);
    if (locked?.sealStatus !== 'PENDING') return;
    await updateWorkflowRow(tx, workflowId, { sealStatus: 'FAILED', sealError });
    await recordActivity(tx, {
      workflowId,
      kind: 'SEAL_FAILED',
      action: 'Seal failed',
      sentence: `The signed document could not be sealed: ${sealError}`,
      status: locked.status,
    });
    const owner = { ...(await userContact(tx, locked.ownerUserId)), language: await senderMailLanguage(tx, locked) };
    if (owner.email) await deps.outbox.enqueue(tx, sealFailedMail({ workflow: locked, owner, error: sealError }));
  });
  deps.seals?.progressed(workflowId);
  deps.outbox.notify();
}

function errorMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)) || 'unknown error';
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`sealing took longer than ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
