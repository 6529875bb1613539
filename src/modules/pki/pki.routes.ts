import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { PlatformCaPublisher } from '../../platform/crypto/platform-ca.ts';
import { PKI_PATHS } from '../../platform/crypto/seal-identity.ts';
import { CertificateFile, CrlFile } from './pki.schemas.ts';

/** A CRL is re-signed daily and valid for a week: an hour of caching keeps verifiers current enough. */
const CRL_MAX_AGE_SECONDS = 3600;
const CERTIFICATE_MAX_AGE_SECONDS = 86_400;

/**
 * Where a seal certificate's CRL distribution point and AIA caIssuers point (PUBLIC_URL + PKI_PATHS), so a
 * validator (Adobe, a DSS validator) can fetch them. Public: both are meant for anyone holding a sealed file.
 */
export function pkiRoutes(ca: PlatformCaPublisher): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      PKI_PATHS.certificate,
      {
        schema: {
          tags: ['Verification'],
          summary: 'The platform CA certificate',
          description:
            'Public. The root CA that issues the platform seal certificates, DER-encoded; seal certificates name this URL (AIA caIssuers).',
          produces: ['application/pkix-cert'],
          response: { 200: CertificateFile },
        },
        config: { auth: 'public' },
      },
      async (_request, reply) => {
        const der = await ca.certificateDer();
        return reply
          .type('application/pkix-cert')
          .header('cache-control', `public, max-age=${CERTIFICATE_MAX_AGE_SECONDS}`)
          .header('content-disposition', 'attachment; filename="ca.crt"')
          .send(Buffer.from(der) as never);
      },
    );

    app.get(
      PKI_PATHS.crl,
      {
        schema: {
          tags: ['Verification'],
          summary: 'The platform CA certificate revocation list',
          description:
            "Public. The platform CA's current CRL, DER-encoded, re-signed daily and valid for seven days; seal certificates name this URL " +
            '(CRL distribution point) and long-term seals embed it in the document security store.',
          produces: ['application/pkix-crl'],
          response: { 200: CrlFile },
        },
        config: { auth: 'public' },
      },
      async (_request, reply) => {
        const der = await ca.crl();
        return reply
          .type('application/pkix-crl')
          .header('cache-control', `public, max-age=${CRL_MAX_AGE_SECONDS}`)
          .header('content-disposition', 'attachment; filename="ca.crl"')
          .send(Buffer.from(der) as never);
      },
    );
  };
}
