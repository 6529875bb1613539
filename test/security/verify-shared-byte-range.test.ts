import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { multipartBody } from '../helpers/documents.ts';
import { expectEventLoopKeptFree, listen, postMultipart, whileProbingHealth } from '../helpers/health-probe.ts';
import { appendSignatureCopies, makeSignatureBombPdf } from '../helpers/signature-bombs.ts';
import { createCadesSignature } from '../../src/platform/crypto/cades.ts';
import { loadSealIdentity, type SealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import { sealPdf } from '../../src/platform/pdf/seal-pdf.ts';

/*
 * Many signature dictionaries naming one byte range whose second part is nearly the whole 24 MB file. Hashed once
 * per dictionary on the event loop, 400 of them took 9.9 s while a health check waited 5.4 s (10,000 would have
 * held the service for minutes); before the fix this file measured 400: 11.7 s with the health check waiting
 * 10.6 s, 51: 4.5 s / 2.6 s, 50: 3.5 s / 2.4 s. RUNTIME.md: more than 50 signatures answer 400
 * TOO_MANY_SIGNATURES, no byte range is hashed twice, and a signature's range must leave out exactly its own
 * /Contents.
 */

let t: TestApp;
let base: string;
let identity: SealIdentity;
const sign = (digest: Uint8Array) =>
  createCadesSignature({
    documentDigest: digest,
    certificateDer: identity.certificateDer,
    chainDer: identity.chainDer,
    privateKey: identity.privateKey,
  });

beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t);
  identity = await loadSealIdentity(t.config.dataDir);
  // Warm up: the first verification loads the platform CA and starts a verifier thread.
  expect((await verifyRequest(await sealPdf(await makePdf(1), identity))()).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** The request for `bytes`, its body built now: what runs while the health check is probed is the request alone. */
function verifyRequest(bytes: Uint8Array) {
  const form = multipartBody([{ name: 'file', filename: 'hostile.pdf', contentType: 'application/pdf', data: bytes }]);
  return () => postMultipart(base, '/verify/v1', form);
}

describe('POST /verify/v1 with signature dictionaries sharing one byte range', () => {
  it('400 of them over 24 MB: 400 TOO_MANY_SIGNATURES with the limit, and the service keeps answering', async () => {
    const pdf = await makeSignatureBombPdf({ signatures: 400, ranges: 'shared', sign });
    expect(pdf.length).toBeGreaterThan(24_000_000);
    const probe = await whileProbingHealth(base, verifyRequest(pdf));
    expect(probe.result.status, JSON.stringify(probe.result.body).slice(0, 300)).toBe(400);
    expect(probe.result.body).toMatchObject({
      message: 'TOO_MANY_SIGNATURES',
      errorCode: 12010,
      responseBody: { limit: 50 },
    });
    expect(probe.probes).toBeGreaterThan(0);
    expectEventLoopKeptFree(probe);
  }, 60_000);

  it('51 and 10,000 of them: TOO_MANY_SIGNATURES as well (counted before anything is hashed)', async () => {
    for (const signatures of [51, 10_000]) {
      const probe = await whileProbingHealth(
        base,
        verifyRequest(await makeSignatureBombPdf({ signatures, ranges: 'shared', sign })),
      );
      expect(probe.result.status, `${signatures}: ${JSON.stringify(probe.result.body).slice(0, 300)}`).toBe(400);
      expect(probe.result.body.message).toBe('TOO_MANY_SIGNATURES');
      expectEventLoopKeptFree(probe, `${signatures} signatures:`);
    }
  }, 120_000);

  it('50 of them: the one whose /Contents the range leaves out is checked and VALID; the other 49 are INVALID unhashed', async () => {
    const probe = await whileProbingHealth(
      base,
      verifyRequest(await makeSignatureBombPdf({ signatures: 50, ranges: 'shared', sign })),
    );
    expect(probe.result.status, JSON.stringify(probe.result.body).slice(0, 300)).toBe(200);
    expectEventLoopKeptFree(probe);
    const { signatures } = probe.result.body;
    expect(signatures).toHaveLength(50);
    const byName = new Map(signatures.map((s: any) => [s.fieldName, s]));
    expect(byName.get('Signature1')).toMatchObject({
      integrity: 'VALID',
      problem: null,
      coversWholeDocument: true,
      certificate: { trustedByPlatform: true },
    });
    for (let i = 2; i <= 50; i++) {
      const entry = byName.get(`Signature${i}`) as any;
      expect(entry, `Signature${i}`).toMatchObject({ integrity: 'INVALID', certificate: null });
      expect(entry.problem).toMatch(/own \/Contents/);
    }
  }, 60_000);

  it("copies of a real seal's signature (a new dictionary with its ByteRange and Contents, and an object number aliased to its dictionary): the seal stays VALID, each copy is INVALID", async () => {
    const sealed = await sealPdf(await makePdf(1), identity);
    const res = await verifyRequest(appendSignatureCopies(sealed))();
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const byName = new Map(res.body.signatures.map((s: any) => [s.fieldName, s]));
    expect(res.body.signatures).toHaveLength(3);
    expect(byName.get('PlatformSeal')).toMatchObject({ integrity: 'VALID', coversWholeDocument: false });
    for (const name of ['Copy', 'Alias']) {
      expect(byName.get(name), name).toMatchObject({ integrity: 'INVALID' });
      expect((byName.get(name) as any).problem, name).toMatch(/own \/Contents/);
    }
  });
});
