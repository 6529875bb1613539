import type { SealIdentity } from '../crypto/seal-identity.ts';
import { createTimestampClient } from '../crypto/timestamp-client.ts';
import { appendSignature } from '../signing/append-signature.ts';
import { platformSealSigner } from '../signing/pdf-signer.ts';

export type SealOptions = {
  tsaUrl?: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  signerName?: string;
};

/**
 * One invisible PAdES signature by the platform seal: baseline B-B (ETSI.CAdES.detached, SHA-256,
 * signing-certificate-v2, chain embedded), or B-T when tsaUrl is given (signature time-stamp from that
 * RFC 3161 TSA). Incremental save: the original bytes stay byte-identical as a prefix. The service seals
 * through platform-seal.ts; this is the same seal for callers holding an identity of their own.
 */
export async function sealPdf(pdf: Uint8Array, identity: SealIdentity, options: SealOptions = {}): Promise<Uint8Array> {
  const { tsaUrl, ...details } = options;
  return appendSignature(
    pdf,
    platformSealSigner(identity, details, tsaUrl ? createTimestampClient(tsaUrl) : undefined),
  );
}
