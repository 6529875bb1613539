// @peculiar/x509 resolves its services through tsyringe, which needs the Reflect metadata polyfill loaded first.
import 'reflect-metadata';
import crypto from 'node:crypto';
import fs from 'node:fs';
import * as x509 from '@peculiar/x509';

/** Why a card certificate or its signature is refused; the reason is shown to the client as responseBody.reason. */
export type CardRejection =
  | 'CHALLENGE' | 'SIGNATURE' | 'UNTRUSTED_ISSUER' | 'NOT_YET_VALID' | 'EXPIRED' | 'KEY_USAGE' | 'REVOKED' | 'REVOCATION_UNKNOWN' | 'NO_EMAIL' | 'NO_ACCOUNT';

export class CardRejected extends Error {
  readonly reason: CardRejection;
  constructor(reason: CardRejection, message: string) {
    super(message);
    this.reason = reason;
  }
}

export type TrustAnchors = crypto.X509Certificate[];

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
const EMAIL_ADDRESS_OID = '1.2.840.113549.1.9.1';

/** The CA certificates of SMART_CARD_CA_FILE (roots and intermediates); a file without one is a start-up error. */
export function loadTrustAnchors(file: string): TrustAnchors {
  const pem = fs.readFileSync(file, 'utf8');
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) throw new Error(`SMART_CARD_CA_FILE ${file} holds no PEM certificate`);
  return blocks.map((block) => new crypto.X509Certificate(block));
}

/** The one certificate of a PEM text (a bare base64 DER is accepted too), or null when it is not exactly one readable certificate. */
export function parseCardCertificate(text: string): Buffer | null {
  const blocks = text.match(PEM_BLOCK);
  if (blocks && blocks.length !== 1) return null;
  try {
    const certificate = new crypto.X509Certificate(blocks ? blocks[0] : Buffer.from(text.trim(), 'base64'));
    return certificate.raw;
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
    if (key.asymmetricKeyType === 'rsa') return crypto.verify('sha256', signedBytes, { key, padding: crypto.constants.RSA_PKCS1_PADDING }, signature);
    if (key.asymmetricKeyType === 'ec') {
      return crypto.verify('sha256', signedBytes, key, signature) || crypto.verify('sha256', signedBytes, { key, dsaEncoding: 'ieee-p1363' }, signature);
    }
  } catch {
    return false;
  }
  return false;
}

/**
 * The card's certificate against the bundle: issued (name and signature) by a CA certificate of the bundle,
 * which is trusted as it is, root or intermediate (the operator put it there); both within their validity
 * period at `now`; the card's own certificate not a CA and allowing digitalSignature. Returns the issuer;
 * throws CardRejected.
 */
export function verifyChain(certificateDer: Buffer, anchors: TrustAnchors, now = new Date()): crypto.X509Certificate {
  const leaf = new crypto.X509Certificate(certificateDer);
  const issuer = anchors.find((candidate) => candidate.ca && leaf.checkIssued(candidate) && leaf.verify(candidate.publicKey));
  if (!issuer) throw new CardRejected('UNTRUSTED_ISSUER', 'The certificate was not issued by a certificate authority that SMART_CARD_CA_FILE trusts');
  const chain = [leaf, issuer];
  for (const certificate of chain) {
    const parsed = new x509.X509Certificate(certificate.raw);
    if (parsed.notBefore.getTime() > now.getTime()) throw new CardRejected('NOT_YET_VALID', `${certificate === leaf ? 'The certificate' : 'A CA certificate of its chain'} is not valid before ${parsed.notBefore.toISOString()}`);
    if (parsed.notAfter.getTime() < now.getTime()) throw new CardRejected('EXPIRED', `${certificate === leaf ? 'The certificate' : 'A CA certificate of its chain'} expired on ${parsed.notAfter.toISOString()}`);
  }
  if (leaf.ca) throw new CardRejected('KEY_USAGE', 'A CA certificate is not a card certificate');
  const usage = new x509.X509Certificate(leaf.raw).getExtension(x509.KeyUsagesExtension);
  if (!usage || (usage.usages & x509.KeyUsageFlags.digitalSignature) === 0) {
    throw new CardRejected('KEY_USAGE', 'The certificate does not allow digitalSignature (key usage)');
  }
  return issuer;
}

/** The certificate's email: the first subjectAltName rfc822Name, else the subject's emailAddress; lower-cased. */
export function emailOf(certificateDer: Buffer): string | null {
  const certificate = new x509.X509Certificate(certificateDer);
  const san = certificate.getExtension(x509.SubjectAlternativeNameExtension);
  const fromSan = san?.names.items.find((name) => name.type === 'email')?.value;
  const fromSubject = certificate.subjectName.getField(EMAIL_ADDRESS_OID)[0];
  const email = (fromSan ?? fromSubject)?.trim().toLowerCase();
  return email && email.includes('@') ? email : null;
}

/** The CRL distribution point URLs (http and https) the certificate names. */
export function crlUrls(certificateDer: Buffer): string[] {
  const extension = new x509.X509Certificate(certificateDer).getExtension(x509.CRLDistributionPointsExtension);
  const urls = (extension?.distributionPoints ?? []).flatMap((point) => point.distributionPoint?.fullName ?? [])
    .map((name) => name.uniformResourceIdentifier).filter((url): url is string => typeof url === 'string');
  return urls.filter((url) => /^https?:\/\//i.test(url));
}

/** The OCSP responder URLs the certificate names (authorityInfoAccess). */
export function ocspUrls(certificateDer: Buffer): string[] {
  const extension = new x509.X509Certificate(certificateDer).getExtension(x509.AuthorityInfoAccessExtension);
  return (extension?.ocsp ?? []).filter((name) => name.type === 'url').map((name) => name.value).filter((url) => /^https?:\/\//i.test(url));
}

/**
 * The CRL's verdict on the card's certificate: the CRL must be signed by the certificate's issuer and current
 * (nextUpdate not passed). Throws CardRejected REVOKED for a listed serial, REVOCATION_UNKNOWN for a CRL that
 * cannot be trusted.
 */
export async function checkCrl(crlBytes: Buffer, certificateDer: Buffer, issuer: crypto.X509Certificate, now = new Date()): Promise<void> {
  let crl: x509.X509Crl;
  try {
    crl = new x509.X509Crl(crlBytes.subarray(0, 1).toString() === '-' ? crlBytes.toString('utf8') : new Uint8Array(crlBytes));
  } catch {
    throw new CardRejected('REVOCATION_UNKNOWN', 'The certificate revocation list could not be read');
  }
  const issuerCertificate = new x509.X509Certificate(issuer.raw);
  if (crl.issuer !== issuerCertificate.subject || !(await crl.verify({ publicKey: issuerCertificate.publicKey }))) {
    throw new CardRejected('REVOCATION_UNKNOWN', "The certificate revocation list is not signed by the certificate's issuer");
  }
  if (crl.nextUpdate && crl.nextUpdate.getTime() < now.getTime()) throw new CardRejected('REVOCATION_UNKNOWN', 'The certificate revocation list is out of date');
  if (crl.findRevoked(new x509.X509Certificate(certificateDer))) throw new CardRejected('REVOKED', 'The certificate has been revoked');
}
