import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { zipSync } from 'fflate';
import { AppError } from '../../errors.ts';
import type { Caller } from '../../http/authenticate.ts';
import type { Db } from '../../platform/db/client.ts';
import type { BlobStore } from '../../platform/storage/blob-store.ts';
import { appendSignature } from '../../platform/signing/append-signature.ts';
import type { PlatformSeal } from '../../platform/signing/platform-seal.ts';
import { loadEnvelopeRecord, type EnvelopeRecord } from '../history/envelope-record.ts';
import {
  findWorkflowDocument,
  findWorkflowDocuments,
  recordDocumentPicture,
  type DocumentRow,
} from '../documents/documents.service.ts';
import { recordSeenBy, type HistoryViewer } from '../history/history.service.ts';
import { findWorkflowForCaller, type WorkflowRow } from '../workflows/workflow-access.ts';
import { SEAL_RETRY_AFTER_SECONDS, type SealWaiter } from '../signing/seal-waiter.ts';
import { renderCertificateOfCompletion } from './certificate-of-completion.ts';
import { isFinishedStatus } from '../workflows/workflow-status.ts';
import { QueueFullError } from '../../platform/pdf/bounded-queue.ts';
import { PICTURE_WIDTH, PdfRenderError, type ThumbnailRenderer } from '../../platform/pdf/render-thumbnail.ts';
import { PageImageCache } from './page-image-cache.ts';

/** `pageSize`: the page in points (its visible box), the space its fields' boxes are given in. */
export type PageImage = { documentId: number; etag: string; pageSize: { width: number; height: number } } & (
  | { notModified: true }
  | { jpeg: Uint8Array; width: number }
);

export type DownloadOption = 'downloadDocument' | 'downloadAll' | 'downloadCoc';
/** A file built in memory (a zip, a certificate), or a stored file passed through as a stream (a document). */
export type DownloadFile = { contentType: string; filename: string } & (
  | { bytes: Uint8Array }
  | { stream: Readable; size: number }
);
export type DownloadService = ReturnType<typeof createDownloadService>;

/** Widths a page picture is rendered at: a requested width is rounded up to the next step, so the cache holds few variants. */
const PAGE_IMAGE_WIDTH_STEP = 200;
const PAGE_IMAGE_MAX_WIDTH = 2000;

