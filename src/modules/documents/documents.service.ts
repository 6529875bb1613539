import fsp from 'node:fs/promises';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../errors.ts';
import type { UserCaller } from '../../http/authenticate.ts';
import type { RequestContext } from '../../http/request-context.ts';
import type { Db, DbOrTx } from '../../platform/db/client.ts';
import { QueueFullError } from '../../platform/pdf/bounded-queue.ts';
import {
  checkWordContent,
  ConversionFailedError,
  ConversionUnavailableError,
  type WordConverter,
  type WordFormat,
} from '../../platform/pdf/convert-word.ts';
import { hasPdfHeader, PdfRejectedError, type PageSize, type PdfInspector } from '../../platform/pdf/inspect-pdf.ts';
import { PdfRenderError, type ThumbnailRenderer } from '../../platform/pdf/render-thumbnail.ts';
import { DOCUMENT_UPLOADS_PER_ACCOUNT, longestLock, recordAttempts } from '../../platform/limits/attempts.ts';
import { BlobTooLargeError, type BlobStore, type StagedBlob } from '../../platform/storage/blob-store.ts';
import { recordActivity } from '../activities/activities.service.ts';
import { findOwnFolder } from '../folders/folders.service.ts';
import { assertActiveMemberOf } from '../organizations/organization-membership.ts';
import { findUserById } from '../users/users.directory.ts';
import { assertDraft, assertOwner, findWorkflowForCaller, type WorkflowAccess } from '../workflows/workflow-access.ts';
import { requireText } from '../workflows/workflow-ids.ts';
import { createDraftWorkflow } from '../workflows/workflow-core.ts';
import {
  copyDocumentRows,
  findDocument,
  findDocumentOfWorkflow,
  findDocumentsOfWorkflow,
  findFieldsOfDocument,
  insertDocument,
  nextDocumentPosition,
  setDocumentPicture,
  updateDocument,
  type DocumentRow,
} from './documents.repo.ts';

export type { DocumentRow } from './documents.repo.ts';
import type { UploadQuery } from './documents.schemas.ts';
import {
  displayName,
  fieldsOutside,
  formatOf,
  NAME_MAX,
  nameOf,
  parseTimeZone,
  resolveMode,
  tooLarge,
  type DocumentFormat,
} from './document-rules.ts';

/** An uploaded file, staged in the blob store's scratch area until the request is accepted. */
export type ReceivedFile = { fileName: string; format: DocumentFormat; staged: StagedBlob };

/** What the stored document will be: always a PDF (Word files are converted), with its page geometry. */
type PreparedPdf = { staged: StagedBlob; pages: number; pageSizes: PageSize[]; thumbnailBase64: string };

export type DocumentServiceDeps = {
  db: Db;
  blobs: BlobStore;
  uploadLimitBytes: number;
  /** Sandboxed LibreOffice, a few at a time with a bounded waiting line. */
  converter: WordConverter;
  /** Page-1 thumbnails in worker threads, with time and memory caps and a bounded waiting line. */
  thumbnails: ThumbnailRenderer;
  /** The check of each PDF (uploaded or converted) in worker threads, under structure, time and memory limits. */
  inspector: PdfInspector;
  /** Uploads and replacements one account may start per minute (UPLOADS_PER_MINUTE). */
  uploadsPerMinute: number;
};

