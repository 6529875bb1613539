import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { parseCertificate, pemDecode, pemEncode } from '../../src/platform/crypto/certificates.ts';
import { readSignatures } from '../../src/platform/pdf/read-signatures.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, type TestUser } from '../helpers/factories.ts';
import { documentRows, pngDataUrl, waitForSeal } from '../helpers/ceremony.ts';
import { multipartBody } from '../helpers/documents.ts';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server.ts';
import { has } from '../helpers/tools.ts';

const run = promisify(execFile);
const PUBLIC_URL = 'https://esign.example.test';

let t: TestApp;
let tsa: TsaServer;
let owner: TestUser;
let work: string;

beforeAll(async () => {
  tsa = await startTsaServer();
  t = await createTestApp({ tsaUrl: tsa.url, publicUrl: PUBLIC_URL });
  owner = await createUser(t, { name: 'Lena Longterm' });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'pki-test-'));
}, 60_000);
afterAll(async () => {
  await t?.close();
  await tsa?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

async function get(url: string) {
  const res = await t.app.inject({ method: 'GET', url });
  return { status: res.statusCode, headers: res.headers, bytes: new Uint8Array(res.rawPayload) };
}

function file(name: string, bytes: Uint8Array | string): string {
  const at = path.join(work, name);
  fs.writeFileSync(at, bytes);
  return at;
}

describe('GET /pki/v1/ca.crt and /pki/v1/ca.crl', () => {
  it('publish the platform CA certificate and a CRL it signed, without credentials', async () => {
    const crt = await get('/pki/v1/ca.crt');
    expect(crt.status).toBe(200);
    expect(crt.headers['content-type']).toBe('application/pkix-cert');
    const identity = await t.platform.seal.identity();
    expect(Buffer.from(crt.bytes).equals(Buffer.from(identity.chainDer.at(-1)!))).toBe(true);

    const crl = await get('/pki/v1/ca.crl');
    expect(crl.status).toBe(200);
    expect(crl.headers['content-type']).toBe('application/pkix-crl');
    expect(crl.headers['cache-control']).toMatch(/max-age=\d+/);
    // The CRL verifies against the CA (openssl where installed, else pkijs), and not against another CA: the check can fail.
    const ca = parseCertificate(crt.bytes);
    const list = new pkijs.CertificateRevocationList({ schema: asn1js.fromBER(crl.bytes).result });
    expect(await list.verify({ issuerCertificate: ca })).toBe(true);
    expect(
      await list
        .verify({ issuerCertificate: parseCertificate(pemDecode(tsa.caCertificatePem, 'CERTIFICATE')[0]) })
        .catch(() => false),
    ).toBe(false);
    if (has('openssl')) {
      const caFile = file('ca.pem', pemEncode(crt.bytes, 'CERTIFICATE'));
      const { stdout, stderr } = await run('openssl', [
        'crl',
        '-inform',
        'DER',
        '-in',
        file('ca.crl', crl.bytes),
        '-CAfile',
        caFile,
        '-noout',
        '-verify',
      ]);
      expect(stdout + stderr).toContain('verify OK');
      await expect(
        run('openssl', [
          'crl',
          '-inform',
          'DER',
          '-in',
          file('ca.crl', crl.bytes),
          '-CAfile',
          file('tsa.pem', tsa.caCertificatePem),
          '-noout',
          '-verify',
        ]),
      ).rejects.toThrow();
    }
  });

  it('are the URLs the seal certificate names (CRL distribution point, AIA caIssuers)', async () => {
    const identity = await t.platform.seal.identity();
    const certificate = new x509.X509Certificate(identity.certificateDer);
    const crlUrls = certificate
      .getExtension(x509.CRLDistributionPointsExtension)
      ?.distributionPoints.flatMap(
        (point) => point.distributionPoint?.fullName?.map((name) => name.uniformResourceIdentifier) ?? [],
      );
    expect(crlUrls).toEqual([`${PUBLIC_URL}/pki/v1/ca.crl`]);
    expect(certificate.getExtension(x509.AuthorityInfoAccessExtension)?.caIssuers.map((name) => name.value)).toEqual([
      `${PUBLIC_URL}/pki/v1/ca.crt`,
    ]);
    if (has('openssl')) {
      const { stdout } = await run('openssl', [
        'x509',
        '-in',
        file('seal.pem', identity.certificatePem),
        '-noout',
        '-text',
      ]);
      expect(stdout).toContain(`URI:${PUBLIC_URL}/pki/v1/ca.crl`);
      expect(stdout).toContain(`CA Issuers - URI:${PUBLIC_URL}/pki/v1/ca.crt`);
    }
  });
});

describe('a workflow sealed with TSA_URL', () => {
  it('is PAdES B-LTA: the seal, then the DSS holding the published CRL, then a document time-stamp; /verify/v1 reports both valid', async () => {
    const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const signature = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: selfRecipient!.id,
      fieldType: 'SIGNATURE',
    });
    const saved = await t.request('POST', `/workflow/v1/${document.id}/fields/save`, {
      token: owner.token,
      body: [{ id: signature.id, type: 'SIGNATURE', value: pngDataUrl(80, 30) }],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await waitForSeal(t, workflow.id)).sealStatus).toBe('SEALED');
    const [row] = await documentRows(t, workflow.id);
    const sealed = await t.platform.blobs.get(row.sealedBlobKey!);

    const signatures = await readSignatures(sealed);
    expect(signatures.map((s) => s.subFilter)).toEqual(['ETSI.CAdES.detached', 'ETSI.RFC3161']);
    const text = Buffer.from(sealed).toString('latin1');
    expect(text).toMatch(/\/Type\s*\/DocTimeStamp/);
    const crl = (await get('/pki/v1/ca.crl')).bytes;
    // The DSS stream holds the very CRL the service publishes (uncompressed stream data).
    expect(Buffer.from(sealed).includes(Buffer.from(crl))).toBe(true);

    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'sealed.pdf', contentType: 'application/pdf', data: sealed },
    ]);
    const res = await t.request('POST', '/verify/v1', { body, headers: { 'content-type': contentType } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.signatures).toHaveLength(2);
    expect(res.body.signatures[0]).toMatchObject({
      kind: 'SIGNATURE',
      integrity: 'VALID',
      coversWholeDocument: false,
      certificate: { trustedByPlatform: true },
    });
    expect(res.body.signatures[0].timestamp).not.toBeNull();
    expect(res.body.signatures[1]).toMatchObject({
      kind: 'DOCUMENT_TIMESTAMP',
      integrity: 'VALID',
      coversWholeDocument: true,
    });
    expect(res.body.platformRecord).toMatchObject({ workflowId: workflow.id });
  });
});
