import crypto from 'node:crypto';
import { joined } from '../pdf/incremental-update.ts';
import { PDF } from '@libpdf/core';
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
 * TSA_URL is set) is followed by the DSS and a document time-stamp: PAdES B-LTA.
 */
export async function appendSignature(pdf: Uint8Array, signer: PdfSigner): Promise<Uint8Array> {
  if (!signer.sign) throw new Error(`A ${signer.kind} signer signs in two steps: prepareSignature, then completeSignature`);
  const signingTime = new Date();
  let reserve = initialReserve(signer);
  for (;;) {
    const pending = await prepareSignature(pdf, signer, { reserve, signingTime });
    const cms = await createCms(pending, signer, await signer.sign(pending.signedAttributes));
    if (cms.length > pending.reserve) {
      // A larger TSA token than foreseen: lay the update out again with room for it.
      reserve = cms.length + 1024;
      continue;
    }
    const signed = fillContents(pending, cms);
    if (!signer.longTerm) return signed;
    const contents = new Uint8Array(pending.reserve);
    contents.set(cms);
    const withStore = await appendSecurityStore(signed, contents, signer.longTerm);
    return appendDocumentTimestamp(withStore, { name: DOCUMENT_TIMESTAMP_FIELD }, signer.longTerm.timestampDigest);
  }
}

/**
 * Lays out the update for `signer` over `pdf` (libpdf parses the document to find the catalog, form and
 * first page; the update itself is written by signature-update.ts) and digests the ByteRange.
 */
export async function prepareSignature(
  pdf: Uint8Array, signer: PdfSigner, options: { reserve?: number; signingTime?: Date } = {},
): Promise<PendingSignature> {
  let doc = await PDF.load(pdf);
  if (doc.isEncrypted) throw new Error('An encrypted PDF cannot be signed: its signature value would be encrypted too');
  if (doc.recoveredViaBruteForce) {
    // Rewriting would break every signature already in the file; an unsigned file is rewritten once.
    if (Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).includes('/ByteRange')) {
      throw new Error('The PDF holds signatures but its cross-reference data is broken, so no update can be appended');
    }
    pdf = await doc.save();
    doc = await PDF.load(pdf);
  }
  const reserve = options.reserve ?? initialReserve(signer);
  const { revision, contentsAt, documentDigest } = layOut(pdf, doc, signer.field, reserve, options.signingTime ?? new Date());
  const signedAttributes = cadesSignedAttributes(documentDigest, signer.certificateDer);
  return {
    revision,
    contentsAt,
    reserve,
    signedAttributes,
    hashToSign: new Uint8Array(crypto.createHash('sha256').update(signedAttributes).digest()),
  };
}

/**
 * Appends a document time-stamp (PAdES B-LTA) over everything before it: its Contents is the RFC 3161 token
 * the TSA returns for SHA-256 of the two byte ranges.
 */
export async function appendDocumentTimestamp(pdf: Uint8Array, field: SignatureField, timestampDigest: (digest: Uint8Array) => Promise<Uint8Array>): Promise<Uint8Array> {
  const doc = await PDF.load(pdf);
  let reserve = TIMESTAMP_RESERVE;
  for (;;) {
    const pending = layOut(pdf, doc, { ...field, documentTimestamp: true }, reserve, new Date());
    const token = await timestampDigest(pending.documentDigest);
    if (token.length <= reserve) return fillContents(pending, token);
    reserve = token.length + 1024;
  }
}

/** The input followed by the update for `field`, Contents zero, and SHA-256 of the ByteRange. */
function layOut(pdf: Uint8Array, doc: PDF, field: SignatureField, reserve: number, signingTime: Date) {
  const update = buildSignatureUpdate(pdf, doc, field, reserve, signingTime);
  const revision = Buffer.from(joined(pdf, update.bytes));
  const contentsAt = pdf.length + update.contentsStart;
  const documentDigest = crypto.createHash('sha256')
    .update(revision.subarray(0, contentsAt))
    .update(revision.subarray(pdf.length + update.contentsEnd))
    .digest();
  return { revision: new Uint8Array(revision.buffer, revision.byteOffset, revision.length), contentsAt, documentDigest };
}

/**
 * Puts the CMS around a signature value made elsewhere into the pending revision (in place) and returns the
 * signed file. Throws when it does not fit the reserved room: a remote signature cannot be redone here.
 */
export async function completeSignature(pending: PendingSignature, signer: PdfSigner, signatureValue: Uint8Array): Promise<Uint8Array> {
  const cms = await createCms(pending, signer, signatureValue);
  if (cms.length > pending.reserve) throw new Error(`The signature (${cms.length} bytes) does not fit the ${pending.reserve} bytes reserved for it`);
  return fillContents(pending, cms);
}

function createCms(pending: PendingSignature, signer: PdfSigner, signatureValue: Uint8Array): Promise<Uint8Array> {
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
