import crypto from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import type * as pkijs from 'pkijs';
import { OID, certificateToDer, issueCertificate, parseCertificate } from './certificates.ts';

/** A person's signing certificate lives this long (never beyond the CA); it is re-issued on use near its end. */
export const SIGNER_CERTIFICATE_DAYS = 3 * 365;
/** A signer certificate this close to its end is re-issued (same key) the next time the signer signs. */
export const SIGNER_RENEW_BEFORE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Instances may disagree a little on the clock (as for the seal certificates). */
const BACKDATE_MS = 10 * 60 * 1000;

export type SignerSubject = { name: string; email: string };

/**
 * A certificate for one person's signing key, issued by the platform CA: subject CN = the name and emailAddress =
 * the email, subjectAltName rfc822Name = the email (what poppler and Acrobat show as the signer), key usage
 * digitalSignature + nonRepudiation (critical), extended key usage emailProtection (what NSS checks for a
 * document signer) and documentSigning, not critical; CRL distribution point and AIA naming the published CA.
 */
export async function issueSignerCertificate(
  ca: { certificate: pkijs.Certificate; privateKey: webcrypto.CryptoKey },
  subject: SignerSubject,
  publicKey: webcrypto.CryptoKey,
  options: { now?: Date; crlUrl?: string; issuerCertificateUrl?: string } = {},
): Promise<Uint8Array> {
  const notBefore = new Date((options.now ?? new Date()).getTime() - BACKDATE_MS);
  const certificate = await issueCertificate({
    commonName: subject.name,
    email: subject.email,
    publicKey,
    issuer: ca,
    notBefore,
    notAfter: new Date(
      Math.min(notBefore.getTime() + SIGNER_CERTIFICATE_DAYS * DAY_MS, ca.certificate.notAfter.value.getTime()),
    ),
    isCa: false,
    keyUsage: ['digitalSignature', 'nonRepudiation'],
    extendedKeyUsage: [OID.emailProtection, OID.documentSigning],
    extendedKeyUsageCritical: false,
    ...(options.crlUrl ? { crlUrl: options.crlUrl } : {}),
    ...(options.issuerCertificateUrl ? { issuerCertificateUrl: options.issuerCertificateUrl } : {}),
  });
  return certificateToDer(certificate);
}

/** Whether a stored signer certificate should be re-issued: another name, or near (or past) its end. */
export function signerCertificateNeedsRenewal(
  certificateDer: Uint8Array,
  subject: SignerSubject,
  now = new Date(),
): boolean {
  const certificate = parseCertificate(certificateDer);
  const commonName = certificate.subject.typesAndValues.find((tv) => tv.type === OID.commonName)?.value.valueBlock
    .value;
  if (commonName !== subject.name) return true;
  return certificate.notAfter.value.getTime() - now.getTime() < SIGNER_RENEW_BEFORE_DAYS * DAY_MS;
}

/** Lower-case hex of the certificate's serial number. */
export function certificateSerialHex(certificateDer: Uint8Array): string {
  return Buffer.from(parseCertificate(certificateDer).serialNumber.valueBlock.valueHexView).toString('hex');
}

/** A fresh ECDSA P-256 key pair (as the seal's: small signatures, instant generation, verified by poppler and Acrobat). */
export async function generateSignerKeyPair(): Promise<{
  privateKeyPkcs8: Uint8Array;
  privateKey: webcrypto.CryptoKey;
  publicKey: webcrypto.CryptoKey;
}> {
  const keys = await globalThis.crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ]);
  const privateKeyPkcs8 = new Uint8Array(await globalThis.crypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { privateKeyPkcs8, privateKey: keys.privateKey, publicKey: keys.publicKey };
}

/**
 * Checks a signature value made elsewhere (a remote signer's) over `signedAttributes` with the certificate's
 * key and returns it as CMS wants it: RSA PKCS#1 v1.5 as is, ECDSA as the DER Ecdsa-Sig-Value (a raw r||s
 * value, as some services return, is converted). Null when it does not verify: a value over another hash.
 */
export function signatureValueForCms(
  certificateDer: Uint8Array,
  signedAttributes: Uint8Array,
  value: Uint8Array,
): Uint8Array | null {
  const certificate = parseCertificate(certificateDer);
  const key = crypto.createPublicKey({
    key: Buffer.from(certificate.subjectPublicKeyInfo.toSchema().toBER(false)),
    format: 'der',
    type: 'spki',
  });
  if (key.asymmetricKeyType === 'ec') {
    if (verifies(key, signedAttributes, value, 'der')) return value;
    if (verifies(key, signedAttributes, value, 'ieee-p1363')) return rawToDerEcdsa(value);
    return null;
  }
  return verifies(key, signedAttributes, value) ? value : null;
}

function verifies(
  key: crypto.KeyObject,
  data: Uint8Array,
  signature: Uint8Array,
  dsaEncoding?: 'der' | 'ieee-p1363',
): boolean {
  try {
    return crypto.verify('sha256', data, dsaEncoding ? { key, dsaEncoding } : key, signature);
  } catch {
    return false;
  }
}

function rawToDerEcdsa(raw: Uint8Array): Uint8Array {
  const half = raw.length / 2;
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.subarray(start);
    const padded = trimmed[0] & 0x80 ? Uint8Array.from([0, ...trimmed]) : trimmed;
    return new asn1js.Integer({ valueHex: padded });
  };
  return new Uint8Array(
    new asn1js.Sequence({ value: [integer(raw.subarray(0, half)), integer(raw.subarray(half))] }).toBER(false),
  );
}

/** A stored PKCS#8 signer key as a signing key, and its public half (for re-issuing the certificate). */
export async function importSignerKey(
  privateKeyPkcs8: Uint8Array,
): Promise<{ privateKey: webcrypto.CryptoKey; publicKey: webcrypto.CryptoKey }> {
  const subtle = globalThis.crypto.subtle;
  const privateKey = await subtle.importKey('pkcs8', privateKeyPkcs8, { name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
  ]);
  const spki = crypto
    .createPublicKey(crypto.createPrivateKey({ key: Buffer.from(privateKeyPkcs8), format: 'der', type: 'pkcs8' }))
    .export({ format: 'der', type: 'spki' });
  const publicKey = await subtle.importKey('spki', spki, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify']);
  return { privateKey, publicKey };
}
