import crypto from 'node:crypto';
import { IncrementalPdf } from '../pdf/incremental-update.ts';
import { assembleCadesSignature, cadesSignedAttributes } from '../crypto/cades.ts';
import type { PdfSigner } from './pdf-signer.ts';
import { DOCUMENT_TIMESTAMP_FIELD, appendSecurityStore } from './long-term.ts';
import { buildSignatureUpdate, type SignatureField } from './signature-update.ts';

/** Room for the TSA token in Contents; a larger one makes a local signer lay the update out again. */
const TIMESTAMP_RESERVE = 12_288;

/**
 * A revision laid out and waiting for its signature value: the input bytes followed by the incremental
 * update, Contents still zero. Plain data, so a remote signer's pending revision can wait for its answer.
 */
export type PendingSignature = {
  revision: Uint8Array;
  /** Offset of Contents' '<' in revision, and how many bytes of CMS fit between the brackets. */
  contentsAt: number;
  reserve: number;
  /** DER of the CMS signed attributes: what the signer's key signs. */
  signedAttributes: Uint8Array;
  /** SHA-256 of signedAttributes: what a remote hash signer (CSC signatures/signHash) is sent. */
  hashToSign: Uint8Array;
};

/**
 * Appends one signature to a PDF as an incremental update: earlier bytes (and so earlier signatures) stay
 * byte-identical as a prefix. Needs a signer with its key here (PLATFORM_SEAL, LOCAL_KEY); a remote signer
 * goes through prepareSignature and completeSignature itself. A signer with `longTerm` (the platform seal when
 * TSA_URL is set) is followed by the DSS and a document time-stamp: PAdES B-LTA. Given an IncrementalPdf (a
 * caller that drew field values first), the updates go onto it: one parse, one hash, one join in all.
 */
export async function appendSignature(input: Uint8Array | IncrementalPdf, signer: PdfSigner): Promise<Uint8Array> {
  return (
    await appendSignatureTo(input instanceof IncrementalPdf ? input : await IncrementalPdf.open(input), signer)
  ).toBytes();
}

/** The same, answering the file the signature went onto (the input, or a fresh parse of it after a re-layout). */
export async function appendSignatureTo(input: IncrementalPdf, signer: PdfSigner): Promise<IncrementalPdf> {
  if (!signer.sign)
    throw new Error(`A ${signer.kind} signer signs in two steps: prepareSignature, then completeSignature`);
  let file = input;
  const signingTime = new Date();
  let reserve = initialReserve(signer);
  for (;;) {
    const layout = layOut(file, signer.field, reserve, signingTime);
    const signedAttributes = cadesSignedAttributes(layout.documentDigest, signer.certificateDer);
    const cms = await createCms({ signedAttributes }, signer, await signer.sign(signedAttributes));
    if (cms.length > reserve) {
      // A larger TSA token than foreseen: lay the update out again with room for it, on a fresh parse (the
      // layout just made changed libpdf's view of the form and page).
      reserve = cms.length + 1024;
      file = await IncrementalPdf.open(file.toBytes());
      continue;
    }
    fillContents({ revision: layout.update.bytes, contentsAt: layout.update.contentsStart }, cms);
    file.append(layout.update.bytes, layout.update.section);
    if (!signer.longTerm) return file;
    const contents = new Uint8Array(reserve);
    contents.set(cms);
    await appendSecurityStore(file, contents, signer.longTerm);
    return appendDocumentTimestamp(file, { name: DOCUMENT_TIMESTAMP_FIELD }, signer.longTerm.timestampDigest);
  }
}

/**
 * Lays out the update for `signer` (libpdf parses the document to find the catalog, form and first page; the
 * update itself is written by signature-update.ts), digests the ByteRange and answers the whole revision with
 * Contents zero, to be completed by completeSignature once the signature value is there. A given IncrementalPdf is
 * spent: libpdf's view of it now holds the laid-out field, which its bytes do not.
 */
