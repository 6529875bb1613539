import crypto from 'node:crypto';
import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
import type { PlatformSeal } from '../../platform/signing/platform-seal.ts';
import { assertRecipientPasswordPassed } from '../workflows/recipient-password-gate.ts';
import {
  findLiveWorkflowById,
  findRowsOfUser,
  isWithinReach,
  type RecipientRow,
  type WorkflowRow,
} from '../workflows/workflow-access.ts';
import type { SealWaiter } from '../signing/seal-waiter.ts';
import { loadEnvelopeRecord, type EnvelopeRecord } from './envelope-record.ts';
import { findLinkDeliveries, findRecipientRow } from './history.repo.ts';
import { renderEvidenceReport, type StoredHashCheck } from './evidence-report.ts';
import { isFinishedStatus } from '../workflows/workflow-status.ts';

export type HistoryService = ReturnType<typeof createHistoryService>;

/** Who reads a history: the owner sees every row whole; anyone else sees the IP and user agent of its own rows only. */
export type HistoryViewer = { isOwner: true } | { isOwner: false; userId: number; recipientIds: number[] };

/**
 * SPEC.md's history access rule, shared by the history and the evidence report: the owner always; nobody
 * else on a SELF workflow (INVALID_WORKFLOW_OWNER, the error SPEC.md names, which wins over 404); a
 * recipient once the workflow has left DRAFT, OPERATION_IS_NOT_ALLOWED before, and only past its recipient
 * password like every other read of the workflow; everyone else 404.
 */
export async function findWorkflowForHistory(
  db: DbOrTx,
  caller: Caller,
  workflowId: number,
): Promise<{ workflow: WorkflowRow; viewer: HistoryViewer }> {
  const workflow = await findLiveWorkflowById(db, workflowId);
  // Out of a business app's organization, a workflow does not exist for its token (as findWorkflowForCaller).
  if (!workflow || !isWithinReach(caller, workflow)) throw new AppError('NOT_FOUND', 'Workflow not found');
  if (caller.kind === 'user' && workflow.ownerUserId === caller.userId) return { workflow, viewer: { isOwner: true } };
  if (workflow.sequence === 'SELF')
    throw new AppError('INVALID_WORKFLOW_OWNER', 'Only the owner may read the history of a self-signed workflow');
  const rows =
    caller.kind === 'guest'
      ? caller.workflowId === workflow.id
        ? [await findRecipientRow(db, workflow.id, caller.recipientId)].filter((r): r is RecipientRow => r !== null)
        : []
      : await verifiedRowsOfUser(db, workflow.id, caller.userId);
  if (rows.length === 0) throw new AppError('NOT_FOUND', 'Workflow not found');
  // The row the caller acts as, chosen as findWorkflowForCaller does: the one that can still act.
  await assertRecipientPasswordPassed(db, caller, {
    isOwner: false,
    recipient: rows.find((r) => r.status !== 'DELEGATED') ?? rows[0],
  });
  if (workflow.status === 'DRAFT')
    throw new AppError(
      'OPERATION_IS_NOT_ALLOWED',
      'The history is available to recipients once the workflow has been sent',
    );
  return { workflow, viewer: { isOwner: false, userId: caller.userId, recipientIds: rows.map((r) => r.id) } };
}

/** A user reaches the history as a recipient only once its email is verified (see findRowsOfUser). */
async function verifiedRowsOfUser(db: DbOrTx, workflowId: number, userId: number): Promise<RecipientRow[]> {
  const { rows, emailVerified } = await findRowsOfUser(db, workflowId, userId);
  return emailVerified ? rows : [];
}

/**
 * The record as `viewer` may see it. A participant other than the owner sees the IP address and user agent
 * only on its own rows (its recipient rows' activities, or what its user did): elsewhere the activity's
 * ipAddress becomes '' (the schema's "not recorded") and userAgent null, and the consent object loses its
 * ipAddress and userAgent members. The chain verdict was computed on the stored rows before masking.
 */
export function recordSeenBy(record: EnvelopeRecord, viewer: HistoryViewer): EnvelopeRecord {
  if (viewer.isOwner) return record;
  const isOwn = (a: EnvelopeRecord['activities'][number]) =>
    a.userId === viewer.userId || (a.recipientId !== null && viewer.recipientIds.includes(a.recipientId));
  return {
    ...record,
    activities: record.activities.map((a) => {
      if (isOwn(a)) return a;
      const consent =
        a.consent !== null && typeof a.consent === 'object'
          ? withoutNetworkDetails(a.consent as Record<string, unknown>)
          : a.consent;
      return { ...a, ipAddress: '', userAgent: null, consent };
    }),
  };
}

function withoutNetworkDetails(consent: Record<string, unknown>): Record<string, unknown> {
  const { ipAddress: _ipAddress, userAgent: _userAgent, ...rest } = consent;
  return rest;
}

export function createHistoryService(deps: {
  db: Db;
  blobs: BlobStore;
  seal: Pick<PlatformSeal, 'identity'>;
  seals: SealWaiter;
}) {
  return { getHistory, getEvidenceReport };

  async function getHistory(caller: Caller, workflowId: number): Promise<EnvelopeRecord> {
    const { workflow, viewer } = await findWorkflowForHistory(deps.db, caller, workflowId);
    return recordSeenBy(await loadEnvelopeRecord(deps.db, workflow), viewer);
  }

  /** The HTML audit report; only once COMPLETED (RUNTIME.md). */
  async function getEvidenceReport(caller: Caller, workflowId: number): Promise<string> {
    const { workflow: found, viewer } = await findWorkflowForHistory(deps.db, caller, workflowId);
    // Asked for while the seal is pending: wait for it, so the report shows the sealed files (or FAILED).
    const workflow = await deps.seals.awaitSeal(found);
    if (!isFinishedStatus(workflow.status))
      throw new AppError(
        'INVALID_WORKFLOW_STATUS',
        `The evidence report is available once the workflow is COMPLETED (or APPROVED); it is ${workflow.status}`,
      );
    const record = recordSeenBy(await loadEnvelopeRecord(deps.db, workflow), viewer);
    const storedHashes = new Map<string, StoredHashCheck>();
    for (const document of record.documents) {
      for (const key of [document.blobKey, document.sealedBlobKey]) {
        if (key && !storedHashes.has(key)) storedHashes.set(key, await checkStoredBlob(key));
      }
    }
    const linkDeliveries = await findLinkDeliveries(deps.db, workflow.id);
    return renderEvidenceReport({
      record,
      storedHashes,
      linkDeliveries,
      certificate: await deps.seal.identity(),
      generatedAt: new Date(),
    });
  }

  /** Re-hashes a stored file as the storage holds it (not a cached copy): the key claims its SHA-256, this shows the bytes still have it. */
  async function checkStoredBlob(key: string): Promise<StoredHashCheck> {
    if (!(await deps.blobs.has(key))) return 'missing';
    const bytes = await deps.blobs.getStored(key);
    return crypto.createHash('sha256').update(bytes).digest('hex') === key ? 'verified' : 'mismatch';
  }
}
