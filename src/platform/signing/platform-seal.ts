import type { Timestamper } from '../crypto/cades.ts';
import { loadSealIdentity, type SealIdentity } from '../crypto/seal-identity.ts';
import { createTimestampClient } from '../crypto/timestamp-client.ts';
import { platformSealSigner, type PdfSigner, type SignatureDetails } from './pdf-signer.ts';

/** The platform's seal, built once at start (platform.ts) and handed to the modules that seal, verify or report. */
export type PlatformSeal = {
  /** The current identity; a certificate within 30 days of expiry is replaced on the next call (seal-identity.ts). */
  identity(): Promise<SealIdentity>;
  /** The signer for the next seal, with the configured TSA (B-T) when there is one. */
  signer(details: SignatureDetails): Promise<PdfSigner>;
};

export function createPlatformSeal(options: { dataDir: string; tsaUrl?: string }): PlatformSeal {
  const timestamp: Timestamper | undefined = options.tsaUrl ? createTimestampClient(options.tsaUrl) : undefined;
  const identity = () => loadSealIdentity(options.dataDir);
  return {
    identity,
    signer: async (details) => platformSealSigner(await identity(), details, timestamp),
  };
}
