import crypto from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID, cryptoEngine, formatName } from './certificates.ts';

export type SignatureCheck = {
  integrity: 'VALID' | 'INVALID';
  /** Why integrity is INVALID, for people reading the answer. */
  problem: string | null;
  signerName: string | null;
  /** The signing time the CMS claims (signing-time attribute), if any. */
  claimedTime: Date | null;
  /** The trusted time of an RFC 3161 time-stamp over the signature (or, for a document time-stamp, the stamp's own time). */
  timestamp: Date | null;
  certificate: { subject: string; issuer: string; notBefore: Date; notAfter: Date; trustedByPlatform: boolean } | null;
};

const SIGNING_TIME = '1.2.840.113549.1.9.5';
const HASH_NAMES: Record<string, string> = { sha256: 'SHA-256', sha384: 'SHA-384', sha512: 'SHA-512', sha1: 'SHA-1' };

const DIGESTS: Record<string, string> = {
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '1.3.14.3.2.26': 'sha1',
};

/**
 * Checks one PDF signature: that the CMS (PKCS #7 detached, or an RFC 3161 token for a document time-stamp)
 * signs exactly the bytes of its byte range, with the certificate it names by issuer and serial number; and
 * whether that certificate's chain reaches one of `trustAnchors` (the platform CA). Never throws for a broken
 * signature: a verdict of INVALID with the reason is the answer.
 */
export async function checkPdfSignature(
  digestOfSignedBytes: (algorithm: string) => Buffer,
  cmsDer: Uint8Array,
  trustAnchors: pkijs.Certificate[],
  options: { documentTimestamp: boolean },
): Promise<SignatureCheck> {
  const result: SignatureCheck = {
    integrity: 'INVALID',
    problem: null,
    signerName: null,
    claimedTime: null,
    timestamp: null,
    certificate: null,
  };
  let signedData: pkijs.SignedData;
  try {
    const contentInfo = pkijs.ContentInfo.fromBER(cmsDer);
    if (contentInfo.contentType !== OID.signedData) throw new Error('not SignedData');
    signedData = new pkijs.SignedData({ schema: contentInfo.content });
  } catch {
    result.problem = 'The signature value is not a readable CMS SignedData';
    return result;
  }
  const signerInfo = signedData.signerInfos[0];
  if (!signerInfo) {
    result.problem = 'The CMS names no signer';
    return result;
  }
  const certificates = (signedData.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
  const signer = findSigner(signerInfo, certificates);
  if (signer) {
    result.signerName = commonName(signer) ?? formatName(signer.subject);
    result.certificate = {
      subject: formatName(signer.subject),
      issuer: formatName(signer.issuer),
      notBefore: signer.notBefore.value,
      notAfter: signer.notAfter.value,
      trustedByPlatform: await chainsTo(signer, certificates, trustAnchors),
    };
  }
  const signingTime = signerInfo.signedAttrs?.attributes.find((a) => a.type === SIGNING_TIME)?.values[0];
  if (signingTime && 'toDate' in signingTime) result.claimedTime = (signingTime as asn1js.UTCTime).toDate();

  try {
    if (options.documentTimestamp) {
      // A document time-stamp: the token's TSTInfo carries the digest of the signed bytes.
      const tstInfo = readTstInfo(signedData);
      result.timestamp = tstInfo.genTime;
      const algorithm = DIGESTS[tstInfo.messageImprint.hashAlgorithm.algorithmId];
      const expected = algorithm ? digestOfSignedBytes(algorithm) : null;
      if (!expected?.equals(Buffer.from(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView))) {
        result.problem = 'The document time-stamp does not match the bytes it covers';
        return result;
      }
      const content = signedData.encapContentInfo.eContent;
      if (!content || !(await timestampTokenSignatureVerifies(signedData, content.getValue()))) {
        result.problem = "The time-stamp token's signature does not verify";
        return result;
      }
    } else {
      // The signed bytes' digest comes from the caller (hashed in place, shared between signatures); then only the
      // signed attributes, which carry that digest, are checked against the signature: the document is hashed once.
      const algorithm = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
      const claimed = signerInfo.signedAttrs?.attributes.find((a) => a.type === OID.messageDigest)?.values[0];
      if (!algorithm || !(claimed instanceof asn1js.OctetString) || !signer) {
        result.problem = !signer
          ? "The signer's certificate is not in the signature"
          : 'The signature has no message digest this service can check';
        return result;
      }
      if (!digestOfSignedBytes(algorithm).equals(Buffer.from(claimed.getValue()))) {
        result.problem = "The document was changed after signing: the signed bytes do not match the signature's digest";
        return result;
      }
      if (!(await signedAttributesVerify(signerInfo, signer, algorithm))) {
        result.problem = 'The signature does not match its certificate';
        return result;
      }
      result.timestamp = signatureTimestamp(signerInfo);
    }
  } catch (error) {
    result.problem = `The signature could not be verified (${error instanceof Error ? error.message.slice(0, 120) : 'unknown reason'})`;
    return result;
  }
  if (!signer) {
    result.problem = "The signer's certificate is not in the signature";
    return result;
  }
  result.integrity = 'VALID';
  return result;
}

function findSigner(signerInfo: pkijs.SignerInfo, certificates: pkijs.Certificate[]): pkijs.Certificate | null {
  const sid = signerInfo.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certificates.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber)) ?? null;
  }
  return null;
}

