import type * as pkijs from 'pkijs';
import { readSignatures, type PdfSignatureEntry } from '../pdf/read-signatures.ts';
import { rangeDigests } from '../pdf/range-digests.ts';
import { signedRangeProblems } from '../pdf/signed-ranges.ts';
import { checkPdfSignature } from './verify-signature.ts';

/** What one signature of a PDF says, as checked here (POST /verify/v1 answers it with its times as strings). */
export type SignatureVerdict = {
  fieldName: string;
  kind: 'SIGNATURE' | 'DOCUMENT_TIMESTAMP';
  coversWholeDocument: boolean;
  signerName: string | null;
  signedAt: Date | null;
  timestamp: Date | null;
  integrity: 'VALID' | 'INVALID';
  problem: string | null;
  certificate: { subject: string; issuer: string; notBefore: Date; notAfter: Date; trustedByPlatform: boolean } | null;
};

const DOCUMENT_TIMESTAMP = 'ETSI.RFC3161';

/**
 * Every signature of the file, oldest first, checked: its byte range's shape first (signed-ranges.ts; a range
 * that fails is INVALID without being hashed or its CMS read), then the digests of the sound ranges, each
 * distinct range hashed once per algorithm (range-digests.ts), then each CMS against its digest and `trustAnchors`.
 * Throws UnreadablePdfError, and TooManySignaturesError as soon as more than `maxSignatures` are found (before any
 * check). Runs in a worker thread (pdf-verifier.ts): its cost follows from what the file holds.
 */
export async function verifyPdfSignatures(
  file: Uint8Array,
  trustAnchors: pkijs.Certificate[],
  options: { maxSignatures: number },
): Promise<SignatureVerdict[]> {
  const entries = await readSignatures(file, { maxSignatures: options.maxSignatures });
  const problems = signedRangeProblems(file, entries);
  const sound = entries.filter((_, index) => problems[index] === null);
  // Digests per algorithm, computed on first need for all sound signatures in one pass over the file.
  const digests = new Map<string, Buffer[]>();
  const digestOf = (entry: PdfSignatureEntry) => (algorithm: string) => {
    if (!digests.has(algorithm))
      digests.set(
        algorithm,
        rangeDigests(
          file,
          sound.map((e) => e.byteRange),
          algorithm,
        ),
      );
    return digests.get(algorithm)![sound.indexOf(entry)];
  };
  const verdicts: SignatureVerdict[] = [];
  for (const [index, entry] of entries.entries())
    verdicts.push(
      await describe(file, entry, trustAnchors, problems[index] === null ? digestOf(entry) : problems[index]!),
    );
  return verdicts;
}

async function describe(
  file: Uint8Array,
  entry: PdfSignatureEntry,
  trusted: pkijs.Certificate[],
  digestOf: ((algorithm: string) => Buffer) | string,
): Promise<SignatureVerdict> {
  const [start1, , start2, length2] = entry.byteRange;
  const kind = entry.subFilter === DOCUMENT_TIMESTAMP ? ('DOCUMENT_TIMESTAMP' as const) : ('SIGNATURE' as const);
  const base = {
    fieldName: entry.fieldName,
    kind,
    coversWholeDocument: start1 === 0 && start2 + length2 === file.length,
  };
  if (typeof digestOf === 'string') {
    return {
      ...base,
      signerName: entry.name,
      signedAt: entry.claimedTime,
      timestamp: null,
      integrity: 'INVALID',
      problem: digestOf,
      certificate: null,
    };
  }
  const check = await checkPdfSignature(digestOf, entry.contents, trusted, {
    documentTimestamp: kind === 'DOCUMENT_TIMESTAMP',
  });
  return {
    ...base,
    signerName: check.signerName ?? entry.name,
    signedAt: entry.claimedTime ?? check.claimedTime ?? (kind === 'DOCUMENT_TIMESTAMP' ? check.timestamp : null),
    timestamp: check.timestamp,
    integrity: check.integrity,
    problem: check.problem,
    certificate: check.certificate,
  };
}
