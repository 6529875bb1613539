import crypto from 'node:crypto';
import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
import { loadSealIdentity } from '../../platform/crypto/seal-identity.ts';
import { findRowsOfUser, type WorkflowRow } from '../workflows/workflow-access.ts';
import type { SealWaiter } from '../signing/seal-waiter.ts';
import { loadEnvelopeRecord, type EnvelopeRecord } from './envelope-record.ts';
import { findLiveWorkflow, findRecipientRow } from './history.repo.ts';
import { renderEvidenceReport, type StoredHashCheck } from './evidence-report.ts';

export type HistoryService = ReturnType<typeof createHistoryService>;

/**
 * SPEC.md's history access rule, shared by the history and the evidence report: the owner always; nobody
 * else on a SELF workflow (INVALID_WORKFLOW_OWNER, the error SPEC.md names, which wins over 404); a
 * recipient once the workflow has left DRAFT, OPERATION_IS_NOT_ALLOWED before; everyone else 404.
 */
export async function findWorkflowForHistory(db: DbOrTx, caller: Caller, workflowId: number): Promise<WorkflowRow> {
  const workflow = await findLiveWorkflow(db, workflowId);
  if (!workflow) throw new AppError('NOT_FOUND', 'Workflow not found');
  if (caller.kind === 'user' && workflow.ownerUserId === caller.userId) return workflow;
  if (workflow.sequence === 'SELF') throw new AppError('INVALID_WORKFLOW_OWNER', 'Only the owner may read the history of a self-signed workflow');
  const isRecipient = caller.kind === 'guest'
    ? caller.workflowId === workflow.id && (await findRecipientRow(db, workflow.id, caller.recipientId)) !== null
    : await isVerifiedRecipient(db, workflow.id, caller.userId);
  if (!isRecipient) throw new AppError('NOT_FOUND', 'Workflow not found');
  if (workflow.status === 'DRAFT') throw new AppError('OPERATION_IS_NOT_ALLOWED', 'The history is available to recipients once the workflow has been sent');
  return workflow;
}

/** A user reaches the history as a recipient only once its email is verified (see findRowsOfUser). */
async function isVerifiedRecipient(db: DbOrTx, workflowId: number, userId: number): Promise<boolean> {
  const { rows, emailVerified } = await findRowsOfUser(db, workflowId, userId);
  return rows.length > 0 && emailVerified;
}

export function createHistoryService(deps: { db: Db; blobs: BlobStore; dataDir: string; seals: SealWaiter }) {
  return { getHistory, getEvidenceReport };

  async function getHistory(caller: Caller, workflowId: number): Promise<EnvelopeRecord> {
    const workflow = await findWorkflowForHistory(deps.db, caller, workflowId);
    return loadEnvelopeRecord(deps.db, workflow);
  }

  /** The HTML audit report; only once COMPLETED (RUNTIME.md). */
  async function getEvidenceReport(caller: Caller, workflowId: number): Promise<string> {
    // Asked for while the seal is pending: wait for it, so the report shows the sealed files (or FAILED).
    const workflow = await deps.seals.awaitSeal(await findWorkflowForHistory(deps.db, caller, workflowId));
    if (workflow.status !== 'COMPLETED') throw new AppError('INVALID_WORKFLOW_STATUS', `The evidence report is available once the workflow is COMPLETED; it is ${workflow.status}`);
    const record = await loadEnvelopeRecord(deps.db, workflow);
    const storedHashes = new Map<string, StoredHashCheck>();
    for (const document of record.documents) {
      for (const key of [document.blobKey, document.sealedBlobKey]) {
        if (key && !storedHashes.has(key)) storedHashes.set(key, await checkStoredBlob(key));
      }
    }
    return renderEvidenceReport({ record, storedHashes, certificate: await loadSealIdentity(deps.dataDir), generatedAt: new Date() });
  }

  /** Re-hashes a stored file: the key claims its SHA-256, this shows the bytes still have it. */
  async function checkStoredBlob(key: string): Promise<StoredHashCheck> {
    if (!(await deps.blobs.has(key))) return 'missing';
    const bytes = await deps.blobs.get(key);
    return crypto.createHash('sha256').update(bytes).digest('hex') === key ? 'verified' : 'mismatch';
  }
}
