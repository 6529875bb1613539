import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { multipartBody } from '../helpers/documents.ts';
import { expectEventLoopKeptFree, listen, postMultipart, whileProbingHealth } from '../helpers/health-probe.ts';
import { makeSignatureBombPdf } from '../helpers/signature-bombs.ts';
import { createCadesSignature } from '../../src/platform/crypto/cades.ts';
import { loadSealIdentity, type SealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import { sealPdf } from '../../src/platform/pdf/seal-pdf.ts';

/*
 * 50 signature dictionaries in one revision (the most a file may hold), each byte range leaving out its own
 * /Contents near the start of a 24 MB file and running to its end: distinct ranges, so sharing digests does not
 * help, and each second part is nearly the whole file: 50 SHA-256 passes over 24 MB on the event loop (before the
 * fix this file measured 4.4 s, the health check waiting 3.4 s). No signing tool writes two signatures into one
 * revision, and no two there can both be intact (each covers the other's /Contents): every one is INVALID,
 * without hashing.
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
  expect((await verifyRequest(await sealPdf(await makePdf(1), identity))()).status).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

function verifyRequest(bytes: Uint8Array) {
  const form = multipartBody([{ name: 'file', filename: 'hostile.pdf', contentType: 'application/pdf', data: bytes }]);
  return () => postMultipart(base, '/verify/v1', form);
}

describe('POST /verify/v1 with overlapping byte ranges in one revision', () => {
  it('50 signatures over 24 MB whose ranges all overlap: every one INVALID, and the service keeps answering', async () => {
    const probe = await whileProbingHealth(
      base,
      verifyRequest(await makeSignatureBombPdf({ signatures: 50, ranges: 'own', sign })),
    );
    expect(probe.result.status, JSON.stringify(probe.result.body).slice(0, 300)).toBe(200);
    expectEventLoopKeptFree(probe);
    expect(probe.result.body.signatures).toHaveLength(50);
    for (const entry of probe.result.body.signatures) {
      expect(entry, entry.fieldName).toMatchObject({ integrity: 'INVALID', certificate: null });
      expect(entry.problem).toMatch(/one revision/);
    }
  }, 60_000);
});