export async function prepareSignature(
  input: Uint8Array | IncrementalPdf,
  signer: PdfSigner,
  options: { reserve?: number; signingTime?: Date } = {},
): Promise<PendingSignature> {
  const file = input instanceof IncrementalPdf ? input : await IncrementalPdf.open(input);
  const reserve = options.reserve ?? initialReserve(signer);
  const { update, documentDigest } = layOut(file, signer.field, reserve, options.signingTime ?? new Date());
  const signedAttributes = cadesSignedAttributes(documentDigest, signer.certificateDer);
  return {
    revision: file.withUpdate(update.bytes),
    contentsAt: file.length + update.contentsStart,
    reserve,
    signedAttributes,
    hashToSign: new Uint8Array(crypto.createHash('sha256').update(signedAttributes).digest()),
  };
}

/**
 * Appends a document time-stamp (PAdES B-LTA) over everything before it: its Contents is the RFC 3161 token
 * over the SHA-256 of the ByteRange. When a TSA's token is larger than foreseen, the update is laid out again
 * with room for it on a fresh parse; the file the time-stamp went onto is answered.
 */
export async function appendDocumentTimestamp(
  input: IncrementalPdf,
  field: SignatureField,
  timestampDigest: (digest: Uint8Array) => Promise<Uint8Array>,
): Promise<IncrementalPdf> {
  let file = input;
  let reserve = TIMESTAMP_RESERVE;
  for (;;) {
    const { update, documentDigest } = layOut(file, { ...field, documentTimestamp: true }, reserve, new Date());
    const token = await timestampDigest(documentDigest);
    if (token.length <= reserve) {
      fillContents({ revision: update.bytes, contentsAt: update.contentsStart }, token);
      file.append(update.bytes, update.section);
      return file;
    }
    reserve = token.length + 1024;
    file = await IncrementalPdf.open(file.toBytes());
  }
}

/**
 * The update for `field` after what `file` holds, Contents zero, and the SHA-256 of the ByteRange: the running
 * digest of the file so far continued over the update around its Contents. libpdf's view of the form and first
 * page now includes the new field: the caller appends this update or parses the file again.
 */
function layOut(file: IncrementalPdf, field: SignatureField, reserve: number, signingTime: Date) {
  const update = buildSignatureUpdate(file, field, reserve, signingTime);
  const documentDigest = file
    .digestSoFar()
    .update(update.bytes.subarray(0, update.contentsStart))
    .update(update.bytes.subarray(update.contentsEnd))
    .digest();
  return { update, documentDigest: new Uint8Array(documentDigest) };
}

/**
 * Puts the CMS around a signature value made elsewhere into the pending revision (in place) and returns the
 * signed file. Throws when it does not fit the reserved room: a remote signature cannot be redone here.
 */
export async function completeSignature(
  pending: PendingSignature,
  signer: PdfSigner,
  signatureValue: Uint8Array,
): Promise<Uint8Array> {
  const cms = await createCms(pending, signer, signatureValue);
  if (cms.length > pending.reserve)
    throw new Error(`The signature (${cms.length} bytes) does not fit the ${pending.reserve} bytes reserved for it`);
  return fillContents(pending, cms);
}

function createCms(
  pending: Pick<PendingSignature, 'signedAttributes'>,
  signer: PdfSigner,
  signatureValue: Uint8Array,
): Promise<Uint8Array> {
  return assembleCadesSignature({
    signedAttributes: pending.signedAttributes,
    signatureValue,
    certificateDer: signer.certificateDer,
    chainDer: signer.chainDer,
    timestamp: signer.timestamp,
  });
}

function fillContents(pending: { revision: Uint8Array; contentsAt: number }, cms: Uint8Array): Uint8Array {
  pending.revision.set(Buffer.from(Buffer.from(cms).toString('hex'), 'latin1'), pending.contentsAt + 1);
  return pending.revision;
}

function initialReserve(signer: PdfSigner): number {
  const certificatesSize = signer.certificateDer.length + signer.chainDer.reduce((n, c) => n + c.length, 0);
  return 2048 + certificatesSize + (signer.timestamp ? TIMESTAMP_RESERVE : 0);
}
