import crypto from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { signingCertificateV2 } from '../../src/platform/crypto/cades.ts';
import {
  OID,
  certificateToDer,
  cryptoEngine,
  issueCertificate,
  pemEncode,
} from '../../src/platform/crypto/certificates.ts';

/** An example-arc OID (2.999 is reserved for examples) as the test TSA's policy. */
const TEST_POLICY = '2.999.3161.1';
const DAY_MS = 24 * 60 * 60 * 1000;

export type TsaServer = {
  url: string;
  close(): Promise<void>;
  /** The test TSA's root, for verifiers that should trust it. */
  caCertificatePem: string;
  /** Time-stamp requests answered so far (granted or not). */
  requests(): number;
};

/**
 * A real RFC 3161 responder on 127.0.0.1 for tests: answers application/timestamp-query with a
 * TimeStampResp whose token is signed by a TSA certificate (id-kp-timeStamping, critical) issued by its
 * own test root, with signing-certificate-v2 and the nonce echoed. `refuse: true` answers every request
 * with status rejection, as a TSA out of service would.
 */
export async function startTsaServer(options: { refuse?: boolean } = {}): Promise<TsaServer> {
  const ec: webcrypto.EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
  const caKeys = await crypto.subtle.generateKey(ec, false, ['sign', 'verify']);
  const tsaKeys = await crypto.subtle.generateKey(ec, false, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - DAY_MS);
  const notAfter = new Date(Date.now() + 365 * DAY_MS);
  const ca = await issueCertificate({
    commonName: 'Test TSA Root',
    organization: 'Signature Service Tests',
    publicKey: caKeys.publicKey,
    signingKey: caKeys.privateKey,
    notBefore,
    notAfter,
    isCa: true,
    keyUsage: ['keyCertSign', 'cRLSign'],
  });
  const tsa = await issueCertificate({
    commonName: 'Test Time-Stamp Authority',
    organization: 'Signature Service Tests',
    publicKey: tsaKeys.publicKey,
    issuer: { certificate: ca, privateKey: caKeys.privateKey },
    notBefore,
    notAfter,
    isCa: false,
    keyUsage: ['digitalSignature', 'nonRepudiation'],
    extendedKeyUsage: [OID.timeStamping],
  });
  const tsaDer = certificateToDer(tsa);
  let requests = 0;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests++;
      if (request.method !== 'POST' || request.headers['content-type'] !== 'application/timestamp-query') {
        response.writeHead(415).end();
        return;
      }
      answer(Buffer.concat(chunks)).then(
        (body) => {
          response
            .writeHead(200, { 'content-type': 'application/timestamp-reply', 'content-length': body.length })
            .end(body);
        },
        () => response.writeHead(500).end(),
      );
    });
  });

  async function answer(body: Buffer): Promise<Buffer> {
    let tsReq: pkijs.TimeStampReq;
    try {
      tsReq = pkijs.TimeStampReq.fromBER(body);
    } catch {
      return reject(5, 'badDataFormat');
    }
    if (options.refuse) return reject(25, 'systemFailure: the test TSA refuses every request');
    if (tsReq.messageImprint.hashAlgorithm.algorithmId !== OID.sha256) return reject(0, 'badAlg');
    const tstInfo = new pkijs.TSTInfo({
      version: 1,
      policy: tsReq.reqPolicy ?? TEST_POLICY,
      messageImprint: tsReq.messageImprint,
      serialNumber: new asn1js.Integer({ valueHex: serial() }),
      genTime: new Date(Math.floor(Date.now() / 1000) * 1000),
      accuracy: new pkijs.Accuracy({ seconds: 1 }),
      nonce: tsReq.nonce,
    });
    const tstInfoDer = new Uint8Array(tstInfo.toSchema().toBER(false));
    const signedData = new pkijs.SignedData({
      version: 3,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({
        eContentType: OID.tstInfo,
        eContent: new asn1js.OctetString({ valueHex: tstInfoDer }),
      }),
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: tsa.issuer, serialNumber: tsa.serialNumber }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 0,
            attributes: [
              new pkijs.Attribute({
                type: OID.contentType,
                values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })],
              }),
              new pkijs.Attribute({
                type: OID.messageDigest,
                values: [new asn1js.OctetString({ valueHex: crypto.createHash('sha256').update(tstInfoDer).digest() })],
              }),
              signingCertificateV2(tsa, tsaDer),
            ],
          }),
        }),
      ],
      certificates: tsReq.certReq ? [tsa] : undefined,
    });
    await signedData.sign(tsaKeys.privateKey, 0, 'SHA-256', undefined, cryptoEngine);
    const tsResp = new pkijs.TimeStampResp({
      status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
      timeStampToken: new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) }),
    });
    return Buffer.from(tsResp.toSchema().toBER(false));
  }

  function reject(failBit: number, text: string): Buffer {
    const failInfo = new Uint8Array(4);
    failInfo[failBit >> 3] |= 0x80 >> (failBit & 7);
    return Buffer.from(
      new pkijs.TimeStampResp({
        status: new pkijs.PKIStatusInfo({
          status: pkijs.PKIStatus.rejection,
          statusStrings: [new asn1js.Utf8String({ value: text })],
          failInfo: new asn1js.BitString({ valueHex: failInfo }),
        }),
      })
        .toSchema()
        .toBER(false),
    );
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsr`,
    caCertificatePem: pemEncode(certificateToDer(ca), 'CERTIFICATE'),
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function serial(): Uint8Array {
  const bytes = new Uint8Array(crypto.randomBytes(12));
  bytes[0] = (bytes[0] & 0x7f) | 0x01;
  return bytes;
}
