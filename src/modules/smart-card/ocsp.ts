import type crypto from 'node:crypto';
import * as pkijs from 'pkijs';
import { CardRejected } from './card-certificate.ts';

/** An OCSP answer older than this (thisUpdate) without a nextUpdate is stale. */
const OCSP_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/**
 * Asks an OCSP responder (RFC 6960) about the card's certificate through `send`, which posts the DER request
 * and answers the DER response. The response must be signed by the issuer or by a responder certificate it
 * issued for OCSP signing, be about this certificate, and be current. Good: returns; revoked: CardRejected
 * REVOKED; anything else throws an Error (the caller then tries the next source).
 */
export async function checkOcsp(
  certificateDer: Buffer,
  issuer: crypto.X509Certificate,
  send: (request: Buffer) => Promise<Buffer>,
  now = new Date(),
): Promise<void> {
  const certificate = pkijs.Certificate.fromBER(new Uint8Array(certificateDer));
  const issuerCertificate = pkijs.Certificate.fromBER(new Uint8Array(issuer.raw));
  const request = new pkijs.OCSPRequest();
  await request.createForCertificate(certificate, { hashAlgorithm: 'SHA-256', issuerCertificate });
  const answer = await send(Buffer.from(request.toSchema(true).toBER()));
  let basic: pkijs.BasicOCSPResponse;
  try {
    const response = pkijs.OCSPResponse.fromBER(new Uint8Array(answer));
    if (response.responseStatus.valueBlock.valueDec !== 0 || !response.responseBytes)
      throw new Error(`OCSP status ${response.responseStatus.valueBlock.valueDec}`);
    basic = pkijs.BasicOCSPResponse.fromBER(response.responseBytes.response.valueBlock.valueHexView);
  } catch (error) {
    throw new Error(`the OCSP answer could not be read (${(error as Error).message})`);
  }
  // A responder that is the issuer itself usually embeds no certificate: the issuer is then the one candidate.
  if (!basic.certs || basic.certs.length === 0) basic.certs = [issuerCertificate];
  let signed: boolean;
  try {
    signed = await basic.verify({
      trustedCerts: [issuerCertificate],
      issuerCerts: [issuerCertificate],
      trustedResponders: [issuerCertificate],
    });
  } catch (error) {
    throw new Error(
      `the OCSP answer's signer is not the certificate's issuer or a responder it authorised (${(error as Error).message})`,
    );
  }
  if (!signed) throw new Error("the OCSP answer's signature does not verify");
  const single = await findSingleResponse(basic, certificate, issuerCertificate);
  if (!single) throw new Error('the OCSP answer is not about this certificate');
  const nextUpdate = single.nextUpdate;
  const stale = nextUpdate
    ? nextUpdate.getTime() < now.getTime()
    : single.thisUpdate.getTime() < now.getTime() - OCSP_MAX_AGE_MS;
  if (stale) throw new Error('the OCSP answer is out of date');
  const status = single.certStatus.idBlock.tagNumber;
  if (status === 1) throw new CardRejected('REVOKED', 'The certificate has been revoked (OCSP)');
  if (status !== 0) throw new Error('the OCSP responder does not know the certificate');
}

async function findSingleResponse(
  basic: pkijs.BasicOCSPResponse,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): Promise<pkijs.SingleResponse | null> {
  for (const single of basic.tbsResponseData.responses) {
    if (await single.certID.isEqual(await certIdFor(single.certID, certificate, issuer))) return single;
  }
  return null;
}

async function certIdFor(
  like: pkijs.CertID,
  certificate: pkijs.Certificate,
  issuer: pkijs.Certificate,
): Promise<pkijs.CertID> {
  const id = new pkijs.CertID();
  await id.createForCertificate(certificate, {
    hashAlgorithm: pkijs.getAlgorithmByOID(like.hashAlgorithm.algorithmId, true, 'hashAlgorithm').name ?? 'SHA-256',
    issuerCertificate: issuer,
  });
  return id;
}
