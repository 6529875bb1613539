import crypto from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { certificateToDer, issueCertificate } from '../../src/platform/crypto/certificates.ts';
import { loadSealIdentity, type SealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import { readSignatures } from '../../src/platform/pdf/read-signatures.ts';
import { appendSignature, completeSignature, prepareSignature } from '../../src/platform/signing/append-signature.ts';
import { localKeySigner, platformSealSigner, remoteHashSigner } from '../../src/platform/signing/pdf-signer.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { pdfsig, type PdfsigBlock } from '../helpers/pdfsig.ts';

const subtle = globalThis.crypto.subtle;
/** DigestInfo prefix for SHA-256 (RFC 8017 9.2): what an RSA signHash service wraps the hash in. */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

let work: string;
let seal: SealIdentity;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'signer-pipeline-'));
  seal = await loadSealIdentity(path.join(work, 'data'));
});

afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

/** A person's certificate from a CA of their own, as issue 12 will provision: the key algorithm is the caller's. */
async function personKey(commonName: string, algorithm: webcrypto.RsaHashedKeyGenParams | webcrypto.EcKeyGenParams) {
  const caKeys = await subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - 60_000);
  const notAfter = new Date(Date.now() + 86_400_000);
  const ca = await issueCertificate({
    commonName: 'Test Signers CA',
    organization: 'Test',
    publicKey: caKeys.publicKey,
    signingKey: caKeys.privateKey,
    notBefore,
    notAfter,
    isCa: true,
    keyUsage: ['keyCertSign', 'cRLSign'],
  });
  const keys = (await subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await issueCertificate({
    commonName,
    organization: 'Test',
    publicKey: keys.publicKey,
    issuer: { certificate: ca, privateKey: caKeys.privateKey },
    notBefore,
    notAfter,
    isCa: false,
    keyUsage: ['digitalSignature', 'nonRepudiation'],
  });
  return {
    certificate,
    certificateDer: certificateToDer(certificate),
    chainDer: [certificateToDer(ca)],
    privateKey: keys.privateKey,
  };
}

/** pdfsig's report for each signature (pdfsig.ts), without checking certificates. */
async function pdfsigBlocks(pdf: Uint8Array): Promise<PdfsigBlock[]> {
  return (await pdfsig(pdf)).blocks;
}

function signerIdentifier(contents: Uint8Array): pkijs.SignerInfo['sid'] {
  const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(contents).content });
  return signedData.signerInfos[0].sid;
}

function isPrefix(earlier: Uint8Array, later: Uint8Array): boolean {
  return later.length > earlier.length && Buffer.from(later.subarray(0, earlier.length)).equals(Buffer.from(earlier));
}

describe('the signer pipeline', () => {
  it('appends a local-key signature, then the platform seal: both valid, the seal last and covering the file', async () => {
    const person = await personKey('Ada Lovelace', { name: 'ECDSA', namedCurve: 'P-256' });
    const original = await makePdf(2);
    const signed = await appendSignature(
      original,
      localKeySigner(person, { signerName: 'Ada Lovelace', reason: 'I approve' }),
    );
    const sealed = await appendSignature(signed, platformSealSigner(seal, { reason: 'Sealed on completion' }));
    expect(isPrefix(original, signed)).toBe(true);
    expect(isPrefix(signed, sealed)).toBe(true);

    const reports = await pdfsigBlocks(sealed);
    expect(reports.map((r) => r['Signature Field Name'])).toEqual(['Signature', 'PlatformSeal']);
    for (const report of reports) {
      expect(report['Signature Validation']).toBe('Signature is Valid.');
      expect(report['Signature Type']).toBe('ETSI.CAdES.detached');
    }
    expect(reports[0]['Signer Certificate Common Name']).toBe('Ada Lovelace');
    expect(reports[1]['Signer Certificate Common Name']).toBe(seal.subject.match(/CN=([^,]+)/)?.[1] ?? seal.subject);
    expect(reports[0].raw).not.toContain('- Total document signed');
    expect(reports[1].raw).toContain('- Total document signed');

    const entries = await readSignatures(sealed);
    expect(entries.map((e) => e.name)).toEqual(['Ada Lovelace', null]);
    for (const entry of entries) expect(signerIdentifier(entry.contents)).toBeInstanceOf(pkijs.IssuerAndSerialNumber);
    const sid = signerIdentifier(entries[0].contents) as pkijs.IssuerAndSerialNumber;
    expect(sid.serialNumber.isEqual(person.certificate.serialNumber)).toBe(true);
  });

  it('signs in two steps for a remote key: the hash goes out, the signature value comes back', async () => {
    const person = await personKey('Remote Rita', {
      name: 'RSASSA-PKCS1-v1_5',
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: 'SHA-256',
    });
    const signer = remoteHashSigner(person, { signerName: 'Remote Rita' });
    await expect(appendSignature(await makePdf(1), signer)).rejects.toThrow(/two steps/);

    const original = await makePdf(1);
    const pending = await prepareSignature(original, signer);
    expect(pending.hashToSign).toEqual(
      new Uint8Array(crypto.createHash('sha256').update(pending.signedAttributes).digest()),
    );
    // The remote service's side: it holds the key and signs the hash it is sent (RSA PKCS#1 v1.5 over DigestInfo).
    const keyObject = crypto.KeyObject.from(person.privateKey);
    const signatureValue = crypto.privateEncrypt(
      { key: keyObject, padding: crypto.constants.RSA_PKCS1_PADDING },
      Buffer.concat([SHA256_DIGEST_INFO, pending.hashToSign]),
    );
    const signed = await completeSignature(pending, signer, signatureValue);
    const sealed = await appendSignature(signed, platformSealSigner(seal));

    const reports = await pdfsigBlocks(sealed);
    expect(reports.map((r) => r['Signature Validation'])).toEqual(['Signature is Valid.', 'Signature is Valid.']);
    expect(reports[0]['Signer Certificate Common Name']).toBe('Remote Rita');
    expect(isPrefix(original, sealed)).toBe(true);
  });

  it('refuses a remote signature value that does not fit the room reserved for it', async () => {
    const person = await personKey('Remote Rita', { name: 'ECDSA', namedCurve: 'P-256' });
    const signer = remoteHashSigner(person);
    const pending = await prepareSignature(await makePdf(1), signer);
    await expect(completeSignature(pending, signer, new Uint8Array(pending.reserve))).rejects.toThrow(/does not fit/);
  });
});
