import crypto from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID, cryptoEngine, parseCertificate } from './certificates.ts';

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

/**
 * A detached CMS SignedData as ETSI EN 319 122-1 (CAdES baseline B) and PAdES want it: signed attributes
 * content-type, message-digest and signing-certificate-v2 only. No signing-time attribute: PAdES baseline
 * forbids it (the claimed time is the signature dictionary's /M), and the trusted time comes from the
 * signature time-stamp.
 */
export async function createCadesSignature(input: CadesSignatureInput): Promise<Uint8Array> {
  const certificate = parsedCertificate(input.certificateDer);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: [
        new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
        new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: input.documentDigest })] }),
        signingCertificateV2(certificate, input.certificateDer),
      ],
    }),
  });
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    signerInfos: [signerInfo],
    certificates: [certificate, ...input.chainDer.map(parsedCertificate)],
  });
  await signedData.sign(input.privateKey, 0, 'SHA-256', undefined, cryptoEngine);
  if (input.timestamp) {
    const token = await input.timestamp(signerInfo.signature.valueBlock.valueHexView);
    const parsed = asn1js.fromBER(token);
    if (parsed.offset === -1) throw new Error('The time-stamp token is not valid DER');
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [parsed.result] })],
    });
  }
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER(false));
}

/** Parsing the certificates was half the cost of a signature; the seal identity's DER arrays live long. */
const parsed = new WeakMap<Uint8Array, pkijs.Certificate>();

function parsedCertificate(der: Uint8Array): pkijs.Certificate {
  let certificate = parsed.get(der);
  if (!certificate) {
    certificate = parseCertificate(der);
    parsed.set(der, certificate);
  }
  return certificate;
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
  const essCertIdV2 = new asn1js.Sequence({ value: [new asn1js.OctetString({ valueHex: certHash }), issuerSerial.toSchema()] });
  return new pkijs.Attribute({
    type: OID.signingCertificateV2,
    values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })],
  });
}
