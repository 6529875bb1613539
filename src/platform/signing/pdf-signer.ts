import type { webcrypto } from 'node:crypto';
import { signWithKey, type Timestamper } from '../crypto/cades.ts';
import type { SealIdentity } from '../crypto/seal-identity.ts';
import type { LongTermValidation } from './long-term.ts';
import type { SignatureField } from './signature-update.ts';

/**
 * Who signs a PDF revision, whatever holds the key: the platform seal, a signer's own key held here, or a
 * remote service (CSC) that signs a hash. All three go through the same pipeline (append-signature.ts).
 */
export type PdfSigner = {
  kind: 'PLATFORM_SEAL' | 'LOCAL_KEY' | 'REMOTE_HASH';
  certificateDer: Uint8Array;
  /** Issuer certificates, nearest first, embedded so a validator can build the path without fetching anything. */
  chainDer: Uint8Array[];
  field: SignatureField;
  /** Makes the signature B-T: a time-stamp over the signature value. */
  timestamp?: Timestamper;
  /** Raises the signed file to B-LTA (DSS, then a document time-stamp) right after this signature. */
  longTerm?: LongTermValidation;
  /**
   * Signs the DER signed attributes when the key is here. A remote signer has none: its signature value
   * arrives later and is handed to completeSignature.
   */
  sign?: (signedAttributes: Uint8Array) => Promise<Uint8Array>;
};

export type SignatureDetails = Omit<SignatureField, 'name'>;

export const PLATFORM_SEAL_FIELD = 'PlatformSeal';
export const SIGNER_FIELD = 'Signature';

export function platformSealSigner(
  identity: SealIdentity,
  details: SignatureDetails = {},
  timestamp?: Timestamper,
  longTerm?: LongTermValidation,
): PdfSigner {
  return {
    longTerm,
    kind: 'PLATFORM_SEAL',
    certificateDer: identity.certificateDer,
    chainDer: identity.chainDer,
    field: { name: PLATFORM_SEAL_FIELD, ...details },
    timestamp,
    sign: (signedAttributes) => signWithKey(identity.privateKey, signedAttributes),
  };
}

/** A signer whose key pair and certificate the service holds (issue 12 provisions them per person). */
export function localKeySigner(
  key: { certificateDer: Uint8Array; chainDer: Uint8Array[]; privateKey: webcrypto.CryptoKey },
  details: SignatureDetails = {},
  timestamp?: Timestamper,
): PdfSigner {
  return {
    kind: 'LOCAL_KEY',
    certificateDer: key.certificateDer,
    chainDer: key.chainDer,
    field: { name: SIGNER_FIELD, ...details },
    timestamp,
    sign: (signedAttributes) => signWithKey(key.privateKey, signedAttributes),
  };
}

/** A signer whose key stays with a remote signing service: it is sent PendingSignature.hashToSign. */
export function remoteHashSigner(
  certificate: { certificateDer: Uint8Array; chainDer: Uint8Array[] },
  details: SignatureDetails = {},
  timestamp?: Timestamper,
): PdfSigner {
  return { kind: 'REMOTE_HASH', ...certificate, field: { name: SIGNER_FIELD, ...details }, timestamp };
}
