import { zipSync } from 'fflate';
import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
import { appendSignature } from '../../platform/signing/append-signature.ts';
import type { PlatformSeal } from '../../platform/signing/platform-seal.ts';
import { loadEnvelopeRecord, type EnvelopeRecord } from '../history/envelope-record.ts';
import { findWorkflowDocument, findWorkflowDocuments, type DocumentRow } from '../documents/documents.service.ts';
import { recordSeenBy, type HistoryViewer } from '../history/history.service.ts';
import { findWorkflowForCaller, type WorkflowRow } from '../workflows/workflow-access.ts';
import { SEAL_RETRY_AFTER_SECONDS, type SealWaiter } from '../signing/seal-waiter.ts';
import { renderCertificateOfCompletion } from './certificate-of-completion.ts';
import { isFinishedStatus } from '../workflows/workflow-status.ts';

export type DownloadOption = 'downloadDocument' | 'downloadAll' | 'downloadCoc';
export type DownloadFile = { bytes: Uint8Array; contentType: string; filename: string };
export type DownloadService = ReturnType<typeof createDownloadService>;

export function createDownloadService(deps: { db: Db; blobs: BlobStore; seal: Pick<PlatformSeal, 'signer'>; seals: SealWaiter }) {
  return { download };

  /**
   * Owner or recipient of the workflow (a finished recipient's signing-link token too); DRAFT workflows
   * only for their owner. Documents are the sealed files once sealed, else the uploaded source. Asked for
   * while a COMPLETED workflow's seal is pending, every option waits for the seal (seal-waiter.ts), so what a
   * client gets after reading COMPLETED is the sealed result.
   */
  async function download(caller: Caller, workflowId: number, option: DownloadOption, documentId?: number): Promise<DownloadFile> {
    if (option === 'downloadDocument' && documentId === undefined) {
      throw new AppError('BAD_REQUEST_BODY', 'documentId is required when selectedOption is downloadDocument');
    }
    const access = await findWorkflowForCaller(deps.db, caller, workflowId);
    const workflow = await deps.seals.awaitSeal(access.workflow);
    // The certificate lists IP addresses: a participant other than the owner sees only its own (as in the history).
    const viewer: HistoryViewer = access.isOwner ? { isOwner: true } : { isOwner: false, userId: caller.userId, recipientIds: access.recipient ? [access.recipient.id] : [] };
    if (option === 'downloadDocument') return downloadDocument(workflow, documentId!);
    if (option === 'downloadCoc') return downloadCertificate(workflow, viewer);
    return downloadAll(workflow, viewer);
  }

  async function downloadDocument(workflow: WorkflowRow, documentId: number): Promise<DownloadFile> {
    const document = await findWorkflowDocument(deps.db, workflow.id, documentId);
    if (!document) throw new AppError('NOT_FOUND', 'Document not found in this workflow');
    return { bytes: await documentBytes(workflow, document), contentType: 'application/pdf', filename: pdfName(document.name) };
  }

  async function downloadCertificate(workflow: WorkflowRow, viewer: HistoryViewer): Promise<DownloadFile> {
    assertCompleted(workflow);
    const bytes = await certificateOf(recordSeenBy(await loadEnvelopeRecord(deps.db, workflow), viewer));
    return { bytes, contentType: 'application/pdf', filename: certificateName(workflow) };
  }

  /** Every document, plus the certificate of completion once COMPLETED; before that the source files only. */
  async function downloadAll(workflow: WorkflowRow, viewer: HistoryViewer): Promise<DownloadFile> {
    const entries: Record<string, [Uint8Array, { level: 0 }]> = {};
    const names = new Set<string>();
    const add = (name: string, bytes: Uint8Array) => {
      const unique = uniqueName(name, names);
      names.add(unique.toLowerCase());
      // PDF streams are already compressed; storing them keeps the zip fast.
      entries[unique] = [bytes, { level: 0 }];
    };
    if (isFinishedStatus(workflow.status)) {
      const record = await loadEnvelopeRecord(deps.db, workflow);
      for (const document of record.documents) add(pdfName(document.name), await documentBytes(workflow, document));
      add(certificateName(workflow), await certificateOf(recordSeenBy(record, viewer)));
    } else {
      for (const document of await findWorkflowDocuments(deps.db, workflow.id)) add(pdfName(document.name), await documentBytes(workflow, document));
    }
    return { bytes: zipSync(entries), contentType: 'application/zip', filename: `${safeBaseName(workflow.name, 'workflow')}.zip` };
  }

  /**
   * The sealed file when there is one. A COMPLETED workflow whose seal failed has no final file (the source
   * lacks the signatures), so that is refused rather than answered with the unsigned original.
   */
  async function documentBytes(workflow: WorkflowRow, document: DocumentRow): Promise<Uint8Array> {
    if (document.sealedBlobKey) return deps.blobs.get(document.sealedBlobKey);
    if (isFinishedStatus(workflow.status)) {
      if (workflow.sealStatus === 'FAILED') {
        throw new AppError('SEAL_FAILED', 'Sealing of this workflow failed after every retry; the signed document is not available', { detail: workflow.sealError ?? '' });
      }
      // Unreachable after awaitSeal() unless the row changed under us: never pass the source off as the result.
      throw new AppError('SERVICE_UNAVAILABLE', 'The signed document is still being sealed; try again shortly', undefined, { retryAfterSeconds: SEAL_RETRY_AFTER_SECONDS });
    }
    return deps.blobs.get(document.blobKey);
  }

  async function certificateOf(record: EnvelopeRecord): Promise<Uint8Array> {
    const unsealed = await renderCertificateOfCompletion(record, new Date());
    return appendSignature(unsealed, await deps.seal.signer({ reason: 'Certificate of completion' }));
  }
}

function assertCompleted(workflow: WorkflowRow): void {
  if (!isFinishedStatus(workflow.status)) {
    throw new AppError('INVALID_WORKFLOW_STATUS', `The certificate of completion exists once the workflow is COMPLETED; it is ${workflow.status}`);
  }
}

/** A file name safe in a header, a zip and every file system: no path, quotes or control characters. */
export function safeBaseName(name: string, fallback: string): string {
  const cleaned = name
    .replace(/\.pdf$/i, '')
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 100)
    .trim();
  return cleaned || fallback;
}

function pdfName(name: string): string {
  return `${safeBaseName(name, 'document')}.pdf`;
}

function certificateName(workflow: WorkflowRow): string {
  return `Certificate of completion ${workflow.id}.pdf`;
}

function uniqueName(name: string, taken: Set<string>): string {
  if (!taken.has(name.toLowerCase())) return name;
  const dot = name.lastIndexOf('.');
  const [base, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; ; n++) {
    const candidate = `${base} (${n})${extension}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