export function createDownloadService(deps: {
  db: Db;
  blobs: BlobStore;
  seal: Pick<PlatformSeal, 'signer'>;
  seals: SealWaiter;
  renderer: ThumbnailRenderer;
}) {
  const pictures = new PageImageCache();
  /** Page 1 pictures being drawn, by file: asked for together, a file is drawn once. */
  const drawing = new Map<string, Promise<string>>();
  return { download, pageImage };

  /**
   * A JPEG of one page of a document, as downloadDocument would answer it (the sealed file once sealed), `width`
   * pixels wide rounded up to PAGE_IMAGE_WIDTH_STEP. The signing page shows it while its PDF engine loads (the
   * first page of a long document in well under a second). Same access as download. Rendered in the bounded
   * worker pool (503 with Retry-After when it is full) and kept in a bounded memory cache: a file's bytes never
   * change under its key, so a cached picture is never stale.
   */
  async function pageImage(
    caller: Caller,
    workflowId: number,
    documentId: number | undefined,
    page: number,
    width: number,
    ifNoneMatch?: string,
  ): Promise<PageImage> {
    const access = await findWorkflowForCaller(deps.db, caller, workflowId);
    // Without documentId: the workflow's first document (the signing page asks before it has read the list).
    const { workflow, document } =
      documentId !== undefined
        ? await sealedDocument(access.workflow, documentId)
        : await firstDocument(access.workflow);
    if (!document) throw new AppError('NOT_FOUND', 'Document not found in this workflow');
    if (page > document.pages)
      throw new AppError('NOT_FOUND', `The document has ${document.pages} page(s); there is no page ${page}`);
    const key = documentKey(workflow, document);
    // Every upload records each page's size; a row without them (written around the upload) is taken as Letter.
    const size = (document.pageSizes as { width: number; height: number }[])[page - 1] ?? { width: 612, height: 792 };
    const pageSize = { width: size.width, height: size.height };
    // Page 1 of the uploaded file up to PICTURE_WIDTH (a signer's first paint): drawn on the first ask, stored and
    // recorded with the document, then read from storage by every instance.
    if (page === 1 && width <= PICTURE_WIDTH && key === document.blobKey) {
      const pictureKey = document.pictureBlobKey ?? (await drawDocumentPicture(document, pageSize));
      const etag = `"${pictureKey.slice(0, 27)}"`;
      if (ifNoneMatch === etag) return { notModified: true, etag, documentId: document.id, pageSize };
      return { jpeg: await deps.blobs.get(pictureKey), width: PICTURE_WIDTH, etag, documentId: document.id, pageSize };
    }
    const stepped = Math.min(PAGE_IMAGE_MAX_WIDTH, Math.ceil(width / PAGE_IMAGE_WIDTH_STEP) * PAGE_IMAGE_WIDTH_STEP);
    // The file key is its content hash: the tag changes exactly when the picture does (e.g. once the seal is applied).
    const etag = `"${createHash('sha256').update(`${key}:${page}:${stepped}`).digest('base64url').slice(0, 27)}"`;
    if (ifNoneMatch === etag) return { notModified: true, etag, documentId: document.id, pageSize };
    const jpeg = await pictures.get(`${key}:${page}:${stepped}`, () => draw(key, pageSize, { page, width: stepped }));
    return { jpeg, width: stepped, etag, documentId: document.id, pageSize };
  }

  /** A page of a stored file drawn in the bounded worker pool, its refusals as the standard errors. */
  async function draw(
    key: string,
    pageSize: { width: number; height: number },
    at: { page: number; width: number },
  ): Promise<Uint8Array> {
    const bytes = await deps.blobs.get(key);
    try {
      return await deps.renderer.render(bytes, pageSize, at);
    } catch (error) {
      if (error instanceof QueueFullError) {
        throw new AppError('SERVICE_UNAVAILABLE', 'Too many pages are being drawn; try again shortly', undefined, {
          retryAfterSeconds: deps.renderer.retryAfterSeconds,
        });
      }
      // The file was checked at upload; one pdf.js cannot draw now is answered like a missing picture.
      if (error instanceof PdfRenderError)
        throw new AppError('NOT_FOUND', 'This page cannot be drawn; download the document instead');
      throw error;
    }
  }

  /**
   * Page 1 of a document's uploaded file, PICTURE_WIDTH wide, drawn (once per file in this process when asked for
   * together), stored, and recorded on the document row; returns its storage key. Drawn on demand rather than at
   * upload: a document no one looks at (an envelope sent and signed through the API) never pays for it
   * (docs/documents-and-files.md "Thumbnails and page pictures").
   */
  async function drawDocumentPicture(
    document: DocumentRow,
    pageSize: { width: number; height: number },
  ): Promise<string> {
    const fileKey = document.blobKey;
    let running = drawing.get(fileKey);
    if (!running) {
      running = draw(fileKey, pageSize, { page: 1, width: PICTURE_WIDTH })
        .then(async (jpeg) => (await deps.blobs.put(jpeg)).key)
        .finally(() => drawing.delete(fileKey));
      drawing.set(fileKey, running);
    }
    const pictureKey = await running;
    // Every document row that asked records it (copies of one file each have their own row).
    await recordDocumentPicture(deps.db, document.id, fileKey, pictureKey);
    return pictureKey;
  }

  /**
   * Owner or recipient of the workflow (a finished recipient's signing-link token too); DRAFT workflows
   * only for their owner. Documents are the sealed files once sealed, else the uploaded source. Asked for
   * while a COMPLETED workflow's seal is pending, every option waits for the seal (seal-waiter.ts), so what a
   * client gets after reading COMPLETED is the sealed result.
   */
  async function download(
    caller: Caller,
    workflowId: number,
    option: DownloadOption,
    documentId?: number,
  ): Promise<DownloadFile> {
    if (option === 'downloadDocument' && documentId === undefined) {
      throw new AppError('BAD_REQUEST_BODY', 'documentId is required when selectedOption is downloadDocument');
    }
    const access = await findWorkflowForCaller(deps.db, caller, workflowId);
    // One document is served once its own sealed file is stored; the certificate and the zip wait for SEALED.
    if (option === 'downloadDocument') return downloadDocument(access.workflow, documentId!);
    const workflow = await deps.seals.awaitSeal(access.workflow);
    // The certificate lists IP addresses: a participant other than the owner sees only its own (as in the history).
    const viewer: HistoryViewer = access.isOwner
      ? { isOwner: true }
      : { isOwner: false, userId: caller.userId, recipientIds: access.recipient ? [access.recipient.id] : [] };
    if (option === 'downloadCoc') return downloadCertificate(workflow, viewer);
    return downloadAll(workflow, viewer);
  }

  /** The workflow once a pending seal is no longer pending, and its first document. */
  async function firstDocument(found: WorkflowRow): Promise<{ workflow: WorkflowRow; document: DocumentRow | null }> {
    const workflow = await deps.seals.awaitSeal(found);
    return { workflow, document: (await findWorkflowDocuments(deps.db, workflow.id))[0] ?? null };
  }

  /**
   * The workflow and its document `documentId` (null: not one of its documents). While a COMPLETED workflow's seal is
   * pending, waits only until that document's sealed file is stored: the file is final then, though the SEALED commit
   * (the workflow's mark and the completion mails) may still be running.
   */
  async function sealedDocument(
    found: WorkflowRow,
    documentId: number,
  ): Promise<{ workflow: WorkflowRow; document: DocumentRow | null }> {
    const seen: { document?: DocumentRow | null } = {};
    const workflow = await deps.seals.awaitSeal(found, async () => {
      seen.document = await findWorkflowDocument(deps.db, found.id, documentId);
      return Boolean(seen.document?.sealedBlobKey);
    });
    // Not read (no seal was pending), or read before the seal left PENDING: read now.
    const document = seen.document?.sealedBlobKey
      ? seen.document
      : await findWorkflowDocument(deps.db, workflow.id, documentId);
    return { workflow, document };
  }

  async function downloadDocument(found: WorkflowRow, documentId: number): Promise<DownloadFile> {
    const { workflow, document } = await sealedDocument(found, documentId);
    if (!document) throw new AppError('NOT_FOUND', 'Document not found in this workflow');
    // Streamed from the store (a local file or the S3 bucket): a 25 MB contract does not pass through memory whole.
    return {
      ...(await deps.blobs.open(documentKey(workflow, document))),
      contentType: 'application/pdf',
      filename: pdfName(document.name),
    };
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
      for (const document of await findWorkflowDocuments(deps.db, workflow.id))
        add(pdfName(document.name), await documentBytes(workflow, document));
    }
    return {
      bytes: zipSync(entries),
      contentType: 'application/zip',
      filename: `${safeBaseName(workflow.name, 'workflow')}.zip`,
    };
  }

  async function documentBytes(workflow: WorkflowRow, document: DocumentRow): Promise<Uint8Array> {
    return deps.blobs.get(documentKey(workflow, document));
  }

  /**
   * The sealed file when there is one. A COMPLETED workflow whose seal failed has no final file (the source
   * lacks the signatures), so that is refused rather than answered with the unsigned original.
   */
  function documentKey(workflow: WorkflowRow, document: DocumentRow): string {
    if (document.sealedBlobKey) return document.sealedBlobKey;
    if (isFinishedStatus(workflow.status)) {
      if (workflow.sealStatus === 'FAILED') {
        throw new AppError(
          'SEAL_FAILED',
          'Sealing of this workflow failed after every retry; the signed document is not available',
          { detail: workflow.sealError ?? '' },
        );
      }
      // Unreachable after awaitSeal() unless the row changed under us: never pass the source off as the result.
      throw new AppError(
        'SERVICE_UNAVAILABLE',
        'The signed document is still being sealed; try again shortly',
        undefined,
        { retryAfterSeconds: SEAL_RETRY_AFTER_SECONDS },
      );
    }
    return document.blobKey;
  }

  async function certificateOf(record: EnvelopeRecord): Promise<Uint8Array> {
    const unsealed = await renderCertificateOfCompletion(record, new Date());
    return appendSignature(unsealed, await deps.seal.signer({ reason: 'Certificate of completion' }));
  }
}

function assertCompleted(workflow: WorkflowRow): void {
  if (!isFinishedStatus(workflow.status)) {
    throw new AppError(
      'INVALID_WORKFLOW_STATUS',
      `The certificate of completion exists once the workflow is COMPLETED; it is ${workflow.status}`,
    );
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
