import { execFile, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { PDF } from '@libpdf/core';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSigningKey, loadSealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import type { SealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import {
  issueCertificate,
  certificateToDer,
  parseCertificate,
  pemDecode,
  pemEncode,
} from '../../src/platform/crypto/certificates.ts';
import { checkPdfSignature } from '../../src/platform/crypto/verify-signature.ts';
import { readSignatures } from '../../src/platform/pdf/read-signatures.ts';
import { sealPdf } from '../../src/platform/pdf/seal-pdf.ts';
import { stampFields } from '../../src/platform/pdf/stamp-fields.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { linearizedPdf, makeGeometryPdf } from '../helpers/pdf-sealing-fixtures.ts';
import { pdfsig, type PdfsigBlock } from '../helpers/pdfsig.ts';
import { has } from '../helpers/tools.ts';
import { startTsaServer } from '../helpers/tsa-server.ts';
import type { TsaServer } from '../helpers/tsa-server.ts';

const run = promisify(execFile);
const OID_SIGNING_TIME = '1.2.840.113549.1.9.5';
const OID_TIMESTAMP_TOKEN = '1.2.840.113549.1.9.16.2.14';

let work: string;
let identity: SealIdentity;
/** The platform CA the chains are checked against: pdfsig calls the seal "Certificate is Trusted" (pdfsig.ts). */
let trustedCaPems: string[];
/** Whether they were (not by pdfsig without certutil, package libnss3-tools: then the issuer is not trusted). */
let trustChecked = false;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'seal-test-'));
  identity = await loadSealIdentity(path.join(work, 'data'));
  trustedCaPems = [identity.chainPem.at(-1) as string];
});

afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

async function writeTemp(name: string, bytes: Uint8Array | string): Promise<string> {
  const file = path.join(work, `${crypto.randomUUID()}-${name}`);
  await fs.writeFile(file, bytes);
  return file;
}

/** pdfsig's report for each signature, as a list of "key: value" maps. */
async function pdfsigBlocks(pdf: Uint8Array): Promise<PdfsigBlock[]> {
  const report = await pdfsig(pdf, { trustedCaPems });
  trustChecked = report.trustChecked;
  return report.blocks;
}

function expectValidSeal(report: PdfsigBlock) {
  expect(report['Signature Validation']).toBe('Signature is Valid.');
  expect(report['Signature Type']).toBe('ETSI.CAdES.detached');
  expect(report['Signing Hash Algorithm']).toBe('SHA-256');
  expect(report['Certificate Validation']).toBe(
    trustChecked ? 'Certificate is Trusted.' : "Certificate issuer isn't Trusted.",
  );
  expect(report['Signer Certificate Common Name']).toMatch(/^Signature Service Document Seal [0-9a-f]{8}$/);
}

/** The CMS SignedData of each signature, as pdfsig -dump writes them out (without pdfsig, as the service reads them). */
async function dumpSignatures(pdf: Uint8Array): Promise<pkijs.SignedData[]> {
  if (!has('pdfsig'))
    return (await readSignatures(pdf)).map(
      (entry) => new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(entry.contents).content }),
    );
  const dir = await fs.mkdtemp(path.join(work, 'dump-'));
  await fs.writeFile(path.join(dir, 'doc.pdf'), pdf);
  await run('pdfsig', ['-nocert', '-dump', 'doc.pdf'], { cwd: dir });
  const files = (await fs.readdir(dir)).filter((f) => /\.sig\d+$/.test(f)).sort();
  return Promise.all(
    files.map(async (f) => {
      const contentInfo = pkijs.ContentInfo.fromBER(await fs.readFile(path.join(dir, f)));
      return new pkijs.SignedData({ schema: contentInfo.content });
    }),
  );
}

