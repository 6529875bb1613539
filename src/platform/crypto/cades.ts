import crypto from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID, parseCertificate } from './certificates.ts';

export type CadesSignatureInput = {
  /** SHA-256 of the signed bytes (for a PDF: the two ByteRange parts). */
  documentDigest: Uint8Array;
  certificateDer: Uint8Array;
  /** Issuer certificates, embedded so a validator can build the path without fetching anything. */
  chainDer: Uint8Array[];
  privateKey: webcrypto.CryptoKey;
  /** Returns an RFC 3161 TimeStampToken over the given bytes (the signature value); makes the signature B-T. */
  timestamp?: (signatureValue: Uint8Array) => Promise<Uint8Array>;
};

/** Returns an RFC 3161 TimeStampToken (DER ContentInfo) over the given bytes. */
export type Timestamper = (data: Uint8Array) => Promise<Uint8Array>;

const OID_EC_PUBLIC_KEY = '1.2.840.10045.2.1';
const OID_RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
const OID_ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const OID_SHA256_WITH_RSA = '1.2.840.113549.1.1.11';

/**
 * A detached CMS SignedData as ETSI EN 319 122-1 (CAdES baseline B) and PAdES want it: signed attributes
 * content-type, message-digest and signing-certificate-v2 only. No signing-time attribute: PAdES baseline
 * forbids it (the claimed time is the signature dictionary's /M), and the trusted time comes from the
 * signature time-stamp.
 */
export async function createCadesSignature(input: CadesSignatureInput): Promise<Uint8Array> {
  const signedAttributes = cadesSignedAttributes(input.documentDigest, input.certificateDer);
  const signatureValue = await signWithKey(input.privateKey, signedAttributes);
  return assembleCadesSignature({ ...input, signedAttributes, signatureValue, timestamp: input.timestamp });
}

/**
 * The DER of the signed attributes (a SET): the bytes a signer's key signs. A remote signer that signs a
 * hash is sent SHA-256 of these.
 */
export function cadesSignedAttributes(documentDigest: Uint8Array, certificateDer: Uint8Array): Uint8Array {
  // Written as DER, in the order pkijs wrote them (content-type, message-digest, signing-certificate-v2): only the
  // digest changes between signatures; the signing-certificate attribute is kept per certificate (test:
  // test/platform/cades-der.test.ts, byte for byte against pkijs).
  return der(0x31, [
    CONTENT_TYPE_ATTRIBUTE,
    der(0x30, [OID_DER.messageDigest, der(0x31, [der(0x04, [documentDigest])])]),
    signerParts(certificateDer).signingCertificate,
  ]);
}

/**
 * Signs the signed attributes with a local key: ECDSA (as the DER Ecdsa-Sig-Value CMS wants) or RSA
 * PKCS#1 v1.5, both over SHA-256.
 */
export async function signWithKey(privateKey: webcrypto.CryptoKey, signedAttributes: Uint8Array): Promise<Uint8Array> {
  const algorithm =
    privateKey.algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash: 'SHA-256' } : { name: privateKey.algorithm.name };
  const signature = await globalThis.crypto.subtle.sign(algorithm, privateKey, signedAttributes);
  return new Uint8Array(privateKey.algorithm.name === 'ECDSA' ? pkijs.createCMSECDSASignature(signature) : signature);
}

/**
 * The CMS ContentInfo around signed attributes and their signature value (DER Ecdsa-Sig-Value or RSA
 * PKCS#1 v1.5 bytes), wherever that value was made. The signer is named by issuer and serial number:
 * poppler's NSS cannot resolve a subject key identifier.
 */
export async function assembleCadesSignature(input: {
  signedAttributes: Uint8Array;
  signatureValue: Uint8Array;
  certificateDer: Uint8Array;
  chainDer: Uint8Array[];
  timestamp?: Timestamper;
}): Promise<Uint8Array> {
  // Written as DER directly around the pieces that do not change (the certificates' DER, the signer's issuer and
  // serial number, the algorithm identifiers): pkijs re-encoded every certificate on every signature, 2 ms of the
  // ~4 ms a 1-page seal's signing took (measured; the bytes are the same, test/platform/cades-der.test.ts).
  const signer = signerParts(input.certificateDer);
  if (input.signedAttributes[0] !== 0x31) throw new Error('The signed attributes are not a DER SET');
  // Inside SignerInfo the attributes are tagged [0] IMPLICIT: the same bytes with the SET tag replaced (RFC 5652 5.4).
  const signedAttrs = new Uint8Array(input.signedAttributes);
  signedAttrs[0] = 0xa0;
  const unsigned: Uint8Array[] = [];
  if (input.timestamp) {
    const token = await input.timestamp(input.signatureValue);
    if (asn1js.fromBER(token).offset === -1) throw new Error('The time-stamp token is not valid DER');
    unsigned.push(der(0xa1, [der(0x30, [OID_DER.signatureTimeStampToken, der(0x31, [token])])]));
  }
  const signerInfo = der(0x30, [
    INTEGER_1,
    signer.sid,
    SHA256_ALGORITHM,
    signedAttrs,
    signer.signatureAlgorithm,
    der(0x04, [input.signatureValue]),
    ...unsigned,
  ]);
  const signedData = der(0x30, [
    INTEGER_1,
    der(0x31, [SHA256_ALGORITHM]),
    der(0x30, [OID_DER.data]),
    der(0xa0, [input.certificateDer, ...input.chainDer]),
    der(0x31, [signerInfo]),
  ]);
  return der(0x30, [OID_DER.signedData, der(0xa0, [signedData])]);
}

