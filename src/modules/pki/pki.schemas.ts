import { Type } from 'typebox';

export const CertificateFile = Type.String({
  description: 'The platform root CA certificate, DER (application/pkix-cert, RFC 2585)',
});
export const CrlFile = Type.String({
  description: "The platform root CA's current CRL, DER (application/pkix-crl, RFC 2585)",
});