async function chainsTo(
  signer: pkijs.Certificate,
  certificates: pkijs.Certificate[],
  anchors: pkijs.Certificate[],
): Promise<boolean> {
  if (anchors.length === 0) return false;
  try {
    const engine = new pkijs.CertificateChainValidationEngine({
      trustedCerts: anchors,
      certs: [signer, ...certificates.filter((c) => c !== signer)],
      checkDate: new Date(),
    });
    const verdict = await engine.verify({}, cryptoEngine);
    return verdict.result === true;
  } catch {
    return false;
  }
}

function readTstInfo(signedData: pkijs.SignedData): pkijs.TSTInfo {
  const content = signedData.encapContentInfo.eContent;
  if (signedData.encapContentInfo.eContentType !== OID.tstInfo || !content) throw new Error('not a time-stamp token');
  // Tokens usually carry TSTInfo in a constructed (chunked) OCTET STRING; getValue() joins the chunks.
  return pkijs.TSTInfo.fromBER(content.getValue());
}

/** The genTime of a signature time-stamp whose imprint matches this signature's value; null when absent or mismatched. */
function signatureTimestamp(signerInfo: pkijs.SignerInfo): Date | null {
  const attribute = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === OID.signatureTimeStampToken);
  if (!attribute) return null;
  try {
    const token = pkijs.ContentInfo.fromBER(attribute.values[0].toBER(false));
    const tstInfo = readTstInfo(new pkijs.SignedData({ schema: token.content }));
    const algorithm = DIGESTS[tstInfo.messageImprint.hashAlgorithm.algorithmId];
    if (!algorithm) return null;
    const digest = crypto.createHash(algorithm).update(signerInfo.signature.valueBlock.valueHexView).digest();
    return digest.equals(Buffer.from(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView))
      ? tstInfo.genTime
      : null;
  } catch {
    return null;
  }
}

function commonName(certificate: pkijs.Certificate): string | null {
  const cn = certificate.subject.typesAndValues.find((tv) => tv.type === OID.commonName);
  return cn ? String(cn.value.valueBlock.value) : null;
}

/**
 * The token's signer signed its attributes, and their message-digest is the TSTInfo's: pkijs' own verify
 * insists on the time-stamped data itself, which a digest-only request or a document time-stamp (whose data
 * is the file's byte ranges, compared by imprint) does not hand it.
 */
export async function timestampTokenSignatureVerifies(
  signedData: pkijs.SignedData,
  tstInfoDer: ArrayBuffer,
): Promise<boolean> {
  const signerInfo = signedData.signerInfos[0];
  const sid = signerInfo?.sid;
  const signer =
    sid instanceof pkijs.IssuerAndSerialNumber
      ? (signedData.certificates ?? []).find(
          (c): c is pkijs.Certificate =>
            c instanceof pkijs.Certificate && c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber),
        )
      : undefined;
  if (!signer || !signerInfo.signedAttrs) return false;
  const digestName = DIGESTS[signerInfo.digestAlgorithm.algorithmId];
  const claimed = signerInfo.signedAttrs.attributes.find((a) => a.type === OID.messageDigest)?.values[0];
  if (!digestName || !(claimed instanceof asn1js.OctetString)) return false;
  if (!crypto.createHash(digestName).update(Buffer.from(tstInfoDer)).digest().equals(Buffer.from(claimed.getValue())))
    return false;
  return signedAttributesVerify(signerInfo, signer, digestName).catch(() => false);
}

function signedAttributesVerify(
  signerInfo: pkijs.SignerInfo,
  signer: pkijs.Certificate,
  digestName: string,
): Promise<boolean> {
  // The signature covers the attributes' DER as a SET OF (tag 0x31), not as the [0] IMPLICIT they are stored with.
  const attributes = new Uint8Array(signerInfo.signedAttrs!.encodedValue.slice(0));
  attributes[0] = 0x31;
  return cryptoEngine.verifyWithPublicKey(
    attributes,
    signerInfo.signature,
    signer.subjectPublicKeyInfo,
    signerInfo.signatureAlgorithm,
    HASH_NAMES[digestName],
  );
}