export function createDocumentService(deps: DocumentServiceDeps) {
  const { db, blobs } = deps;
  return { admitUpload, receive, discard, upload, replace, rename };

  /**
   * Counts an upload or replacement against the account's per-minute allowance before its file is read; refuses
   * with 429 UPLOAD_RATE_LIMITED and Retry-After once the allowance is used (until a minute after the last one
   * counted). The count lives in the database, so every instance shares it; two instances admitting at the same
   * moment may let one extra through.
   */
  async function admitUpload(caller: UserCaller): Promise<void> {
    const check: [typeof DOCUMENT_UPLOADS_PER_ACCOUNT, string] = [
      { ...DOCUMENT_UPLOADS_PER_ACCOUNT, max: deps.uploadsPerMinute },
      String(caller.userId),
    ];
    const waitSeconds = await longestLock(db, [check]);
    if (waitSeconds !== null) {
      throw new AppError(
        'UPLOAD_RATE_LIMITED',
        `This account has started ${deps.uploadsPerMinute} uploads within a minute, the most allowed; try again in ${waitSeconds} s`,
        undefined,
        { retryAfterSeconds: waitSeconds },
      );
    }
    await recordAttempts(db, [check]);
  }

  /**
   * Streams an upload into the scratch area. The extension decides the format; anything other than pdf, doc or
   * docx (or, for a replacement, pdf) is refused before a byte is kept, and the rest of the stream is drained
   * so the client still gets the answer.
   */
  async function receive(
    fileName: string,
    stream: Readable,
    accept: 'any' | 'pdf',
    isTruncated: () => boolean = () => false,
  ): Promise<ReceivedFile> {
    const format = formatOf(fileName);
    const accepted = accept === 'pdf' ? format === 'pdf' : format !== null;
    if (!format || !accepted) {
      await pipeline(stream, new Writable({ write: (_chunk, _encoding, done) => done() }));
      throw new AppError(
        'INVALID_DOCUMENT_TYPE',
        accept === 'pdf'
          ? `"${fileName}" is not a PDF: a document's file can only be replaced by a .pdf file`
          : `"${fileName}" is not a .pdf, .doc or .docx file`,
      );
    }
    let staged: StagedBlob;
    try {
      staged = await blobs.stage(stream, deps.uploadLimitBytes);
    } catch (error) {
      if (error instanceof BlobTooLargeError) throw tooLarge(deps.uploadLimitBytes);
      throw error;
    }
    // The multipart parser cuts a file at the limit and flags it instead of failing the stream.
    if (isTruncated()) {
      await blobs.discard(staged);
      throw tooLarge(deps.uploadLimitBytes);
    }
    return { fileName, format, staged };
  }

  async function discard(file: ReceivedFile | null): Promise<void> {
    if (file) await blobs.discard(file.staged);
  }

  /**
   * POST /document/v1. Everything that can refuse the request runs before anything is written: the options,
   * the target workflow or folder, the file's type and content, the conversion. The rows, the activity and the
   * blob then commit together (the blob is moved into place last inside the transaction, so a failed
   * transaction stores nothing).
   */
  async function upload(
    caller: UserCaller,
    file: ReceivedFile,
    query: UploadQuery & { formTimeZone?: string },
    context: RequestContext,
  ) {
    const prepared: PreparedPdf[] = [];
    try {
      // The workflow settings matter only for a new workflow (SPEC.md); when appending they are not even read.
      const settings =
        query.workflowId === undefined
          ? {
              timeZone: parseTimeZone(query.formTimeZone ?? query.timeZone),
              ...resolveMode(query.sequence, query.signType),
            }
          : null;
      if (query.workflowId !== undefined) {
        await checkTarget(db, await findWorkflowForCaller(db, caller, query.workflowId));
      } else if (query.folderId !== undefined && !(await findOwnFolder(db, caller.userId, query.folderId))) {
        throw new AppError('NOT_FOUND', 'Folder not found');
      }
      const pdf = await prepare(file);
      prepared.push(pdf);

      return await db.transaction(async (tx) => {
        const user = await findUserById(tx, caller.userId);
        if (!user) throw new AppError('UNAUTHORIZED', 'The signed-in user no longer exists');
        const baseName = nameOf(file.fileName);
        let workflowId: number;
        let position = 0;
        if (!settings) {
          const access = await findWorkflowForCaller(tx, caller, query.workflowId!, { lock: true });
          await checkTarget(tx, access);
          workflowId = access.workflow.id;
          position = await nextDocumentPosition(tx, workflowId);
        } else {
          if (
            query.folderId !== undefined &&
            !(await findOwnFolder(tx, caller.userId, query.folderId, { lock: true }))
          ) {
            throw new AppError('NOT_FOUND', 'Folder not found');
          }
          const { workflow } = await createDraftWorkflow(tx, {
            ownerUserId: caller.userId,
            organizationId: caller.organizationId,
            name: baseName,
            ...settings,
            folderId: query.folderId ?? null,
            owner: { userId: user.id, name: user.name, email: user.email },
          });
          workflowId = workflow.id;
        }
        const document = await insertDocument(tx, {
          workflowId,
          name: baseName,
          position,
          blobKey: pdf.staged.key,
          size: pdf.staged.size,
          pages: pdf.pages,
          pageSizes: pdf.pageSizes,
          thumbnailBase64: pdf.thumbnailBase64,
        });
        await recordActivity(tx, {
          workflowId,
          kind: 'DOCUMENT_UPLOADED',
          action: 'Created',
          sentence: `${user.name} uploaded ${displayName(file.fileName)}`,
          userId: user.id,
          userName: user.name,
          status: 'DRAFT',
          context,
        });
        await blobs.commit(pdf.staged);
        return { id: document.id, workflowId, thumbnailBase64: pdf.thumbnailBase64 };
      });
    } finally {
      await discardAll(file, prepared);
    }
  }

  /**
   * PUT /document/v1/{docId} with a file: owner, DRAFT, PDF only. Fields keep their places, so every field of
   * the document must still lie on a page of the new file; otherwise the replacement is refused and the fields
   * that would fall off are named (move or delete them first). The name and position stay.
   */
  async function replace(caller: UserCaller, documentId: number, file: ReceivedFile): Promise<number> {
    const prepared: PreparedPdf[] = [];
    try {
      await editableDocument(db, caller, documentId);
      const pdf = await prepare(file);
      prepared.push(pdf);
      return await db.transaction(async (tx) => {
        await editableDocument(tx, caller, documentId, { lock: true });
        const outside = fieldsOutside(await findFieldsOfDocument(tx, documentId), pdf.pageSizes);
        if (outside.length > 0) {
          throw new AppError(
            'FIELDS_OUTSIDE_DOCUMENT',
            `Field${outside.length > 1 ? 's' : ''} ${outside.map((f) => f.id).join(', ')} would lie outside the pages of the new file (${pdf.pages} page${pdf.pages > 1 ? 's' : ''}); move or delete ${outside.length > 1 ? 'them' : 'it'} first`,
            { fieldIds: outside.map((f) => f.id) },
          );
        }
        await updateDocument(tx, documentId, {
          blobKey: pdf.staged.key,
          size: pdf.staged.size,
          pages: pdf.pages,
          pageSizes: pdf.pageSizes,
          thumbnailBase64: pdf.thumbnailBase64,
          // The picture of the old file's page 1 is not this file's: the new one is drawn when first asked for.
          pictureBlobKey: null,
        });
        await blobs.commit(pdf.staged);
        return documentId;
      });
    } finally {
      await discardAll(file, prepared);
    }
  }

  /** PUT /document/v1/{docId} with {name}: owner; any status but VOID (read-only), like a workflow rename. */
  async function rename(caller: UserCaller, documentId: number, rawName: string): Promise<number> {
    const name = requireText(rawName, 'name');
    if (name.length > NAME_MAX)
      throw new AppError(
        'BAD_REQUEST_BODY',
        `name must be 1-${NAME_MAX} characters after trimming (got ${name.length})`,
      );
    return db.transaction(async (tx) => {
      const document = await findDocument(tx, documentId);
      if (!document) throw new AppError('NOT_FOUND', 'Document not found');
      const access = await workflowOfDocument(tx, caller, document.workflowId, true);
      assertOwner(access);
      if (access.workflow.status === 'VOID')
        throw new AppError('INVALID_WORKFLOW_STATUS', 'A VOID workflow is read-only');
      await updateDocument(tx, documentId, { name });
      return documentId;
    });
  }

  // -------------------------------------------------------------------------------------------------------

  async function editableDocument(
    tx: DbOrTx,
    caller: UserCaller,
    documentId: number,
    options: { lock?: boolean } = {},
  ) {
    const document = await findDocument(tx, documentId);
    if (!document) throw new AppError('NOT_FOUND', 'Document not found');
    const access = await workflowOfDocument(tx, caller, document.workflowId, options.lock ?? false);
    assertOwner(access);
    assertDraft(access.workflow);
    // Re-read under the lock: a concurrent delete may have removed it meanwhile.
    if (options.lock && !(await findDocument(tx, documentId))) throw new AppError('NOT_FOUND', 'Document not found');
    return document;
  }

  /** Validates and, for Word, converts; returns the PDF to store. Throws the API's errors; writes nothing visible. */
  async function prepare(file: ReceivedFile): Promise<PreparedPdf> {
    if (file.staged.size === 0) throw new AppError('INVALID_DOCUMENT_SIZE', `"${file.fileName}" is empty`);
    // The file once in memory (the parser needs it whole), without a second copy; the thumbnail worker reads the
    // staged file itself, so an accepted upload costs about its own size in memory, not several times it.
    const read = await fsp.readFile(file.staged.path);
    const original = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
    if (file.format === 'pdf') {
      if (!hasPdfHeader(original))
        throw new AppError(
          'INVALID_DOCUMENT_TYPE',
          `"${file.fileName}" is named .pdf but is not a PDF (no %PDF- header)`,
        );
      return { staged: file.staged, ...(await readPdf(original, file.staged.path, file.fileName, 'upload')) };
    }
    const problem = checkWordContent(original, file.format);
    if (problem) throw new AppError('INVALID_DOCUMENT_TYPE', `"${file.fileName}" is not a Word document: ${problem}`);
    const pdf = await convert(file);
    const staged = await blobs.stageBytes(pdf);
    try {
      return { staged, ...(await readPdf(pdf, staged.path, file.fileName, 'conversion')) };
    } catch (error) {
      await blobs.discard(staged);
      throw error;
    }
  }

  async function convert(file: ReceivedFile): Promise<Uint8Array> {
    try {
      return await deps.converter.convert(file.staged.path, file.format as WordFormat);
    } catch (error) {
      if (error instanceof QueueFullError) throw busy('Word conversions', deps.converter.retryAfterSeconds);
      if (error instanceof ConversionUnavailableError)
        throw new AppError('DOCUMENT_CONVERSION_UNAVAILABLE', error.message);
      if (error instanceof ConversionFailedError)
        throw new AppError('DOCUMENT_CONVERSION_FAILED', `"${file.fileName}": ${error.message}`);
      throw error;
    }
  }

  /** `bytes` move to the inspection's worker: unusable afterwards (the thumbnail is drawn from `path`). */
  async function readPdf(bytes: Uint8Array, path: string, fileName: string, origin: 'upload' | 'conversion') {
    try {
      const info = await deps.inspector.inspect(bytes).catch((error: unknown) => {
        throw error instanceof QueueFullError ? busy('PDF checks', deps.inspector.retryAfterSeconds) : error;
      });
      // Only the thumbnail: page 1's larger picture is drawn when someone first asks for it (downloads.service.ts).
      const thumbnail = await deps.thumbnails.render({ path }, info.pageSizes[0]);
      return { ...info, thumbnailBase64: Buffer.from(thumbnail).toString('base64') };
    } catch (error) {
      if (error instanceof QueueFullError) throw busy('thumbnail renders', deps.thumbnails.retryAfterSeconds);
      if (origin === 'conversion' && (error instanceof PdfRejectedError || error instanceof PdfRenderError)) {
        throw new AppError(
          'DOCUMENT_CONVERSION_FAILED',
          `"${fileName}" was converted, but the resulting PDF is unusable: ${error.message}`,
        );
      }
      if (error instanceof PdfRenderError)
        throw new AppError('INVALID_PDF', `"${fileName}" cannot be displayed: ${error.message}`);
      if (!(error instanceof PdfRejectedError)) throw error;
      switch (error.reason) {
        case 'signed':
          throw new AppError('DOCUMENT_ALREADY_SIGNED', `"${fileName}": ${error.message}`);
        case 'not-pdf':
          throw new AppError('INVALID_DOCUMENT_TYPE', `"${fileName}": ${error.message}`);
        default:
          throw new AppError('INVALID_PDF', `"${fileName}": ${error.message}`);
      }
    }
  }

  async function discardAll(file: ReceivedFile, prepared: PreparedPdf[]): Promise<void> {
    await blobs.discard(file.staged);
    for (const pdf of prepared) {
      await blobs.discard(pdf.staged);
    }
  }
}

