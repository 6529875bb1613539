import 'reflect-metadata';
import crypto from 'node:crypto';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/**
 * A certificate authority made in the test, and card certificates it (or another CA) issues, with the
 * private keys as node KeyObjects so a test can sign a smart-card hash the way a card would.
 */
x509.cryptoProvider.set(crypto.webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
const subtle = crypto.webcrypto.subtle;

const RSA = {
  name: 'RSASSA-PKCS1-v1_5',
  hash: 'SHA-256',
  publicExponent: new Uint8Array([1, 0, 1]),
  modulusLength: 2048,
};
const EC = { name: 'ECDSA', namedCurve: 'P-256' };
const EC_SIGN = { name: 'ECDSA', hash: 'SHA-256' };

export type TestCa = {
  name: string;
  certificate: x509.X509Certificate;
  pem: string;
  keys: crypto.webcrypto.CryptoKeyPair;
  serial: string;
};
/** A card's certificate and keys; `certificate` and `keys` let a test misuse an EC card as an issuer (it is not a CA). */
export type TestCard = {
  pem: string;
  serial: string;
  privateKey: crypto.KeyObject;
  kind: 'RSA' | 'EC';
  name: string;
  certificate: x509.X509Certificate;
  keys: crypto.webcrypto.CryptoKeyPair;
};

/** Extended key usages a card certificate may carry (RFC 5280; Microsoft's smart-card logon). */
export const EKU = {
  clientAuth: '1.3.6.1.5.5.7.3.2',
  smartCardLogon: '1.3.6.1.4.1.311.20.2.2',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  any: '2.5.29.37.0',
} as const;

let serial = 1000;
const day = 24 * 3600 * 1000;

/**
 * A CA: self-signed (a root), or issued by `issuer` (an intermediate). By default basicConstraints cA (critical,
 * no path length) and key usage keyCertSign + cRLSign; each can be changed or left out to make a broken CA.
 */
export async function createCa(
  name: string,
  options: {
    issuer?: TestCa | TestCard;
    notBefore?: Date;
    notAfter?: Date;
    ca?: boolean;
    basicConstraints?: boolean;
    pathLength?: number;
    usages?: number | null;
    crlUrl?: string;
    ocspUrl?: string;
  } = {},
): Promise<TestCa> {
  const keys = (await subtle.generateKey(EC, true, ['sign', 'verify'])) as crypto.webcrypto.CryptoKeyPair;
  const serialNumber = (serial++).toString(16).padStart(4, '0');
  const extensions: x509.Extension[] = [await x509.SubjectKeyIdentifierExtension.create(keys.publicKey)];
  if (options.basicConstraints !== false)
    extensions.push(new x509.BasicConstraintsExtension(options.ca ?? true, options.pathLength, true));
  if (options.usages !== null)
    extensions.push(
      new x509.KeyUsagesExtension(options.usages ?? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
    );
  if (options.issuer) extensions.push(await x509.AuthorityKeyIdentifierExtension.create(options.issuer.certificate));
  if (options.crlUrl) extensions.push(new x509.CRLDistributionPointsExtension([options.crlUrl]));
  if (options.ocspUrl) extensions.push(new x509.AuthorityInfoAccessExtension({ ocsp: [options.ocspUrl] }));
  const validity = {
    notBefore: options.notBefore ?? new Date(Date.now() - day),
    notAfter: options.notAfter ?? new Date(Date.now() + 365 * day),
  };
  const certificate = options.issuer
    ? await x509.X509CertificateGenerator.create({
        serialNumber,
        subject: `CN=${name}`,
        issuer: options.issuer.certificate.subject,
        ...validity,
        signingAlgorithm: EC_SIGN,
        publicKey: keys.publicKey,
        signingKey: options.issuer.keys.privateKey,
        extensions,
      })
    : await x509.X509CertificateGenerator.createSelfSigned({
        serialNumber,
        name: `CN=${name}`,
        ...validity,
        signingAlgorithm: EC_SIGN,
        keys,
        extensions,
      });
  return { name, certificate, pem: certificate.toString('pem'), keys, serial: serialNumber };
}

/**
 * A card certificate issued by `ca` (a CA, or anything with a certificate and an EC key). Defaults: key usage
 * digitalSignature, extended key usage clientAuth (`extendedKeyUsages: null` leaves the extension out).
 */
export async function issueCard(
  ca: TestCa | TestCard,
  options: {
    email: string;
    kind?: 'RSA' | 'EC';
    emailIn?: 'SAN' | 'SUBJECT';
    notBefore?: Date;
    notAfter?: Date;
    usages?: number;
    extendedKeyUsages?: string[] | null;
    crlUrl?: string;
    ocspUrl?: string;
  },
): Promise<TestCard> {
  const kind = options.kind ?? 'RSA';
  const keys = (await subtle.generateKey(kind === 'RSA' ? RSA : EC, true, [
    'sign',
    'verify',
  ])) as crypto.webcrypto.CryptoKeyPair;
  const serialNumber = (serial++).toString(16).padStart(4, '0');
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false),
    new x509.KeyUsagesExtension(options.usages ?? x509.KeyUsageFlags.digitalSignature, true),
    await x509.AuthorityKeyIdentifierExtension.create(ca.certificate),
  ];
  const extendedKeyUsages = options.extendedKeyUsages === undefined ? [EKU.clientAuth] : options.extendedKeyUsages;
  if (extendedKeyUsages) extensions.push(new x509.ExtendedKeyUsageExtension(extendedKeyUsages));
  if ((options.emailIn ?? 'SAN') === 'SAN')
    extensions.push(new x509.SubjectAlternativeNameExtension([{ type: 'email', value: options.email }]));
  if (options.crlUrl) extensions.push(new x509.CRLDistributionPointsExtension([options.crlUrl]));
  if (options.ocspUrl) extensions.push(new x509.AuthorityInfoAccessExtension({ ocsp: [options.ocspUrl] }));
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber,
    subject: options.emailIn === 'SUBJECT' ? `CN=Card Holder, E=${options.email}` : 'CN=Card Holder',
    issuer: ca.certificate.subject,
    notBefore: options.notBefore ?? new Date(Date.now() - 3600 * 1000),
    notAfter: options.notAfter ?? new Date(Date.now() + 30 * 24 * 3600 * 1000),
    signingAlgorithm: EC_SIGN,
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    extensions,
  });
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', keys.privateKey));
  return {
    pem: certificate.toString('pem'),
    serial: serialNumber,
    privateKey: crypto.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
    kind,
    name: 'Card Holder',
    certificate,
    keys,
  };
}

