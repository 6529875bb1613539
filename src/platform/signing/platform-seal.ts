import type { Timestamper } from '../crypto/cades.ts';
import { createPlatformCaPublisher, type PlatformCaPublisher } from '../crypto/platform-ca.ts';
import { loadSealIdentity, type SealIdentity } from '../crypto/seal-identity.ts';
import { createTimestampClient, requestTimestampForDigest } from '../crypto/timestamp-client.ts';
import type { LongTermValidation } from './long-term.ts';
import { platformSealSigner, type PdfSigner, type SignatureDetails } from './pdf-signer.ts';

/** The platform's seal, built once at start (platform.ts) and handed to the modules that seal, verify or report. */
export type PlatformSeal = {
  /** The current identity; a certificate within 30 days of expiry is replaced on the next call (seal-identity.ts). */
  identity(): Promise<SealIdentity>;
  /**
   * The signer for the next seal. With the configured TSA it is PAdES B-LTA: signature time-stamp (B-T), then
   * the DSS with the chain and the platform CA's CRL (B-LT), then a document time-stamp (B-LTA).
   */
  signer(details: SignatureDetails): Promise<PdfSigner>;
  /** The platform CA's certificate and CRL, published under PUBLIC_URL by the pki module. */
  ca: PlatformCaPublisher;
};

export function createPlatformSeal(options: { dataDir: string; tsaUrl?: string; publicUrl?: string }): PlatformSeal {
  const timestamp: Timestamper | undefined = options.tsaUrl ? createTimestampClient(options.tsaUrl) : undefined;
  const ca = createPlatformCaPublisher(options.dataDir, options.publicUrl);
  const tsaUrl = options.tsaUrl;
  const longTerm: LongTermValidation | undefined = tsaUrl
    ? { timestampDigest: (digest) => requestTimestampForDigest(tsaUrl, digest), revocationData: ca.revocationData }
    : undefined;
  const identity = () => loadSealIdentity(options.dataDir, { publicUrl: options.publicUrl });
  return {
    identity,
    signer: async (details) => platformSealSigner(await identity(), details, timestamp, longTerm),
    ca,
  };
}
