import crypto from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { OID } from './certificates.ts';
import { timestampTokenSignatureVerifies } from './verify-signature.ts';

const TIMEOUT_MS = 30_000;

/** The TSA at `url` as a Timestamper: built once at start and handed to every signature that wants B-T. */
export function createTimestampClient(
  url: string,
  options: { timeoutMs?: number } = {},
): (data: Uint8Array) => Promise<Uint8Array> {
  return (data) => requestTimestamp(url, data, options);
}

/**
 * Asks an RFC 3161 time-stamp authority for a token over SHA-256(data) and returns the TimeStampToken
 * (DER ContentInfo). The answer is checked before it is embedded anywhere: status granted, the same
 * message imprint and nonce, and a signature that verifies with the TSA certificate it carries (certReq
 * is set so that certificate is always there). Trust in the TSA itself is the validator's decision.
 */
export async function requestTimestamp(
  url: string,
  data: Uint8Array,
  options: { timeoutMs?: number } = {},
): Promise<Uint8Array> {
  return requestTimestampForDigest(url, crypto.createHash('sha256').update(data).digest(), options);
}

/**
 * The same over a SHA-256 the caller computed (a document time-stamp hashes the file's byte ranges in place);
 * the token must carry exactly that imprint.
 */
export async function requestTimestampForDigest(
  url: string,
  imprint: Uint8Array,
  options: { timeoutMs?: number } = {},
): Promise<Uint8Array> {
  if (imprint.length !== 32) throw new Error('A time-stamp request needs a SHA-256 digest');
  const nonce = crypto.randomBytes(8);
  nonce[0] = (nonce[0] & 0x7f) | 0x01;
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: imprint }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
      body: new Uint8Array(request.toSchema().toBER(false)),
      signal: AbortSignal.timeout(options.timeoutMs ?? TIMEOUT_MS),
    });
  } catch (error) {
    throw new Error(`Time-stamp authority ${url} is unreachable: ${(error as Error).message}`, { cause: error });
  }
  if (!response.ok) throw new Error(`Time-stamp authority ${url} answered HTTP ${response.status}`);
  const body = new Uint8Array(await response.arrayBuffer());
  let parsed: pkijs.TimeStampResp;
  try {
    parsed = pkijs.TimeStampResp.fromBER(body);
  } catch (error) {
    throw new Error(`Time-stamp authority ${url} answered something that is not a TimeStampResp`, { cause: error });
  }
  const status = parsed.status.status;
  if (status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) {
    const text = parsed.status.statusStrings?.map((s) => s.valueBlock.value).join('; ');
    throw new Error(`Time-stamp authority ${url} refused the request (status ${status}${text ? `: ${text}` : ''})`);
  }
  if (!parsed.timeStampToken || parsed.timeStampToken.contentType !== OID.signedData) {
    throw new Error(`Time-stamp authority ${url} granted the request but sent no token`);
  }
  const signedData = new pkijs.SignedData({ schema: parsed.timeStampToken.content });
  const eContent = signedData.encapContentInfo.eContent;
  if (signedData.encapContentInfo.eContentType !== OID.tstInfo || !eContent)
    throw new Error('The time-stamp token holds no TSTInfo');
  const tstInfo = pkijs.TSTInfo.fromBER(eContent.getValue());
  if (!tstInfo.nonce || !Buffer.from(tstInfo.nonce.valueBlock.valueHexView).equals(nonce)) {
    throw new Error('The time-stamp token does not answer this request (nonce differs)');
  }
  if (
    tstInfo.messageImprint.hashAlgorithm.algorithmId !== OID.sha256 ||
    !Buffer.from(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView).equals(Buffer.from(imprint))
  ) {
    throw new Error('The time-stamp token is over other data (message imprint differs)');
  }
  if (!(await timestampTokenSignatureVerifies(signedData, eContent.getValue())))
    throw new Error('The time-stamp token signature does not verify');
  return new Uint8Array(parsed.timeStampToken.toSchema().toBER(false));
}