/** What a card sends when it holds its chain: its certificate, then the intermediates, as one PEM text. */
export function withChain(card: TestCard, ...intermediates: (TestCa | TestCard)[]): string {
  return [card.pem, ...intermediates.map((ca) => ca.pem)].join('\n');
}

export async function createCrl(
  ca: TestCa,
  revokedSerials: string[],
  options: { nextUpdate?: Date } = {},
): Promise<Buffer> {
  const crl = await x509.X509CrlGenerator.create({
    issuer: ca.certificate.subject,
    thisUpdate: new Date(Date.now() - 60 * 1000),
    nextUpdate: options.nextUpdate ?? new Date(Date.now() + 24 * 3600 * 1000),
    signingAlgorithm: EC_SIGN,
    signingKey: ca.keys.privateKey,
    entries: revokedSerials.map((serialNumber) => ({ serialNumber, revocationDate: new Date(Date.now() - 60 * 1000) })),
  });
  return Buffer.from(crl.rawData);
}

const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/** What a card does with the service's hash: RSA PKCS#1 v1.5 over the DigestInfo, ECDSA over the digest itself. */
export function signHash(
  card: TestCard,
  hashBase64: string,
  options: { ecdsaEncoding?: 'der' | 'ieee-p1363' } = {},
): string {
  const digest = Buffer.from(hashBase64, 'base64');
  if (card.kind === 'RSA')
    return crypto
      .privateEncrypt(
        { key: card.privateKey, padding: crypto.constants.RSA_PKCS1_PADDING },
        Buffer.concat([SHA256_DIGEST_INFO, digest]),
      )
      .toString('base64');
  const [r, s] = ecdsaOverDigest(card.privateKey, digest);
  return (
    options.ecdsaEncoding === 'ieee-p1363' ? Buffer.concat([toBytes(r, 32), toBytes(s, 32)]) : derSignature(r, s)
  ).toString('base64');
}

/** P-256 group order. */
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/**
 * ECDSA over a digest the signer is handed (node's crypto.sign always hashes its input itself): k·G comes from
 * an ECDH key whose private value is k, and s = k⁻¹ (z + r·d) mod n.
 */
