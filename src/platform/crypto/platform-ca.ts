import type { webcrypto } from 'node:crypto';
import { issueCrl, parseCertificate } from './certificates.ts';
import { PKI_PATHS, loadPlatformCa } from './seal-identity.ts';
import { issueSignerCertificate, type SignerSubject } from './signer-certificate.ts';

/** What the platform CA publishes (pki module) and hands the long-term seal: its certificate and its CRL. */
export type PlatformCaPublisher = {
  certificateDer(): Promise<Uint8Array>;
  /** The current CRL (DER), re-signed once a day, valid for a week. */
  crl(): Promise<Uint8Array>;
  /** The CRL for those of `certificatesDer` the platform CA issued (none for a public CA's or a TSA's). */
  revocationData(certificatesDer: Uint8Array[]): Promise<Uint8Array[]>;
  /**
   * A person's signing certificate for `publicKey` (signer-certificate.ts), issued by the platform CA and naming
   * its CRL and certificate under PUBLIC_URL; `chainDer` is the CA certificate.
   */
  issueSignerCertificate(
    subject: SignerSubject,
    publicKey: webcrypto.CryptoKey,
  ): Promise<{ certificateDer: Uint8Array; chainDer: Uint8Array[] }>;
  /** The issuers a signer certificate of this CA carries in a CMS: the CA certificate. */
  signerChainDer(): Promise<Uint8Array[]>;
};

const DAY_MS = 24 * 60 * 60 * 1000;
const REISSUE_AFTER_MS = DAY_MS;
const CRL_VALIDITY_MS = 7 * DAY_MS;

export function createPlatformCaPublisher(dataDir: string, publicUrl?: string): PlatformCaPublisher {
  let ca: ReturnType<typeof loadPlatformCa> | null = null;
  let current: { issuedAt: number; der: Promise<Uint8Array> } | null = null;
  const authority = () => {
    ca ??= loadPlatformCa(dataDir);
    ca.catch(() => {
      ca = null;
    });
    return ca;
  };
  const crl = () => {
    const now = Date.now();
    if (!current || now - current.issuedAt > REISSUE_AFTER_MS) {
      // Backdated a little, like the certificates, so a verifier whose clock is slightly behind accepts it.
      const issued = {
        issuedAt: now,
        der: authority().then((a) => issueCrl(a, new Date(now - 10 * 60 * 1000), new Date(now + CRL_VALIDITY_MS))),
      };
      issued.der.catch(() => {
        if (current === issued) current = null;
      });
      current = issued;
    }
    return current.der;
  };
  return {
    certificateDer: async () => (await authority()).certificateDer,
    crl,
    async revocationData(certificatesDer) {
      const { certificate: caCertificate } = await authority();
      for (const der of certificatesDer) {
        const certificate = parseCertificate(der);
        if (certificate.subject.isEqual(caCertificate.subject) || !certificate.issuer.isEqual(caCertificate.subject))
          continue;
        if (await certificate.verify(caCertificate).catch(() => false)) return [await crl()];
      }
      return [];
    },
    async issueSignerCertificate(subject, publicKey) {
      const a = await authority();
      const urls = publicUrl
        ? { crlUrl: `${publicUrl}${PKI_PATHS.crl}`, issuerCertificateUrl: `${publicUrl}${PKI_PATHS.certificate}` }
        : {};
      return {
        certificateDer: await issueSignerCertificate(a, subject, publicKey, urls),
        chainDer: [a.certificateDer],
      };
    },
    signerChainDer: async () => [(await authority()).certificateDer],
  };
}
