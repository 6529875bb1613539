import crypto from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** One engine for all of pkijs' crypto here, passed explicitly rather than installed globally. */
export const cryptoEngine = new pkijs.CryptoEngine({ name: 'webcrypto', crypto: globalThis.crypto });

export const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  emailAddress: '1.2.840.113549.1.9.1',
  subjectAltName: '2.5.29.17',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  documentSigning: '1.3.6.1.5.5.7.3.36',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectKeyIdentifier: '2.5.29.14',
  authorityKeyIdentifier: '2.5.29.35',
  timeStamping: '1.3.6.1.5.5.7.3.8',
  sha256: '2.16.840.1.101.3.4.2.1',
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  crlDistributionPoints: '2.5.29.31',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  caIssuers: '1.3.6.1.5.5.7.48.2',
  crlNumber: '2.5.29.20',
} as const;

/** RFC 5280 KeyUsage bits, as named there. */
export const KEY_USAGE = {
  digitalSignature: 0,
  nonRepudiation: 1,
  keyCertSign: 5,
  cRLSign: 6,
} as const;

export type CertificateSpec = {
  commonName: string;
  /** Omitted: the subject names no organization (a person's signing certificate). */
  organization?: string;
  /** A person's address: the subject's emailAddress and a subjectAltName rfc822Name. */
  email?: string;
  publicKey: webcrypto.CryptoKey;
  notBefore: Date;
  notAfter: Date;
  /** Issuer certificate and key; omitted for a self-signed certificate (then `signingKey` signs). */
  issuer?: { certificate: pkijs.Certificate; privateKey: webcrypto.CryptoKey };
  signingKey?: webcrypto.CryptoKey;
  isCa: boolean;
  keyUsage: (keyof typeof KEY_USAGE)[];
  /** Extended key usage OIDs; marked critical (RFC 3161 requires that for time-stamping) unless `extendedKeyUsageCritical` is false. */
  extendedKeyUsage?: string[];
  extendedKeyUsageCritical?: boolean;
  /** Where verifiers fetch the issuer's CRL (CRL distribution point) and the issuer's certificate (AIA caIssuers). */
  crlUrl?: string;
  issuerCertificateUrl?: string;
};

export async function issueCertificate(spec: CertificateSpec): Promise<pkijs.Certificate> {
  const certificate = new pkijs.Certificate();
  certificate.version = 2;
  certificate.serialNumber = new asn1js.Integer({ valueHex: randomSerial() });
  certificate.subject = makeName(spec.commonName, spec.organization, spec.email);
  certificate.issuer = spec.issuer
    ? spec.issuer.certificate.subject
    : makeName(spec.commonName, spec.organization, spec.email);
  certificate.notBefore = toTime(spec.notBefore);
  certificate.notAfter = toTime(spec.notAfter);
  await certificate.subjectPublicKeyInfo.importKey(spec.publicKey, cryptoEngine);
  const subjectKeyId = keyIdentifier(certificate.subjectPublicKeyInfo);
  const authorityKeyId = spec.issuer ? keyIdentifier(spec.issuer.certificate.subjectPublicKeyInfo) : subjectKeyId;
  const extensions = [
    extension(
      OID.basicConstraints,
      true,
      new pkijs.BasicConstraints(spec.isCa ? { cA: true, pathLenConstraint: 0 } : {}).toSchema(),
    ),
    extension(OID.keyUsage, true, keyUsageBits(spec.keyUsage)),
    extension(OID.subjectKeyIdentifier, false, new asn1js.OctetString({ valueHex: subjectKeyId })),
    extension(
      OID.authorityKeyIdentifier,
      false,
      new pkijs.AuthorityKeyIdentifier({
        keyIdentifier: new asn1js.OctetString({ valueHex: authorityKeyId }),
      }).toSchema(),
    ),
  ];
  if (spec.extendedKeyUsage) {
    extensions.push(
      extension(
        OID.extKeyUsage,
        spec.extendedKeyUsageCritical ?? true,
        new pkijs.ExtKeyUsage({ keyPurposes: spec.extendedKeyUsage }).toSchema(),
      ),
    );
  }
  if (spec.email) {
    extensions.push(
      extension(
        OID.subjectAltName,
        false,
        new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 1, value: spec.email })] }).toSchema(),
      ),
    );
  }
  if (spec.crlUrl) {
    const point = new pkijs.DistributionPoint({
      distributionPoint: [new pkijs.GeneralName({ type: 6, value: spec.crlUrl })],
    });
    extensions.push(
      extension(
        OID.crlDistributionPoints,
        false,
        new pkijs.CRLDistributionPoints({ distributionPoints: [point] }).toSchema(),
      ),
    );
  }
  if (spec.issuerCertificateUrl) {
    const access = new pkijs.AccessDescription({
      accessMethod: OID.caIssuers,
      accessLocation: new pkijs.GeneralName({ type: 6, value: spec.issuerCertificateUrl }),
    });
    extensions.push(
      extension(OID.authorityInfoAccess, false, new pkijs.InfoAccess({ accessDescriptions: [access] }).toSchema()),
    );
  }
  certificate.extensions = extensions;
  const signingKey = spec.issuer?.privateKey ?? spec.signingKey;
  if (!signingKey) throw new Error('A self-signed certificate needs signingKey');
  await certificate.sign(signingKey, 'SHA-256', cryptoEngine);
  return certificate;
}