function ecdsaOverDigest(key: crypto.KeyObject, digest: Buffer): [bigint, bigint] {
  const d = BigInt(`0x${Buffer.from(key.export({ format: 'jwk' }).d!, 'base64url').toString('hex')}`);
  const z = BigInt(`0x${digest.toString('hex')}`);
  for (;;) {
    const k = BigInt(`0x${crypto.randomBytes(32).toString('hex')}`) % N;
    if (k === 0n) continue;
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.setPrivateKey(toBytes(k, 32));
    const r = BigInt(`0x${ecdh.getPublicKey().subarray(1, 33).toString('hex')}`) % N;
    const s = (inverse(k, N) * ((z + r * d) % N)) % N;
    if (r !== 0n && s !== 0n) return [r, s];
  }
}

function inverse(a: bigint, m: bigint): bigint {
  let [oldR, r, oldS, s] = [a, m, 1n, 0n];
  while (r !== 0n) {
    const q = oldR / r;
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  return ((oldS % m) + m) % m;
}

function toBytes(n: bigint, length: number): Buffer {
  return Buffer.from(n.toString(16).padStart(length * 2, '0'), 'hex');
}

function derSignature(r: bigint, s: bigint): Buffer {
  const integer = (n: bigint) => {
    let bytes = Buffer.from(n.toString(16).padStart(Math.ceil(n.toString(16).length / 2) * 2, '0'), 'hex');
    if (bytes[0] & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
    return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
  };
  const body = Buffer.concat([integer(r), integer(s)]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}

/**
 * An OCSP responder's answer (RFC 6960) to `requestDer`, signed with `signer`'s key (the CA itself, no
 * certificate embedded, as most CAs answer): `status` for every certificate asked about.
 */
export async function ocspAnswer(requestDer: Buffer, signer: TestCa, status: 'good' | 'revoked'): Promise<Buffer> {
  const request = pkijs.OCSPRequest.fromBER(new Uint8Array(requestDer));
  const basic = new pkijs.BasicOCSPResponse();
  basic.tbsResponseData.responderID = pkijs.Certificate.fromBER(new Uint8Array(signer.certificate.rawData)).subject;
  basic.tbsResponseData.producedAt = new Date();
  for (const item of request.tbsRequest.requestList) {
    const single = new pkijs.SingleResponse();
    single.certID = item.reqCert;
    single.certStatus =
      status === 'good'
        ? new asn1js.Primitive({ idBlock: { tagClass: 3, tagNumber: 0 } })
        : new asn1js.Constructed({
            idBlock: { tagClass: 3, tagNumber: 1 },
            value: [new asn1js.GeneralizedTime({ valueDate: new Date(Date.now() - 60_000) })],
          });
    single.thisUpdate = new Date(Date.now() - 60_000);
    single.nextUpdate = new Date(Date.now() + 3600_000);
    basic.tbsResponseData.responses.push(single);
  }
  await basic.sign(signer.keys.privateKey, 'SHA-256');
  const response = new pkijs.OCSPResponse();
  response.responseStatus.valueBlock.valueDec = 0;
  response.responseBytes = new pkijs.ResponseBytes({
    responseType: '1.3.6.1.5.5.7.48.1.1',
    response: new asn1js.OctetString({ valueHex: basic.toSchema().toBER(false) }),
  });
  return Buffer.from(response.toSchema().toBER(false));
}

/** The CA's own certificate used as if it were a card, with the CA's key. */
export async function caAsCard(ca: TestCa): Promise<TestCard> {
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', ca.keys.privateKey));
  return {
    pem: ca.pem,
    serial: ca.certificate.serialNumber,
    privateKey: crypto.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
    kind: 'EC',
    name: ca.name,
    certificate: ca.certificate,
    keys: ca.keys,
  };
}

/** A card certificate that signs itself: right key usage and email, but no CA behind it. */
export async function selfSignedCard(email: string): Promise<TestCard> {
  const keys = (await subtle.generateKey(EC, true, ['sign', 'verify'])) as crypto.webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: (serial++).toString(16).padStart(4, '0'),
    name: 'CN=Card Holder',
    notBefore: new Date(Date.now() - 3600 * 1000),
    notAfter: new Date(Date.now() + 30 * 24 * 3600 * 1000),
    signingAlgorithm: EC_SIGN,
    keys,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([EKU.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: 'email', value: email }]),
    ],
  });
  const pkcs8 = Buffer.from(await subtle.exportKey('pkcs8', keys.privateKey));
  return {
    pem: certificate.toString('pem'),
    serial: certificate.serialNumber,
    privateKey: crypto.createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }),
    kind: 'EC',
    name: 'Card Holder',
    certificate,
    keys,
  };
}
