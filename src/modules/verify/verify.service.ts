import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type * as pkijs from 'pkijs';
import { AppError } from '../../errors.ts';
import type { Db } from '../../platform/db/client.ts';
import { parseCertificate } from '../../platform/crypto/certificates.ts';
import type { PlatformSeal } from '../../platform/signing/platform-seal.ts';
import { checkPdfSignature } from '../../platform/crypto/verify-signature.ts';
import { hasPdfHeader } from '../../platform/pdf/inspect-pdf.ts';
import { readSignatures, UnreadablePdfError, type PdfSignatureEntry } from '../../platform/pdf/read-signatures.ts';
import { rangeDigests } from '../../platform/pdf/range-digests.ts';
import { longestLock, recordAttempts, type AttemptRule } from '../../platform/limits/attempts.ts';
import { BlobTooLargeError } from '../../platform/storage/blob-store.ts';
import { findSealedDocumentByHash } from './verify.repo.ts';
import type { VerifyResponse } from './verify.schemas.ts';

export const VERIFY_MAX_BYTES = 25 * 1024 * 1024;
/** Verification is public and costs a parse and a hash of up to 25 MB: 30 a minute from one address. */
export const VERIFY_PER_ADDRESS: AttemptRule = { scope: 'verify.address', max: 30, windowSeconds: 60 };

const DOCUMENT_TIMESTAMP = 'ETSI.RFC3161';

/**
 * POST /verify/v1: what the signatures of an uploaded PDF say, checked here, and whether the file is byte for
 * byte a document this service sealed. The upload is read into memory (at most 25 MB, hashed as it arrives) and
 * never written anywhere: staging it on disk and reading it back cost a 20 MB write, a read and a copy.
 */
export function createVerifyService(deps: { db: Db; seal: Pick<PlatformSeal, 'identity'> }) {
  let anchors: Promise<pkijs.Certificate[]> | null = null;
  const trustAnchors = () => (anchors ??= deps.seal.identity().then((identity) => [parseCertificate(identity.chainDer.at(-1)!)]));

  return { assertUnderLimit, verify };

  /** Counts the request against its address; over the limit: 503 with Retry-After (SPEC.md keeps 429 for the OTP throttle). */
  async function assertUnderLimit(address: string): Promise<void> {
    const seconds = await longestLock(deps.db, [[VERIFY_PER_ADDRESS, address]]);
    if (seconds !== null) throw new AppError('SERVICE_UNAVAILABLE', 'Too many verifications from this address; try again later', undefined, { retryAfterSeconds: seconds });
    await recordAttempts(deps.db, [[VERIFY_PER_ADDRESS, address]]);
  }

  /** `truncated` tells whether the multipart parser cut the file at its 25 MB limit (it stops the stream quietly). */
  async function verify(stream: Readable, truncated: () => boolean): Promise<VerifyResponse> {
    let upload;
    try {
      upload = await readCapped(stream, VERIFY_MAX_BYTES);
    } catch (error) {
      if (error instanceof BlobTooLargeError) throw new AppError('INVALID_DOCUMENT_SIZE', 'The file is larger than 25 MB');
      throw error;
    }
    if (truncated()) throw new AppError('INVALID_DOCUMENT_SIZE', 'The file is larger than 25 MB');
    const { bytes } = upload;
    if (bytes.length === 0) throw new AppError('INVALID_DOCUMENT_SIZE', 'The file is empty');
    if (!hasPdfHeader(bytes)) throw new AppError('INVALID_DOCUMENT_TYPE', 'The file is not a PDF');
    let entries: PdfSignatureEntry[];
    try {
      entries = await readSignatures(bytes);
    } catch (error) {
      if (error instanceof UnreadablePdfError) throw new AppError('INVALID_PDF', error.message);
      throw error;
    }
    const trusted = await trustAnchors();
    const sound = entries.filter((entry) => rangeIsSound(bytes, entry.byteRange));
    // Digests per algorithm, computed on first need for all sound signatures in one pass over the file.
    const digests = new Map<string, Buffer[]>();
    const digestOf = (entry: PdfSignatureEntry) => (algorithm: string) => {
      if (!digests.has(algorithm)) digests.set(algorithm, rangeDigests(bytes, sound.map((e) => e.byteRange), algorithm));
      return digests.get(algorithm)![sound.indexOf(entry)];
    };
    const signatures = [];
    for (const entry of entries) signatures.push(await describe(bytes, entry, trusted, sound.includes(entry) ? digestOf(entry) : null));
    const record = await findSealedDocumentByHash(deps.db, upload.sha256);
    return {
      signatures,
      platformRecord: record ? { workflowId: record.workflowId, completedAt: record.completedAt?.toISOString() ?? null, documentName: record.documentName } : null,
    };
  }
}

/** The ranges must start the file, not overlap, stay inside it, and leave exactly the /Contents string between them. */
function rangeIsSound(file: Uint8Array, [start1, length1, start2, length2]: PdfSignatureEntry['byteRange']): boolean {
  const gap = file.subarray(start1 + length1, start2);
  return start1 === 0 && start1 + length1 <= start2 && start2 + length2 <= file.length && gap.length >= 2 && gap[0] === 0x3c && gap[gap.length - 1] === 0x3e;
}

async function describe(file: Uint8Array, entry: PdfSignatureEntry, trusted: pkijs.Certificate[], digestOf: ((algorithm: string) => Buffer) | null): Promise<VerifyResponse['signatures'][number]> {
  const [start1, , start2, length2] = entry.byteRange;
  const kind = entry.subFilter === DOCUMENT_TIMESTAMP ? 'DOCUMENT_TIMESTAMP' as const : 'SIGNATURE' as const;
  const base = { fieldName: entry.fieldName, kind, coversWholeDocument: start1 === 0 && start2 + length2 === file.length };
  if (!digestOf) {
    return { ...base, signerName: entry.name, signedAt: entry.claimedTime?.toISOString() ?? null, timestamp: null, integrity: 'INVALID', problem: 'The signature\'s byte range is malformed', certificate: null };
  }
  const check = await checkPdfSignature(digestOf, entry.contents, trusted, { documentTimestamp: kind === 'DOCUMENT_TIMESTAMP' });
  const signedAt = entry.claimedTime ?? check.claimedTime ?? (kind === 'DOCUMENT_TIMESTAMP' ? check.timestamp : null);
  return {
    ...base,
    signerName: check.signerName ?? entry.name,
    signedAt: signedAt?.toISOString() ?? null,
    timestamp: check.timestamp?.toISOString() ?? null,
    integrity: check.integrity,
    problem: check.problem,
    certificate: check.certificate ? {
      ...check.certificate,
      notBefore: check.certificate.notBefore.toISOString(),
      notAfter: check.certificate.notAfter.toISOString(),
    } : null,
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