/** The digest of a signature's two signed ranges, as checkPdfSignature asks for it. */
function rangeDigest(pdf: Uint8Array, byteRange: number[]) {
  return (algorithm: string) =>
    crypto
      .createHash(algorithm)
      .update(pdf.subarray(byteRange[0], byteRange[0] + byteRange[1]))
      .update(pdf.subarray(byteRange[2], byteRange[2] + byteRange[3]))
      .digest();
}

function isPrefix(original: Uint8Array, sealed: Uint8Array): boolean {
  return (
    sealed.length > original.length && Buffer.from(sealed.subarray(0, original.length)).equals(Buffer.from(original))
  );
}

describe('loadSealIdentity', () => {
  it('creates a root CA and a seal certificate issued by it, with private keys readable by the owner only', async () => {
    const keys = path.join(work, 'data', 'keys');
    const dirs = (await fs.readdir(keys)).sort();
    expect(dirs).toHaveLength(2);
    expect(dirs[0]).toMatch(/^seal-\d{8}$/);
    expect(dirs[1]).toBe('seal-ca');
    for (const dir of dirs) {
      expect((await fs.stat(path.join(keys, dir))).mode & 0o777).toBe(0o700);
      expect((await fs.stat(path.join(keys, dir, 'private-key.pem'))).mode & 0o777).toBe(0o600);
    }
    expect(identity.subject).toMatch(/^CN=Signature Service Document Seal [0-9a-f]{8}, O=Signature Service$/);
    expect(identity.chainPem).toHaveLength(1);
    expect(identity.fingerprintSha256).toBe(crypto.createHash('sha256').update(identity.certificateDer).digest('hex'));

    // openssl reads the certificates independently where installed (tools.ts); @peculiar/x509 reads them everywhere.
    const sealCertificate = new x509.X509Certificate(identity.certificatePem);
    const caCertificate = new x509.X509Certificate(identity.chainPem[0]);
    expect(await sealCertificate.verify({ publicKey: caCertificate.publicKey, signatureOnly: true })).toBe(true);
    expect(sealCertificate.getExtension(x509.KeyUsagesExtension)).toMatchObject({
      critical: true,
      usages: x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.nonRepudiation,
    });
    expect(sealCertificate.getExtension(x509.BasicConstraintsExtension)).toMatchObject({ critical: true, ca: false });
    expect(sealCertificate.publicKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
    expect(caCertificate.getExtension(x509.BasicConstraintsExtension)).toMatchObject({
      critical: true,
      ca: true,
      pathLength: 0,
    });
    expect(caCertificate.getExtension(x509.KeyUsagesExtension)).toMatchObject({
      critical: true,
      usages: x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
    });
    if (has('openssl')) {
      const seal = await writeTemp('seal.pem', identity.certificatePem);
      const ca = await writeTemp('ca.pem', identity.chainPem[0]);
      await expect(run('openssl', ['verify', '-CAfile', ca, seal])).resolves.toMatchObject({ stdout: `${seal}: OK\n` });
      const { stdout: sealText } = await run('openssl', ['x509', '-in', seal, '-noout', '-text']);
      expect(sealText).toMatch(/Key Usage: critical\s+Digital Signature, Non Repudiation\s/);
      expect(sealText).toMatch(/Basic Constraints: critical\s+CA:FALSE/);
      expect(sealText).toMatch(/ASN1 OID: prime256v1/);
      const { stdout: caText } = await run('openssl', ['x509', '-in', ca, '-noout', '-text']);
      expect(caText).toMatch(/Basic Constraints: critical\s+CA:TRUE, pathlen:0/);
      expect(caText).toMatch(/Key Usage: critical\s+Certificate Sign, CRL Sign/);
    }
    const days = (identity.notAfter.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(3 * 365 - 2);
    expect(days).toBeLessThan(3 * 365 + 1);
  });

  it('gives four processes starting together on an empty DATA_DIR one and the same identity', async () => {
    const dataDir = path.join(work, 'race');
    const moduleUrl = new URL('../../src/platform/crypto/seal-identity.ts', import.meta.url).href;
    const script = `const m = await import(${JSON.stringify(moduleUrl)}); const i = await m.loadSealIdentity(process.argv[1]); console.log(i.fingerprintSha256);`;
    const outputs = await Promise.all(
      [1, 2, 3, 4].map(
        () =>
          new Promise<string>((resolve, reject) => {
            const child = spawn(process.execPath, ['--input-type=module', '-e', script, dataDir], {
              stdio: ['ignore', 'pipe', 'pipe'],
            });
            let out = '';
            let err = '';
            child.stdout.on('data', (d) => {
              out += d;
            });
            child.stderr.on('data', (d) => {
              err += d;
            });
            child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}: ${err}`))));
          }),
      ),
    );
    expect(new Set(outputs).size).toBe(1);
    expect(outputs[0]).toMatch(/^[0-9a-f]{64}$/);
    const entries = await fs.readdir(path.join(dataDir, 'keys'));
    expect(entries.filter((e) => e.startsWith('.tmp'))).toEqual([]);
    expect(entries.filter((e) => e.startsWith('seal-')).sort()).toEqual([
      expect.stringMatching(/^seal-\d{8}$/),
      'seal-ca',
    ]);
    // A later start reuses what is on disk.
    expect((await loadSealIdentity(dataDir)).fingerprintSha256).toBe(outputs[0]);
  });

  it('issues a new seal certificate from the same CA when the current one is about to expire', async () => {
    const dataDir = path.join(work, 'renew');
    const first = await loadSealIdentity(dataDir);
    const keys = path.join(dataDir, 'keys');
    const sealDir = (await fs.readdir(keys)).find((e) => /^seal-\d{8}$/.test(e)) as string;
    // Replace it by a certificate from the same CA that expires in ten days.
    const caPem = await fs.readFile(path.join(keys, 'seal-ca', 'certificate.pem'), 'utf8');
    const caCertificate = parseCertificate(pemDecode(caPem, 'CERTIFICATE')[0]);
    const caKey = await importSigningKey(
      pemDecode(await fs.readFile(path.join(keys, 'seal-ca', 'private-key.pem'), 'utf8'), 'PRIVATE KEY')[0],
      caCertificate,
    );
    const pair = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify']);
    const expiring = await issueCertificate({
      commonName: 'Expiring Seal',
      organization: 'Signature Service',
      publicKey: pair.publicKey,
      issuer: { certificate: caCertificate, privateKey: caKey },
      notBefore: new Date(Date.now() - 86_400_000),
      notAfter: new Date(Date.now() + 10 * 86_400_000),
      isCa: false,
      keyUsage: ['digitalSignature', 'nonRepudiation'],
    });
    await fs.writeFile(
      path.join(keys, sealDir, 'certificate.pem'),
      pemEncode(certificateToDer(expiring), 'CERTIFICATE') + caPem,
    );
    await fs.writeFile(
      path.join(keys, sealDir, 'private-key.pem'),
      pemEncode(new Uint8Array(await crypto.subtle.exportKey('pkcs8', pair.privateKey)), 'PRIVATE KEY'),
    );

    const moduleUrl = new URL('../../src/platform/crypto/seal-identity.ts', import.meta.url).href;
    const script = `const m = await import(${JSON.stringify(moduleUrl)}); const i = await m.loadSealIdentity(process.argv[1]); console.log(JSON.stringify({ subject: i.subject, fingerprint: i.fingerprintSha256, ca: i.chainPem[0] }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, dataDir]);
    const renewed = JSON.parse(stdout);
    expect(renewed.fingerprint).not.toBe(first.fingerprintSha256);
    expect(renewed.subject).toBe(first.subject);
    expect(renewed.ca).toBe(first.chainPem[0]);
    expect(await fs.readdir(keys)).toContain(`${sealDir}-2`);
  });
});

describe('sealPdf', () => {
  let tsa: TsaServer;
  beforeAll(async () => {
    tsa = await startTsaServer();
  });
  afterAll(async () => {
    await tsa.close();
  });

  it('adds one PAdES B-B signature over the whole file that pdfsig verifies, keeping the original bytes as a prefix', async () => {
    const original = await makePdf(3);
    const sealed = await sealPdf(original, identity, {
      reason: 'Workflow completed',
      location: 'Signature Service',
      signerName: 'Signature Service',
    });
    expect(isPrefix(original, sealed)).toBe(true);
    const reports = await pdfsigBlocks(sealed);
    expect(reports).toHaveLength(1);
    expectValidSeal(reports[0]);
    expect(reports[0]['Signature Field Name']).toBe('PlatformSeal');
    expect(reports[0].raw).toContain('- Total document signed');

    const [signedData] = await dumpSignatures(sealed);
    const signerInfo = signedData.signerInfos[0];
    const attributes = signerInfo.signedAttrs?.attributes.map((a) => a.type) ?? [];
    expect(attributes.sort()).toEqual(['1.2.840.113549.1.9.16.2.47', '1.2.840.113549.1.9.3', '1.2.840.113549.1.9.4']);
    expect(attributes).not.toContain(OID_SIGNING_TIME);
    expect(signerInfo.unsignedAttrs).toBeUndefined();
    expect(signedData.certificates).toHaveLength(2);
    expect(signerInfo.digestAlgorithm.algorithmId).toBe('2.16.840.1.101.3.4.2.1');
    // signing-certificate-v2 binds the seal certificate by its SHA-256.
    const essCertIdV2 = (
      signerInfo.signedAttrs?.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.47')?.values[0] as any
    ).valueBlock.value[0].valueBlock.value[0];
    const certHash = Buffer.from(essCertIdV2.valueBlock.value[0].valueBlock.valueHexView);
    expect(certHash.toString('hex')).toBe(identity.fingerprintSha256);
  });

  it('is detected by pdfsig when a signed byte changes afterwards', async () => {
    const sealed = await sealPdf(await makePdf(1), identity);
    const tampered = new Uint8Array(sealed);
    const at = Buffer.from(tampered).indexOf('/MediaBox');
    tampered[at + 1] = 'm'.charCodeAt(0);
    const [report] = await pdfsigBlocks(tampered);
    expect(report['Signature Validation']).not.toBe('Signature is Valid.');
  });

  it('adds a signature time-stamp from the RFC 3161 authority for B-T, which openssl verifies against the TSA root', async () => {
    const original = await makePdf(1);
    const before = tsa.requests();
    const sealed = await sealPdf(original, identity, { tsaUrl: tsa.url });
    expect(tsa.requests()).toBe(before + 1);
    expect(isPrefix(original, sealed)).toBe(true);
    const [report] = await pdfsigBlocks(sealed);
    expectValidSeal(report);

    const [signedData] = await dumpSignatures(sealed);
    const signerInfo = signedData.signerInfos[0];
    const tokenAttribute = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === OID_TIMESTAMP_TOKEN);
    expect(tokenAttribute).toBeDefined();
    const tokenDer = new Uint8Array(tokenAttribute!.values[0].toBER(false));
    // The service's own check: the token's time (verify-signature.ts reads it the same way for POST /verify/v1).
    const [sealEntry] = await readSignatures(sealed);
    const check = await checkPdfSignature(
      rangeDigest(sealed, sealEntry.byteRange),
      sealEntry.contents,
      [parseCertificate(identity.chainDer.at(-1)!)],
      { documentTimestamp: false },
    );
    expect(check.integrity).toBe('VALID');
    expect(Math.abs(check.timestamp!.getTime() - Date.now())).toBeLessThan(60_000);
    // openssl verifies the token independently against the TSA root where installed (tools.ts).
    if (has('openssl')) {
      const token = await writeTemp('token.der', tokenDer);
      const data = await writeTemp('signature-value.bin', signerInfo.signature.valueBlock.valueHexView);
      const tsaRoot = await writeTemp('tsa-root.pem', tsa.caCertificatePem);
      const { stdout } = await run('openssl', [
        'ts',
        '-verify',
        '-in',
        token,
        '-token_in',
        '-data',
        data,
        '-CAfile',
        tsaRoot,
      ]);
      expect(stdout).toContain('Verification: OK');
      const { stdout: text } = await run('openssl', ['ts', '-reply', '-in', token, '-token_in', '-text']);
      const time = new Date(/Time stamp: (.*)/.exec(text)![1]);
      expect(Math.abs(time.getTime() - Date.now())).toBeLessThan(60_000);
      // A token over other bytes does not verify: the check above can fail.
      const other = await writeTemp('other.bin', new Uint8Array(64));
      await expect(
        run('openssl', ['ts', '-verify', '-in', token, '-token_in', '-data', other, '-CAfile', tsaRoot]),
      ).rejects.toThrow();
    }
  });

  it('fails, sealing nothing, when the time-stamp authority refuses or cannot be reached', async () => {
    const refusing = await startTsaServer({ refuse: true });
    try {
      await expect(sealPdf(await makePdf(1), identity, { tsaUrl: refusing.url })).rejects.toThrow(
        /refused the request/,
      );
    } finally {
      await refusing.close();
    }
    const gone = await startTsaServer();
    await gone.close();
    await expect(sealPdf(await makePdf(1), identity, { tsaUrl: gone.url })).rejects.toThrow(/unreachable/);
  });

  it('seals a document that was already sealed, leaving the first signature intact', async () => {
    const once = await sealPdf(await makePdf(2), identity);
    const twice = await sealPdf(once, identity, { tsaUrl: tsa.url });
    expect(isPrefix(once, twice)).toBe(true);
    const reports = await pdfsigBlocks(twice);
    expect(reports.map((r) => r['Signature Field Name'])).toEqual(['PlatformSeal', 'PlatformSeal2']);
    expectValidSeal(reports[0]);
    // pdfsig 22.12 reports "Unknown issue" for the second check of one certificate in the same run (two
    // signatures by libpdf's own signer show the same), so only the signature itself is asserted there.
    expect(reports[1]['Signature Validation']).toBe('Signature is Valid.');
    expect(reports[1]['Signer Certificate Common Name']).toBe(reports[0]['Signer Certificate Common Name']);
    expect(reports[0].raw).not.toContain('- Total document signed');
    expect(reports[1].raw).toContain('- Total document signed');
  });

  it('appends to files with cross-reference streams, existing form fields, stamped pages or linearization', async () => {
    const withForm = await PDF.load(await makePdf(1));
    const form = withForm.getOrCreateForm();
    const field = form.createTextField('customer', { defaultValue: 'ACME' });
    withForm.getPage(0)!.drawField(field, { x: 72, y: 500, width: 200, height: 20 });
    const xrefStreamPdf = await withForm.save({ useXRefStream: true });
    expect(Buffer.from(xrefStreamPdf).includes('/Type /XRef')).toBe(true);

    const stamped = await stampFields(
      await makeGeometryPdf({ rotate: 90, cropBox: [20, 30, 560, 700], inherit: true }),
      [{ pageNo: 1, box: { x: 40, y: 40, width: 160, height: 30 }, fieldType: 'NAME', value: 'Ada Lovelace' }],
    );
    for (const original of [xrefStreamPdf, stamped, linearizedPdf()]) {
      const sealed = await sealPdf(original, identity);
      expect(isPrefix(original, sealed)).toBe(true);
      const reports = await pdfsigBlocks(sealed);
      expect(reports).toHaveLength(1);
      expectValidSeal(reports[0]);
      const reloaded = await PDF.load(sealed);
      const names =
        reloaded
          .getForm()
          ?.getFields()
          .map((f) => f.name) ?? [];
      expect(names).toContain('PlatformSeal');
      if (original === xrefStreamPdf) expect(names).toContain('customer');
    }
  });
});