/**
 * An X.509 v2 CRL by `issuer` revoking nothing (the platform CA never revokes a seal certificate: a replaced
 * one stays valid for what it sealed), with authority key identifier and a CRL number that grows with time.
 */
export async function issueCrl(
  issuer: { certificate: pkijs.Certificate; privateKey: webcrypto.CryptoKey },
  thisUpdate: Date,
  nextUpdate: Date,
): Promise<Uint8Array> {
  const crl = new pkijs.CertificateRevocationList();
  crl.version = 1;
  crl.issuer = issuer.certificate.subject;
  crl.thisUpdate = toTime(thisUpdate);
  crl.nextUpdate = toTime(nextUpdate);
  crl.crlExtensions = new pkijs.Extensions({
    extensions: [
      extension(
        OID.authorityKeyIdentifier,
        false,
        new pkijs.AuthorityKeyIdentifier({
          keyIdentifier: new asn1js.OctetString({ valueHex: keyIdentifier(issuer.certificate.subjectPublicKeyInfo) }),
        }).toSchema(),
      ),
      extension(OID.crlNumber, false, new asn1js.Integer({ value: Math.floor(thisUpdate.getTime() / 1000) })),
    ],
  });
  await crl.sign(issuer.privateKey, 'SHA-256', cryptoEngine);
  return new Uint8Array(crl.toSchema(true).toBER(false));
}

export function certificateToDer(certificate: pkijs.Certificate): Uint8Array {
  return new Uint8Array(certificate.toSchema(true).toBER(false));
}

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(der);
}

/** A name as an RFC 4514 string (most specific attribute first, e.g. `CN=…, O=…`). */
export function formatName(name: pkijs.RelativeDistinguishedNames): string {
  const labels: Record<string, string> = {
    [OID.commonName]: 'CN',
    [OID.organization]: 'O',
    [OID.emailAddress]: 'E',
    '2.5.4.6': 'C',
    '2.5.4.11': 'OU',
    '2.5.4.7': 'L',
    '2.5.4.8': 'ST',
  };
  return name.typesAndValues
    .map((tv) => `${labels[tv.type] ?? tv.type}=${String(tv.value.valueBlock.value)}`)
    .reverse()
    .join(', ');
}

export function pemEncode(der: Uint8Array, label: string): string {
  const base64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN ${label}-----\n${base64}\n-----END ${label}-----\n`;
}

/** Every PEM block with the given label, in file order. */
export function pemDecode(text: string, label: string): Uint8Array[] {
  const pattern = new RegExp(`-----BEGIN ${label}-----([\\s\\S]*?)-----END ${label}-----`, 'g');
  return [...text.matchAll(pattern)].map((m) => new Uint8Array(Buffer.from(m[1].replace(/\s+/g, ''), 'base64')));
}

/**
 * One attribute per RDN (pkijs would put them all into one multi-valued RDN, which reads as `O=… + CN=…`).
 * emailAddress is an IA5String (PKCS #9), the others UTF8String.
 */
function makeName(commonName: string, organization?: string, email?: string): pkijs.RelativeDistinguishedNames {
  const rdn = (type: string, value: asn1js.Utf8String | asn1js.IA5String) =>
    new asn1js.Set({
      value: [new pkijs.AttributeTypeAndValue({ type, value }).toSchema()],
    });
  const rdns = [
    ...(organization !== undefined ? [rdn(OID.organization, new asn1js.Utf8String({ value: organization }))] : []),
    rdn(OID.commonName, new asn1js.Utf8String({ value: commonName })),
    ...(email !== undefined ? [rdn(OID.emailAddress, new asn1js.IA5String({ value: email }))] : []),
  ];
  const der = new asn1js.Sequence({ value: rdns }).toBER(false);
  return pkijs.RelativeDistinguishedNames.fromBER(der);
}

/** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050. */
function toTime(date: Date): pkijs.Time {
  return new pkijs.Time({ type: date.getUTCFullYear() < 2050 ? 0 : 1, value: date });
}

/** RFC 5280 method 1: SHA-1 of the subjectPublicKey bits. */
function keyIdentifier(spki: pkijs.PublicKeyInfo): Uint8Array {
  return new Uint8Array(crypto.createHash('sha1').update(spki.subjectPublicKey.valueBlock.valueHexView).digest());
}

function keyUsageBits(usages: (keyof typeof KEY_USAGE)[]): asn1js.BitString {
  let bits = 0;
  let highest = 0;
  for (const usage of usages) {
    bits |= 0x80 >> KEY_USAGE[usage];
    highest = Math.max(highest, KEY_USAGE[usage]);
  }
  return new asn1js.BitString({ valueHex: new Uint8Array([bits]), unusedBits: 7 - highest });
}

function extension(extnID: string, critical: boolean, value: asn1js.AsnType): pkijs.Extension {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
}

/** 16 random bytes, first byte in 0x01..0x7f: positive and without a leading zero byte. */
function randomSerial(): Uint8Array {
  const bytes = new Uint8Array(crypto.randomBytes(16));
  bytes[0] = (bytes[0] & 0x7f) | 0x01;
  return bytes;
}
