import crypto from 'node:crypto';
import { PdfArray, PdfDict, PdfName, type PdfRef, PdfStream, PdfString } from '@libpdf/core';
import type { PDF, PdfObject } from '@libpdf/core';
import * as pkijs from 'pkijs';
import { OID } from '../crypto/certificates.ts';
import type { IncrementalPdf } from '../pdf/incremental-update.ts';
import { pdfDate } from './signature-update.ts';

/** What raising a signature to B-LTA needs from outside: a TSA over a digest and the CRLs for the chain. */
export type LongTermValidation = {
  /** An RFC 3161 TimeStampToken over the given SHA-256 digest (the document time-stamp's imprint). */
  timestampDigest: (digest: Uint8Array) => Promise<Uint8Array>;
  /** DER CRLs covering these certificates (the seal chain and its time-stamp's signer), gathered once per seal. */
  revocationData: (certificatesDer: Uint8Array[]) => Promise<Uint8Array[]>;
};

export const DOCUMENT_TIMESTAMP_FIELD = 'DocumentTimeStamp';

/**
 * PAdES B-LT over a freshly signed file: one incremental update adds the document security store (catalog
 * /DSS: /Certs, /CRLs and a /VRI entry keyed by the uppercase SHA-1 of the signature's /Contents bytes).
 * Only the signature just made is served: earlier signatures of an uploaded file may name hosts of anyone's
 * choosing, so nothing is fetched for them (an existing DSS is kept and extended). The update is appended
 * to `file`, after the signature. append-signature.ts then adds the document time-stamp (B-LTA).
 */
export async function appendSecurityStore(
  file: IncrementalPdf,
  signatureContents: Uint8Array,
  ltv: LongTermValidation,
): Promise<void> {
  const certificates = cmsCertificates(signatureContents);
  const crls = await ltv.revocationData(certificates);
  addSecurityStore(file.doc, signatureContents, certificates, crls);
  file.appendChanges();
}

/** The certificates a CMS carries, and those of the signature time-stamp inside it (its TSA's), DER, once each. */
function cmsCertificates(contents: Uint8Array): Uint8Array[] {
  const signedData = readSignedData(contents);
  const found = certificatesOf(signedData);
  const token = signedData.signerInfos[0]?.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken)
    ?.values[0];
  if (token) found.push(...certificatesOf(readSignedData(new Uint8Array(token.toBER(false)))));
  const seen = new Set<string>();
  return found.filter((der) => {
    const key = Buffer.from(der).toString('base64');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function readSignedData(der: Uint8Array): pkijs.SignedData {
  const contentInfo = pkijs.ContentInfo.fromBER(der);
  if (contentInfo.contentType !== OID.signedData) throw new Error('The signature is not a CMS SignedData');
  return new pkijs.SignedData({ schema: contentInfo.content });
}

function certificatesOf(signedData: pkijs.SignedData): Uint8Array[] {
  return (signedData.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((c) => new Uint8Array(c.toSchema().toBER(false)));
}

/** Registers the streams and the DSS (merged with one already there) and points the catalog at it. */
function addSecurityStore(doc: PDF, contents: Uint8Array, certificates: Uint8Array[], crls: Uint8Array[]): void {
  const resolve = (ref: PdfRef) => doc.getObject(ref);
  const catalog = doc.getCatalog();
  const existing = catalog.getDict('DSS', resolve);
  const dss = new PdfDict();
  dss.set('Type', PdfName.of('DSS'));
  const streams = (items: Uint8Array[]) => items.map((data) => doc.register(new PdfStream([], data)));
  const certRefs = streams(certificates);
  const crlRefs = streams(crls);
  const merged = (key: string, added: PdfRef[]) => {
    const array = new PdfArray([...(existing?.getArray(key, resolve) ?? [])]);
    for (const ref of added) array.push(ref);
    if (array.length > 0) dss.set(key, array);
  };
  merged('Certs', certRefs);
  merged('CRLs', crlRefs);
  merged('OCSPs', []);

  const vri = new PdfDict();
  const previousVri = existing?.getDict('VRI', resolve);
  if (previousVri) for (const [key, value] of previousVri) vri.set(key, value);
  const entry = new PdfDict();
  if (certRefs.length > 0) entry.set('Cert', new PdfArray(certRefs));
  if (crlRefs.length > 0) entry.set('CRL', new PdfArray(crlRefs));
  entry.set('TU', PdfString.fromString(pdfDate(new Date())));
  vri.set(vriKey(contents), entry);
  dss.set('VRI', doc.register(vri) as PdfObject);
  catalog.set('DSS', doc.register(dss));
}

/** ETSI EN 319 142-1 5.4.2: uppercase hex SHA-1 of the signature's /Contents string (its padding included). */
export function vriKey(contents: Uint8Array): string {
  return crypto.createHash('sha1').update(contents).digest('hex').toUpperCase();
}
