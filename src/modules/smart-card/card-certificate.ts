// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import crypto from 'node:crypto';
import fs from 'node:fs';
import * as x509 from '@peculiar/x509';
import {
  CertificatePathError,
  createTrustStore,
  validateCertificatePath,
  type EndEntityPurpose,
  type PathFailure,
  type TrustStore,
} from '../../platform/crypto/certificate-path.ts';

/** Why a card certificate or its signature is refused; the reason is shown to the client as responseBody.reason. */
export type CardRejection =
  | 'CHALLENGE'
  | 'SIGNATURE'
  | PathFailure
  | 'REVOKED'
  | 'REVOCATION_UNKNOWN'
  | 'NO_EMAIL'
  | 'NO_ACCOUNT'
  | 'ACCOUNT_NOT_VERIFIED';

export class CardRejected extends Error {
  readonly reason: CardRejection;
  constructor(reason: CardRejection, message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * SMART_CARD_CA_FILE: its CA certificates (basicConstraints cA) are trust anchors, roots or intermediates alike (the
 * operator chose them; a path ends at the first it reaches); any other certificate in it is only a candidate
 * intermediate, checked like one the card sends.
 */
export type TrustAnchors = TrustStore;

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const EMAIL_ADDRESS_OID = '1.2.840.113549.1.9.1';
/** The card's certificate may be followed by at most this many intermediates. */
export const MAX_CARD_INTERMEDIATES = 8;

/** What a sign-in certificate must be fit for: signing (the challenge) and an authentication purpose. */
const SIGN_IN_PURPOSE: EndEntityPurpose = {
  keyUsage: x509.KeyUsageFlags.digitalSignature,
  extendedKeyUsages: [
    { oid: '1.3.6.1.5.5.7.3.2', name: 'clientAuth' },
    { oid: '1.3.6.1.4.1.311.20.2.2', name: 'smart-card logon' },
  ],
};

/** The certificates of SMART_CARD_CA_FILE; a file without a CA certificate is a start-up error. */
export function loadTrustAnchors(file: string): TrustAnchors {
  const pem = fs.readFileSync(file, 'utf8');
  const certificates = (pem.match(PEM_BLOCK) ?? []).map((block) => new crypto.X509Certificate(block));
  const anchors = certificates.filter((certificate) => certificate.ca).map((certificate) => certificate.raw);
  if (anchors.length === 0)
    throw new Error(`SMART_CARD_CA_FILE ${file} holds no CA certificate (PEM, basicConstraints cA)`);
  return createTrustStore(
    anchors,
    certificates.filter((certificate) => !certificate.ca).map((certificate) => certificate.raw),
  );
}

/**
 * The card's certificate and the intermediates after it, from a PEM text (a bare base64 DER is one certificate), or
 * null when a block is unreadable or there are more than MAX_CARD_INTERMEDIATES intermediates.
 */
export function parseCardCertificate(text: string): { certificate: Buffer; intermediates: Buffer[] } | null {
  const blocks = text.match(PEM_BLOCK);
  if (blocks && blocks.length > 1 + MAX_CARD_INTERMEDIATES) return null;
  try {
    const [certificate, ...intermediates] = (blocks ?? [Buffer.from(text.trim(), 'base64')]).map(
      (block) => new crypto.X509Certificate(block).raw,
    );
    // The path checks read it with @peculiar/x509 too: what that cannot read is refused here, not later.
    for (const der of [certificate, ...intermediates]) void new x509.X509Certificate(new Uint8Array(der)).extensions;
    return { certificate, intermediates };
  } catch {
    return null;
  }
}

/**
 * Whether `signature` (base64 of PKCS#1 v1.5 for RSA, ECDSA as DER or raw r||s) is the card key's signature
 * over the SHA-256 digest of `signedBytes`.
 */
export function signatureMatches(certificateDer: Buffer, signedBytes: Buffer, signature: Buffer): boolean {
  const key = new crypto.X509Certificate(certificateDer).publicKey;
  try {
    if (key.asymmetricKeyType === 'rsa')
      return crypto.verify('sha256', signedBytes, { key, padding: crypto.constants.RSA_PKCS1_PADDING }, signature);
    if (key.asymmetricKeyType === 'ec') {
      return (
        crypto.verify('sha256', signedBytes, key, signature) ||
        crypto.verify('sha256', signedBytes, { key, dsaEncoding: 'ieee-p1363' }, signature)
      );
    }
  } catch {
    return false;
  }
  return false;
}

/**
 * The card's certificate against the bundle: a path from it to a CA certificate of the bundle, through the
 * intermediates the card sent or the bundle holds, every certificate within its validity period and signed by the
 * next, each issuer a CA (basicConstraints cA, keyCertSign when it has a key usage, its pathLen kept), the card's
 * certificate not a CA, with key usage digitalSignature and an extended key usage for sign-in: clientAuth or
 * Microsoft smart-card logon. A certificate without the extended key usage extension is refused: unrestricted by
 * RFC 5280, it is as likely a signature or encryption certificate of the same CA as a sign-in one, and Windows
 * refuses it by default too. Returns the path, card first and anchor last (DER); throws CardRejected.
 */
export async function verifyChain(
  certificateDer: Buffer,
  intermediates: Buffer[],
  trusted: TrustAnchors,
  now = new Date(),
): Promise<Buffer[]> {
  try {
    return await validateCertificatePath({
      certificate: certificateDer,
      intermediates,
      trust: trusted,
      purpose: SIGN_IN_PURPOSE,
      now,
    });
  } catch (error) {
    if (error instanceof CertificatePathError) throw new CardRejected(error.reason, error.message);
    throw error;
  }
}

/** The certificate's email: the first subjectAltName rfc822Name, else the subject's emailAddress; lower-cased. */
export function emailOf(certificateDer: Buffer): string | null {
  const certificate = new x509.X509Certificate(certificateDer);
  const san = certificate.getExtension(x509.SubjectAlternativeNameExtension);
  const fromSan = san?.names.items.find((name) => name.type === 'email')?.value;
  const fromSubject = certificate.subjectName.getField(EMAIL_ADDRESS_OID)[0];
  const email = (fromSan ?? fromSubject)?.trim().toLowerCase();
  return email?.includes('@') ? email : null;
}

/** The CRL distribution point URLs (http and https) the certificate names. */
export function crlUrls(certificateDer: Buffer): string[] {
  const extension = new x509.X509Certificate(certificateDer).getExtension(x509.CRLDistributionPointsExtension);
  const urls = (extension?.distributionPoints ?? [])
    .flatMap((point) => point.distributionPoint?.fullName ?? [])
    .map((name) => name.uniformResourceIdentifier)
    .filter((url): url is string => typeof url === 'string');
  return urls.filter((url) => /^https?:\/\//i.test(url));
}

/** The OCSP responder URLs the certificate names (authorityInfoAccess). */
export function ocspUrls(certificateDer: Buffer): string[] {
  const extension = new x509.X509Certificate(certificateDer).getExtension(x509.AuthorityInfoAccessExtension);
  return (extension?.ocsp ?? [])
    .filter((name) => name.type === 'url')
    .map((name) => name.value)
    .filter((url) => /^https?:\/\//i.test(url));
}

/**
 * The CRL's verdict on the card's certificate: the CRL must be signed by the certificate's issuer and current
 * (nextUpdate not passed). Throws CardRejected REVOKED for a listed serial, REVOCATION_UNKNOWN for a CRL that
 * cannot be trusted.
 */
export async function checkCrl(
  crlBytes: Buffer,
  certificateDer: Buffer,
  issuer: crypto.X509Certificate,
  now = new Date(),
): Promise<void> {
  let crl: x509.X509Crl;
  try {
    crl = new x509.X509Crl(
      crlBytes.subarray(0, 1).toString() === '-' ? crlBytes.toString('utf8') : new Uint8Array(crlBytes),
    );
  } catch {
    throw new CardRejected('REVOCATION_UNKNOWN', 'The certificate revocation list could not be read');
  }
  const issuerCertificate = new x509.X509Certificate(issuer.raw);
  if (crl.issuer !== issuerCertificate.subject || !(await crl.verify({ publicKey: issuerCertificate.publicKey }))) {
    throw new CardRejected(
      'REVOCATION_UNKNOWN',
      "The certificate revocation list is not signed by the certificate's issuer",
    );
  }
  if (crl.nextUpdate && crl.nextUpdate.getTime() < now.getTime())
    throw new CardRejected('REVOCATION_UNKNOWN', 'The certificate revocation list is out of date');
  if (crl.findRevoked(new x509.X509Certificate(certificateDer)))
    throw new CardRejected('REVOKED', 'The certificate has been revoked');
}
