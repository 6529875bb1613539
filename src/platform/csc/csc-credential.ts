import crypto from 'node:crypto';
import * as pkijs from 'pkijs';
import { formatName, parseCertificate } from '../crypto/certificates.ts';
import { CscError } from './csc-error.ts';

/** The three kinds of signature the service names (RUNTIME.md check-user-credits, service-plan-qualifier). */
export type CscQualifier = 'SES' | 'AES' | 'QES';

/** A credential at the CSC provider as the service uses it: the key's certificate chain and what it may sign. */
export type CscCredential = {
  credentialId: string;
  description: string | null;
  /** RSA or ECDSA: the key of the end-entity certificate (the only two a CMS here is assembled for). */
  keyAlgorithm: 'RSA' | 'ECDSA';
  /** The signAlgo sent to signatures/signHash, one the credential's key.algo lists. */
  signAlgo: string;
  certificateDer: Uint8Array;
  /** Issuer certificates the provider sent, nearest first. */
  chainDer: Uint8Array[];
  certificate: { subject: string; issuer: string; notBefore: string; notAfter: string };
  /**
   * What a signature with this credential is (see qualifiersOf): exactly the level the provider declares, so a
   * quota is always counted at the level actually produced.
   */
  qualifiers: CscQualifier[];
  /** Why the credential cannot sign now (key disabled, certificate expired or revoked, unsupported key), or null. */
  unusableBecause: string | null;
};

const OID_RSA = '1.2.840.113549.1.1.1';
const OID_SHA256_WITH_RSA = '1.2.840.113549.1.1.11';
const OID_EC = '1.2.840.10045.2.1';
const OID_ECDSA_SHA256 = '1.2.840.10045.4.3.2';

/**
 * CSC v2 `signatureQualifier` of a credential, as the service's qualifier: qualified signatures and seals are
 * QES; advanced ones (with or without a qualified certificate) AES; anything else, or none declared, SES. A
 * credential is offered for its own level only: a QES credential is not offered for AES, since its signature
 * would be qualified while counted against the advanced quota.
 */
export function qualifiersOf(signatureQualifier: unknown): CscQualifier[] {
  if (typeof signatureQualifier !== 'string') return ['SES'];
  const value = signatureQualifier.toLowerCase();
  if (['eu_eidas_qes', 'eu_eidas_qeseal'].includes(value)) return ['QES'];
  if (['eu_eidas_aes', 'eu_eidas_aesqc', 'eu_eidas_aeseal', 'eu_eidas_aesealqc', 'za_ecta_aes'].includes(value))
    return ['AES'];
  return ['SES'];
}

/** A credentials/info answer (or one entry of credentials/list's credentialInfos) as a CscCredential. */
export function parseCredentialInfo(credentialId: string, info: Record<string, unknown>): CscCredential {
  const key = (info.key ?? {}) as Record<string, unknown>;
  const cert = (info.cert ?? {}) as Record<string, unknown>;
  const encoded = Array.isArray(cert.certificates) ? cert.certificates : [];
  if (encoded.length === 0 || !encoded.every((c) => typeof c === 'string')) {
    throw new CscError(
      'UNAVAILABLE',
      `credentials/info of ${credentialId} carries no certificate (asked for the chain)`,
    );
  }
  const ders = (encoded as string[]).map((c) => new Uint8Array(Buffer.from(c, 'base64')));
  let certificate: pkijs.Certificate;
  try {
    certificate = parseCertificate(ders[0]);
  } catch {
    throw new CscError('UNAVAILABLE', `The certificate of credential ${credentialId} cannot be read`);
  }
  const spkiAlgorithm = certificate.subjectPublicKeyInfo.algorithm.algorithmId;
  const keyAlgorithm = spkiAlgorithm === OID_RSA ? 'RSA' : spkiAlgorithm === OID_EC ? 'ECDSA' : null;
  const algos = Array.isArray(key.algo) ? key.algo.filter((a): a is string => typeof a === 'string') : [];
  const signAlgo =
    keyAlgorithm === 'RSA'
      ? pick(algos, [OID_SHA256_WITH_RSA, OID_RSA])
      : keyAlgorithm === 'ECDSA'
        ? pick(algos, [OID_ECDSA_SHA256, OID_EC])
        : null;
  const notBefore = certificate.notBefore.value;
  const notAfter = certificate.notAfter.value;
  const now = Date.now();
  const unusableBecause =
    key.status !== undefined && key.status !== 'enabled'
      ? `its key is ${String(key.status)}`
      : cert.status !== undefined && cert.status !== 'valid'
        ? `its certificate is ${String(cert.status)}`
        : notBefore.getTime() > now || notAfter.getTime() < now
          ? 'its certificate is not valid now'
          : !keyAlgorithm
            ? `its key algorithm (${spkiAlgorithm}) is not supported (RSA or ECDSA)`
            : !signAlgo
              ? `its key allows none of the signature algorithms used here (${keyAlgorithm} with SHA-256)`
              : null;
  return {
    credentialId,
    description: typeof info.description === 'string' ? info.description : null,
    keyAlgorithm: keyAlgorithm ?? 'RSA',
    signAlgo: signAlgo ?? OID_SHA256_WITH_RSA,
    certificateDer: ders[0],
    chainDer: ders.slice(1),
    certificate: {
      subject: formatName(certificate.subject),
      issuer: formatName(certificate.issuer),
      notBefore: notBefore.toISOString(),
      notAfter: notAfter.toISOString(),
    },
    qualifiers: qualifiersOf(info.signatureQualifier),
    unusableBecause,
  };
}

/** The first preferred algorithm the key lists; a provider that lists none is taken to allow the first. */
function pick(listed: string[], preferred: string[]): string | null {
  if (listed.length === 0) return preferred[0];
  return preferred.find((oid) => listed.includes(oid)) ?? null;
}

/**
 * Checks a signature value from signHash against the credential's certificate over `signedAttributes` (whose
 * SHA-256 was the hash sent). Returns the value as CMS wants it (DER Ecdsa-Sig-Value for ECDSA, accepting a
 * provider's raw r||s too; PKCS#1 v1.5 bytes for RSA), or null when it is not a signature of these bytes by
 * this key: a signature over another hash must never reach a document.
 */
export function verifiedSignatureValue(
  credential: Pick<CscCredential, 'certificateDer' | 'keyAlgorithm'>,
  signedAttributes: Uint8Array,
  value: Uint8Array,
): Uint8Array | null {
  let publicKey: crypto.KeyObject;
  try {
    publicKey = new crypto.X509Certificate(credential.certificateDer).publicKey;
  } catch {
    return null;
  }
  const verify = (dsaEncoding?: 'der' | 'ieee-p1363') => {
    try {
      return crypto.verify(
        'sha256',
        signedAttributes,
        dsaEncoding ? { key: publicKey, dsaEncoding } : publicKey,
        value,
      );
    } catch {
      return false;
    }
  };
  if (credential.keyAlgorithm === 'RSA') {
    if (publicKey.asymmetricKeyType !== 'rsa') return null;
    return verify() ? value : null;
  }
  if (publicKey.asymmetricKeyType !== 'ec') return null;
  if (verify('der')) return value;
  if (verify('ieee-p1363')) return new Uint8Array(pkijs.createCMSECDSASignature(value.slice().buffer as ArrayBuffer));
  return null;
}
