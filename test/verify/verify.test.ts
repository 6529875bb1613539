import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, type TestUser } from '../helpers/factories.ts';
import { markCompleted } from '../helpers/envelope-states.ts';
import { multipartBody } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server.ts';
import { loadSealIdentity, type SealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import { sealPdf } from '../../src/platform/pdf/seal-pdf.ts';
import { VERIFY_PER_ADDRESS, recordAttempts } from '../../src/platform/limits/attempts.ts';

let t: TestApp;
let owner: TestUser;
let identity: SealIdentity;
let tsa: TsaServer;
let foreignDir: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t);
  identity = await loadSealIdentity(t.config.dataDir);
  tsa = await startTsaServer();
  foreignDir = fs.mkdtempSync(path.join(os.tmpdir(), 'foreign-ca-'));
}, 60_000);
afterAll(async () => {
  await t?.close();
  await tsa?.close();
  fs.rmSync(foreignDir, { recursive: true, force: true });
});

async function verify(bytes: Uint8Array, filename = 'document.pdf') {
  const { body, contentType } = multipartBody([
    { name: 'file', filename, contentType: 'application/pdf', data: bytes },
  ]);
  return t.request('POST', '/verify/v1', { body, headers: { 'content-type': contentType } });
}

describe('POST /verify/v1', () => {
  it('reports a platform seal as valid, whole-document and trusted, and finds the sealed workflow', async () => {
    const { workflow, document } = await createDraftWorkflow(t, owner, { name: 'Lease' });
    const sealed = await sealPdf(await makePdf(2), identity, { signerName: 'Signature Service' });
    await markCompleted(t, workflow.id, document.id, sealed);
    const res = await verify(sealed);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.signatures).toHaveLength(1);
    expect(res.body.signatures[0]).toMatchObject({
      fieldName: 'PlatformSeal',
      integrity: 'VALID',
      problem: null,
      coversWholeDocument: true,
      kind: 'SIGNATURE',
      timestamp: null,
      certificate: { trustedByPlatform: true },
    });
    expect(res.body.signatures[0].signerName).toBeTruthy();
    expect(Date.parse(res.body.signatures[0].signedAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(res.body.platformRecord).toMatchObject({ workflowId: workflow.id, documentName: 'Lease' });
  });

  it('reports the time-stamp of a B-T seal', async () => {
    const sealed = await sealPdf(await makePdf(1), identity, { tsaUrl: tsa.url });
    const res = await verify(sealed);
    expect(res.body.signatures[0].integrity).toBe('VALID');
    expect(Math.abs(Date.parse(res.body.signatures[0].timestamp) - Date.now())).toBeLessThan(120_000);
    // Not a sealed document of this service: the file was never stored.
    expect(res.body.platformRecord).toBeNull();
  });

  it('flags a changed byte inside the signed range as INVALID, and no longer matches the platform record', async () => {
    const { workflow, document } = await createDraftWorkflow(t, owner);
    const sealed = await sealPdf(await makePdf(1), identity);
    await markCompleted(t, workflow.id, document.id, sealed);
    const tampered = Uint8Array.from(sealed);
    const at = Buffer.from(tampered).indexOf('/MediaBox');
    tampered[at + 1] = 'm'.charCodeAt(0);
    const res = await verify(tampered);
    expect(res.status).toBe(200);
    expect(res.body.signatures[0]).toMatchObject({ integrity: 'INVALID' });
    expect(res.body.signatures[0].problem, res.body.signatures[0].problem).toMatch(/changed/);
    expect(res.body.platformRecord).toBeNull();
    expect((await pdfsig(tampered)).allValid).toBe(false);
  });

  it('says when bytes were appended after a signature (it no longer covers the whole document) and orders signatures oldest first', async () => {
    const once = await sealPdf(await makePdf(1), identity);
    const twice = await sealPdf(once, identity);
    const res = await verify(twice);
    expect(res.body.signatures).toHaveLength(2);
    expect(res.body.signatures.map((s: any) => [s.integrity, s.coversWholeDocument])).toEqual([
      ['VALID', false],
      ['VALID', true],
    ]);
    const appended = Buffer.concat([Buffer.from(once), Buffer.from('\n% appended\n')]);
    expect((await verify(appended)).body.signatures[0]).toMatchObject({
      integrity: 'VALID',
      coversWholeDocument: false,
    });
  });

  it('marks a signature from another CA as valid but not trusted by the platform', async () => {
    const foreign = await loadSealIdentity(foreignDir);
    const res = await verify(await sealPdf(await makePdf(1), foreign));
    expect(res.body.signatures[0]).toMatchObject({ integrity: 'VALID', certificate: { trustedByPlatform: false } });
  });

  it('answers INVALID for a signature whose value is garbage, and an empty list for an unsigned PDF', async () => {
    const sealed = Buffer.from(await sealPdf(await makePdf(1), identity));
    const start = sealed.indexOf('/Contents <') + '/Contents <'.length;
    sealed.write('3082FFFF0102030405', start, 'latin1');
    const res = await verify(sealed);
    expect(res.status).toBe(200);
    expect(res.body.signatures[0].integrity).toBe('INVALID');
    expect((await verify(await makePdf(1))).body).toEqual({ signatures: [], platformRecord: null });
  });

  it('refuses what is not a PDF, and a request without the file', async () => {
    const res = await verify(new TextEncoder().encode('hello, not a pdf'), 'notes.pdf');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_DOCUMENT_TYPE');
    const damaged = await verify(new TextEncoder().encode('%PDF-1.7\nthis is not really a pdf\n%%EOF'));
    expect(damaged.status).toBe(400);
    const json = await t.request('POST', '/verify/v1', { body: { file: 'x' } });
    expect(json.status).toBe(400);
  });

  it('refuses a file over 25 MB', async () => {
    const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(25 * 1024 * 1024, 0x20)]);
    const res = await verify(big);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('INVALID_DOCUMENT_SIZE');
  });

  it('stores nothing: no blob and no scratch file after verifications, accepted or refused', async () => {
    const files = () =>
      fs
        .readdirSync(path.join(t.config.dataDir, 'blobs'), { recursive: true })
        .filter((f) => fs.statSync(path.join(t.config.dataDir, 'blobs', String(f))).isFile())
        .sort();
    const before = files();
    const fresh = await makePdf(1);
    expect((await verify(fresh)).status).toBe(200);
    expect(
      (await verify(Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(25 * 1024 * 1024, 0x20)]))).status,
    ).toBe(400);
    expect((await verify(Buffer.from('not a pdf'))).status).toBe(400);
    expect(files()).toEqual(before);
  });

  it('limits one address to 30 verifications a minute, with Retry-After', async () => {
    const app = await createTestApp();
    try {
      await recordAttempts(
        app.platform.db,
        Array.from(
          { length: VERIFY_PER_ADDRESS.max },
          () => [VERIFY_PER_ADDRESS, '127.0.0.1'] as [typeof VERIFY_PER_ADDRESS, string],
        ),
      );
      const { body, contentType } = multipartBody([
        { name: 'file', filename: 'a.pdf', contentType: 'application/pdf', data: await makePdf(1) },
      ]);
      const res = await app.request('POST', '/verify/v1', { body, headers: { 'content-type': contentType } });
      expect([res.status, res.body.message]).toEqual([429, 'VERIFY_RATE_LIMITED']);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});
