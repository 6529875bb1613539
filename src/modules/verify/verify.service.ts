import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '../../errors.ts';
import type { Db } from '../../platform/db/client.ts';
import type { PlatformSeal } from '../../platform/signing/platform-seal.ts';
import { VerificationLimitError, type PdfVerifier } from '../../platform/crypto/pdf-verifier.ts';
import type { SignatureVerdict } from '../../platform/crypto/verify-pdf.ts';
import { hasPdfHeader } from '../../platform/pdf/inspect-pdf.ts';
import { QueueFullError } from '../../platform/pdf/bounded-queue.ts';
import { TooManySignaturesError, UnreadablePdfError } from '../../platform/pdf/read-signatures.ts';
import { VERIFY_PER_ADDRESS, longestLock, recordAttempts } from '../../platform/limits/attempts.ts';
import { BlobTooLargeError } from '../../platform/storage/blob-store.ts';
import { findSealedDocumentByHash } from './verify.repo.ts';
import type { VerifyResponse } from './verify.schemas.ts';

export const VERIFY_MAX_BYTES = 25 * 1024 * 1024;
/**
 * RUNTIME.md "Limits and status codes": a file holding more signatures is refused before any is checked (each
 * costs a CMS check and, on the same range, nothing more: see platform/pdf/signed-ranges.ts).
 */
export const VERIFY_MAX_SIGNATURES = 50;

/**
 * POST /verify/v1: what the signatures of an uploaded PDF say, checked here, and whether the file is byte for
 * byte a document this service sealed. The upload is read into memory (at most 25 MB, hashed as it arrives) and
 * never written anywhere: staging it on disk and reading it back cost a 20 MB write, a read and a copy. The file
 * is then handed to `checker`, which reads and checks its signatures in a worker thread within a CPU-time budget,
 * so no file, whatever it holds, holds the event loop, and each costs at most that budget.
 */
export function createVerifyService(deps: { db: Db; seal: Pick<PlatformSeal, 'identity'>; checker: PdfVerifier }) {
  let anchors: Promise<Uint8Array[]> | null = null;
  const trustAnchors = () => (anchors ??= deps.seal.identity().then((identity) => [identity.chainDer.at(-1)!]));

  return { assertUnderLimit, verify };

  /** Counts the request against its address; over the limit: 503 with Retry-After (SPEC.md keeps 429 for the OTP throttle). */
  async function assertUnderLimit(address: string): Promise<void> {
    const seconds = await longestLock(deps.db, [[VERIFY_PER_ADDRESS, address]]);
    if (seconds !== null)
      throw new AppError(
        'VERIFY_RATE_LIMITED',
        'Too many verifications from this address; try again later',
        undefined,
        { retryAfterSeconds: seconds },
      );
    await recordAttempts(deps.db, [[VERIFY_PER_ADDRESS, address]]);
  }

  /** `truncated` tells whether the multipart parser cut the file at its 25 MB limit (it stops the stream quietly). */
  async function verify(stream: Readable, truncated: () => boolean): Promise<VerifyResponse> {
    let upload;
    try {
      upload = await readCapped(stream, VERIFY_MAX_BYTES);
    } catch (error) {
      if (error instanceof BlobTooLargeError)
        throw new AppError('INVALID_DOCUMENT_SIZE', 'The file is larger than 25 MB');
      throw error;
    }
    if (truncated()) throw new AppError('INVALID_DOCUMENT_SIZE', 'The file is larger than 25 MB');
    const { bytes } = upload;
    if (bytes.length === 0) throw new AppError('INVALID_DOCUMENT_SIZE', 'The file is empty');
    if (!hasPdfHeader(bytes)) throw new AppError('INVALID_DOCUMENT_TYPE', 'The file is not a PDF');
    let verdicts: SignatureVerdict[];
    try {
      // The bytes move to the worker; only their SHA-256 (taken as they arrived) is needed here afterwards.
      verdicts = await deps.checker.verify(bytes, await trustAnchors(), VERIFY_MAX_SIGNATURES);
    } catch (error) {
      throw checkFailure(error, deps.checker);
    }
    const record = await findSealedDocumentByHash(deps.db, upload.sha256);
    return {
      signatures: verdicts.map(toSignatureResponse),
      platformRecord: record
        ? {
            workflowId: record.workflowId,
            completedAt: record.completedAt?.toISOString() ?? null,
            documentName: record.documentName,
          }
        : null,
    };
  }
}

function checkFailure(error: unknown, checker: PdfVerifier): unknown {
  if (error instanceof TooManySignaturesError) {
    return new AppError(
      'TOO_MANY_SIGNATURES',
      `The PDF holds more than ${error.limit} signatures; at most ${error.limit} are verified`,
      { limit: error.limit },
    );
  }
  if (error instanceof UnreadablePdfError) return new AppError('INVALID_PDF', error.message);
  if (error instanceof VerificationLimitError) {
    // Starved of processor time within its budget: the service is busy, not the file at fault.
    if (error.limit === 'overloaded')
      return new AppError('SERVICE_UNAVAILABLE', error.message, undefined, {
        retryAfterSeconds: checker.retryAfterSeconds,
      });
    // A file whose structure costs more than a verification may spend is refused as unreadable, with the limit.
    return new AppError(
      'INVALID_PDF',
      error.message,
      error.limit === 'memory' ? { memoryLimitMb: checker.maxHeapMb } : { cpuLimitMs: checker.cpuLimitMs },
    );
  }
  if (error instanceof QueueFullError) {
    return new AppError('SERVICE_UNAVAILABLE', 'Too many verifications are running; try again shortly', undefined, {
      retryAfterSeconds: checker.retryAfterSeconds,
    });
  }
  return error;
}

function toSignatureResponse(verdict: SignatureVerdict): VerifyResponse['signatures'][number] {
  return {
    fieldName: verdict.fieldName,
    signerName: verdict.signerName,
    signedAt: verdict.signedAt?.toISOString() ?? null,
    timestamp: verdict.timestamp?.toISOString() ?? null,
    coversWholeDocument: verdict.coversWholeDocument,
    integrity: verdict.integrity,
    problem: verdict.problem,
    kind: verdict.kind,
    certificate: verdict.certificate
      ? {
          ...verdict.certificate,
          notBefore: verdict.certificate.notBefore.toISOString(),
          notAfter: verdict.certificate.notAfter.toISOString(),
        }
      : null,
  };
}

export type VerifyService = ReturnType<typeof createVerifyService>;

/** The whole stream in one buffer and its hex SHA-256; BlobTooLargeError as soon as more than maxBytes arrive. */
async function readCapped(stream: Readable, maxBytes: number): Promise<{ bytes: Uint8Array; sha256: string }> {
  const hash = crypto.createHash('sha256');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      stream.destroy();
      throw new BlobTooLargeError(maxBytes);
    }
    hash.update(chunk);
    chunks.push(chunk);
  }
  const joined = Buffer.concat(chunks, size);
  return { bytes: new Uint8Array(joined.buffer, joined.byteOffset, joined.length), sha256: hash.digest('hex') };
}