export type DocumentService = ReturnType<typeof createDocumentService>;

/**
 * The documents of one workflow copied into another, inside the caller's transaction (templates: snapshot and
 * instantiation). Returns old document id → new document id.
 */
export async function copyDocuments(
  tx: DbOrTx,
  fromWorkflowId: number,
  toWorkflowId: number,
): Promise<Map<number, number>> {
  return copyDocumentRows(tx, fromWorkflowId, toWorkflowId);
}

// ---------------------------------------------------------------------------------------------------------
// Rules that read the workflow (the pure ones are in document-rules.ts)

/** The document's workflow; a workflow the caller may not see makes the document invisible too (404). */
async function workflowOfDocument(
  tx: DbOrTx,
  caller: UserCaller,
  workflowId: number,
  lock: boolean,
): Promise<WorkflowAccess> {
  try {
    return await findWorkflowForCaller(tx, caller, workflowId, { lock });
  } catch (error) {
    if (error instanceof AppError && error.code === 'NOT_FOUND') throw new AppError('NOT_FOUND', 'Document not found');
    throw error;
  }
}

/** The heavy work's waiting line is full: 503 with Retry-After rather than an unbounded wait. */
function busy(what: string, retryAfterSeconds: number): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `Too many ${what} are waiting on the server; try again in ${retryAfterSeconds} s`,
    undefined,
    { retryAfterSeconds },
  );
}

/**
 * Documents are added only to the caller's own DRAFT workflows, of an organization the caller is still an ACTIVE
 * member of (a removed member's old drafts are not added to: organization-membership.ts).
 */
async function checkTarget(db: DbOrTx, access: WorkflowAccess): Promise<void> {
  assertOwner(access);
  assertDraft(access.workflow);
  await assertActiveMemberOf(db, access.workflow.organizationId, access.workflow.ownerUserId);
}

/** For downloads, history and signing: a workflow's documents in order, and one of them (null when not in it). */
export async function findWorkflowDocuments(db: DbOrTx, workflowId: number): Promise<DocumentRow[]> {
  return findDocumentsOfWorkflow(db, workflowId);
}

export async function findWorkflowDocument(
  db: DbOrTx,
  workflowId: number,
  documentId: number,
): Promise<DocumentRow | null> {
  return findDocumentOfWorkflow(db, workflowId, documentId);
}

/** For the page-image route: page 1's picture of the document's file `fileKey`, drawn on first ask and stored. */
export async function recordDocumentPicture(
  db: DbOrTx,
  documentId: number,
  fileKey: string,
  pictureKey: string,
): Promise<void> {
  await setDocumentPicture(db, documentId, fileKey, pictureKey);
}