/** A DER element: tag, definite length, then the parts as its content. */
function der(tag: number, parts: Uint8Array[]): Uint8Array {
  const length = parts.reduce((n, part) => n + part.byteLength, 0);
  const lengthBytes: number[] = [];
  if (length < 0x80) lengthBytes.push(length);
  else {
    for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) lengthBytes.unshift(rest % 256);
    lengthBytes.unshift(0x80 | lengthBytes.length);
  }
  const out = new Uint8Array(1 + lengthBytes.length + length);
  out[0] = tag;
  out.set(lengthBytes, 1);
  let at = 1 + lengthBytes.length;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

const toDer = (schema: { toBER(sizeOnly?: boolean): ArrayBuffer }) => new Uint8Array(schema.toBER(false));
const INTEGER_1 = Uint8Array.of(0x02, 0x01, 0x01);
const SHA256_ALGORITHM = toDer(
  new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256, algorithmParams: new asn1js.Null() }).toSchema(),
);
const OID_DER = {
  data: toDer(new asn1js.ObjectIdentifier({ value: OID.data })),
  messageDigest: toDer(new asn1js.ObjectIdentifier({ value: OID.messageDigest })),
  signedData: toDer(new asn1js.ObjectIdentifier({ value: OID.signedData })),
  signatureTimeStampToken: toDer(new asn1js.ObjectIdentifier({ value: OID.signatureTimeStampToken })),
};

const CONTENT_TYPE_ATTRIBUTE = toDer(
  new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }).toSchema(),
);

type SignerParts = { sid: Uint8Array; signatureAlgorithm: Uint8Array; signingCertificate: Uint8Array };
/**
 * The signer's IssuerAndSerialNumber, signature algorithm and signing-certificate-v2 attribute as DER, from one parse
 * per certificate (the seal identity's DER arrays live long; parsing was half the cost of a signature).
 */
const signerDer = new WeakMap<Uint8Array, SignerParts>();

function signerParts(certificateDer: Uint8Array): SignerParts {
  let parts = signerDer.get(certificateDer);
  if (!parts) {
    const certificate = parseCertificate(certificateDer);
    parts = {
      sid: toDer(
        new pkijs.IssuerAndSerialNumber({
          issuer: certificate.issuer,
          serialNumber: certificate.serialNumber,
        }).toSchema(),
      ),
      signatureAlgorithm: toDer(signatureAlgorithm(certificate).toSchema()),
      signingCertificate: toDer(signingCertificateV2(certificate, certificateDer).toSchema()),
    };
    signerDer.set(certificateDer, parts);
  }
  return parts;
}

/** The signature algorithm the certificate's key implies: ecdsa-with-SHA256 or sha256WithRSAEncryption, without parameters as pkijs wrote them before. */
function signatureAlgorithm(certificate: pkijs.Certificate): pkijs.AlgorithmIdentifier {
  const keyAlgorithm = certificate.subjectPublicKeyInfo.algorithm.algorithmId;
  if (keyAlgorithm === OID_EC_PUBLIC_KEY) return new pkijs.AlgorithmIdentifier({ algorithmId: OID_ECDSA_WITH_SHA256 });
  if (keyAlgorithm === OID_RSA_ENCRYPTION) return new pkijs.AlgorithmIdentifier({ algorithmId: OID_SHA256_WITH_RSA });
  throw new Error(`Signing certificates with key algorithm ${keyAlgorithm} are not supported`);
}

/**
 * ESS signing-certificate-v2 (RFC 5035) binding the signature to the certificate: its SHA-256 (the
 * default hash, so the algorithm is omitted) and the issuer and serial number.
 */
export function signingCertificateV2(certificate: pkijs.Certificate, certificateDer: Uint8Array): pkijs.Attribute {
  const certHash = crypto.createHash('sha256').update(certificateDer).digest();
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: certificate.issuer })] }),
    serialNumber: certificate.serialNumber,
  });
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: certHash }), issuerSerial.toSchema()],
  });
  return new pkijs.Attribute({
    type: OID.signingCertificateV2,
    values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })],
  });
}
