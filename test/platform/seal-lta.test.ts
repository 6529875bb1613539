import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDF, type PdfArray, PdfDict, PdfName, PdfRef, PdfStream } from '@libpdf/core';
import * as pkijs from 'pkijs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import * as asn1js from 'asn1js';
import { parseCertificate, pemDecode, pemEncode } from '../../src/platform/crypto/certificates.ts';
import { checkPdfSignature } from '../../src/platform/crypto/verify-signature.ts';
import { readSignatures } from '../../src/platform/pdf/read-signatures.ts';
import { IncrementalPdf } from '../../src/platform/pdf/incremental-update.ts';
import { stampFieldsInto } from '../../src/platform/pdf/stamp-fields.ts';
import { appendSignature } from '../../src/platform/signing/append-signature.ts';
import { vriKey } from '../../src/platform/signing/long-term.ts';
import { createPlatformSeal, type PlatformSeal } from '../../src/platform/signing/platform-seal.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { pdfsig, type PdfsigBlock } from '../helpers/pdfsig.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { has } from '../helpers/tools.ts';
import { startTsaServer, type TsaServer } from '../helpers/tsa-server.ts';

const run = promisify(execFile);
const PUBLIC_URL = 'https://sign.example.test';

let work: string;
let tsa: TsaServer;
let seal: PlatformSeal;
let plain: PlatformSeal;
let caPem: string;
/** Whether pdfsig checked the chains against the platform CA (not without certutil, package libnss3-tools). */
let trustChecked = false;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'seal-lta-'));
  tsa = await startTsaServer();
  const dataDir = path.join(work, 'data');
  seal = createPlatformSeal({ dataDir, tsaUrl: tsa.url, publicUrl: PUBLIC_URL });
  plain = createPlatformSeal({ dataDir });
  caPem = pemEncode(await seal.ca.certificateDer(), 'CERTIFICATE');
});

afterAll(async () => {
  await tsa?.close();
  await fs.rm(work, { recursive: true, force: true });
});

async function writeTemp(name: string, bytes: Uint8Array | string): Promise<string> {
  const file = path.join(work, `${crypto.randomUUID()}-${name}`);
  await fs.writeFile(file, bytes);
  return file;
}

/** pdfsig's report for each signature (pdfsig.ts), the chains checked against the platform CA. */
async function pdfsigBlocks(pdf: Uint8Array): Promise<PdfsigBlock[]> {
  const report = await pdfsig(pdf, { trustedCaPems: [caPem] });
  trustChecked = report.trustChecked;
  return report.blocks;
}

const TRUSTED = () => (trustChecked ? 'Certificate is Trusted.' : "Certificate issuer isn't Trusted.");

function isPrefix(earlier: Uint8Array, later: Uint8Array): boolean {
  return later.length > earlier.length && Buffer.from(later.subarray(0, earlier.length)).equals(Buffer.from(earlier));
}

function digestOf(pdf: Uint8Array, byteRange: number[]) {
  return (algorithm: string) =>
    crypto
      .createHash(algorithm)
      .update(pdf.subarray(byteRange[0], byteRange[0] + byteRange[1]))
      .update(pdf.subarray(byteRange[2], byteRange[2] + byteRange[3]))
      .digest();
}

/** The latest revision's catalog and its /DSS, read through the newest cross-reference section. */
async function securityStore(pdf: Uint8Array) {
  const doc = await PDF.load(pdf);
  const resolve = (ref: PdfRef) => doc.getObject(ref);
  const dss = doc.getCatalog().getDict('DSS', resolve);
  const streams = (array: PdfArray | undefined) =>
    (array?.toArray() ?? []).map((item) => {
      const stream = item instanceof PdfRef ? resolve(item) : item;
      if (!(stream instanceof PdfStream)) throw new Error('A DSS entry is not a stream');
      return new Uint8Array(stream.getDecodedData());
    });
  const vri = dss?.getDict('VRI', resolve);
  return {
    dss,
    certs: streams(dss?.getArray('Certs', resolve)),
    crls: streams(dss?.getArray('CRLs', resolve)),
    vri: vri
      ? Object.fromEntries(
          [...vri].map(([key, value]) => {
            const entry = value instanceof PdfRef ? resolve(value) : value;
            if (!(entry instanceof PdfDict)) throw new Error('A VRI entry is not a dictionary');
            return [
              key.value,
              { certs: streams(entry.getArray('Cert', resolve)), crls: streams(entry.getArray('CRL', resolve)) },
            ];
          }),
        )
      : {},
  };
}

describe('the platform seal with TSA_URL (PAdES B-LTA)', () => {
  let original: Uint8Array;
  let sealed: Uint8Array;
  beforeAll(async () => {
    original = await makePdf(2);
    const before = tsa.requests();
    sealed = await appendSignature(original, await seal.signer({ reason: 'Workflow completed' }));
    // One time-stamp over the seal's signature value, one over the document.
    expect(tsa.requests()).toBe(before + 2);
  });

  it('keeps the original as a prefix and ends with a document time-stamp after the DSS revision, the seal before both', async () => {
    expect(isPrefix(original, sealed)).toBe(true);
    const signatures = await readSignatures(sealed);
    expect(signatures.map((s) => [s.fieldName, s.subFilter])).toEqual([
      ['PlatformSeal', 'ETSI.CAdES.detached'],
      ['DocumentTimeStamp', 'ETSI.RFC3161'],
    ]);
    const [sealSignature, docTimestamp] = signatures;
    // The seal revision (everything up to the end of its ByteRange) is a prefix; the DSS revision comes after it.
    const sealRevisionEnd = sealSignature.byteRange[2] + sealSignature.byteRange[3];
    const sealRevision = sealed.subarray(0, sealRevisionEnd);
    expect((await securityStore(sealRevision)).dss).toBeUndefined();
    const dssRevisionEnd =
      docTimestamp.byteRange[0] +
      docTimestamp.byteRange[1] +
      (docTimestamp.byteRange[2] - docTimestamp.byteRange[1]) +
      docTimestamp.byteRange[3];
    expect(dssRevisionEnd).toBe(sealed.length);
    // The document time-stamp covers the whole file (all but its own /Contents) and is its own revision.
    expect(docTimestamp.byteRange[0]).toBe(0);
    const timestampDict = Buffer.from(sealed).toString('latin1').slice(sealRevisionEnd);
    expect(timestampDict).toMatch(/\/Type\s*\/DocTimeStamp/);
    expect(timestampDict).toMatch(/\/DSS/);
    const stampAt = timestampDict.search(/\/Type\s*\/DocTimeStamp/);
    expect(timestampDict.search(/\/Type\s*\/DSS/)).toBeLessThan(stampAt);
  });

  it('is reported valid by pdfsig for the seal (trusted chain), and the document time-stamp verifies against the TSA root', async () => {
    const reports = await pdfsigBlocks(sealed);
    expect(reports).toHaveLength(2);
    expect(reports[0]['Signature Field Name']).toBe('PlatformSeal');
    expect(reports[0]['Signature Validation']).toBe('Signature is Valid.');
    expect(reports[0]['Certificate Validation']).toBe(TRUSTED());
    expect(reports[1]['Signature Field Name']).toBe('DocumentTimeStamp');
    // poppler 22.12 lists an ETSI.RFC3161 signature but does not verify it ("Signature Type: unknown"):
    // the token is checked by openssl over the same byte ranges instead, and by the service's own verifier.
    const [, docTimestamp] = await readSignatures(sealed);
    const digest = digestOf(sealed, docTimestamp.byteRange)('sha256');
    const token = await writeTemp('doc-ts.der', docTimestamp.contents);
    const tsaRoot = await writeTemp('tsa-root.pem', tsa.caCertificatePem);
    // openssl is the independent check (where installed, tools.ts); the service's own check below runs everywhere.
    if (has('openssl')) {
      const { stdout } = await run('openssl', [
        'ts',
        '-verify',
        '-in',
        token,
        '-token_in',
        '-digest',
        digest.toString('hex'),
        '-CAfile',
        tsaRoot,
      ]);
      expect(stdout).toContain('Verification: OK');
      const tampered = Uint8Array.from(sealed);
      tampered[10] ^= 1;
      const otherDigest = digestOf(tampered, docTimestamp.byteRange)('sha256');
      await expect(
        run('openssl', [
          'ts',
          '-verify',
          '-in',
          token,
          '-token_in',
          '-digest',
          otherDigest.toString('hex'),
          '-CAfile',
          tsaRoot,
        ]),
      ).rejects.toThrow();
    }

    const anchors = [parseCertificate(await seal.ca.certificateDer())];
    const checks = await Promise.all(
      (await readSignatures(sealed)).map((s) =>
        checkPdfSignature(digestOf(sealed, s.byteRange), s.contents, anchors, {
          documentTimestamp: s.subFilter === 'ETSI.RFC3161',
        }),
      ),
    );
    expect(checks.map((c) => [c.integrity, c.problem])).toEqual([
      ['VALID', null],
      ['VALID', null],
    ]);
    expect(checks[0].certificate?.trustedByPlatform).toBe(true);
    expect(checks[0].timestamp).not.toBeNull();
  });

  it('holds in the final catalog a DSS with the seal chain, a CRL signed by the platform CA and a VRI entry keyed by the seal', async () => {
    const identity = await seal.identity();
    const store = await securityStore(sealed);
    expect(store.dss).toBeInstanceOf(PdfDict);
    expect(store.dss?.get('Type')).toEqual(PdfName.of('DSS'));
    const hex = (items: Uint8Array[]) => items.map((i) => Buffer.from(i).toString('hex'));
    expect(hex(store.certs)).toEqual(expect.arrayContaining(hex([identity.certificateDer, ...identity.chainDer])));
    expect(store.crls).toHaveLength(1);
    // The CRL verifies against the platform CA and not against another key (pkijs; and openssl where installed).
    const list = new pkijs.CertificateRevocationList({ schema: asn1js.fromBER(store.crls[0]).result });
    expect(await list.verify({ issuerCertificate: parseCertificate(await seal.ca.certificateDer()) })).toBe(true);
    expect(
      await list
        .verify({ issuerCertificate: parseCertificate(pemDecode(tsa.caCertificatePem, 'CERTIFICATE')[0]) })
        .catch(() => false),
    ).toBe(false);
    if (has('openssl')) {
      const crlFile = await writeTemp('ca.crl', store.crls[0]);
      const caFile = await writeTemp('ca.pem', caPem);
      const { stderr, stdout } = await run('openssl', [
        'crl',
        '-inform',
        'DER',
        '-in',
        crlFile,
        '-CAfile',
        caFile,
        '-noout',
        '-verify',
        '-issuer',
        '-nextupdate',
      ]);
      expect(stderr + stdout).toContain('verify OK');
      expect(stdout).toContain(
        `issuer=${identity.chainPem.length === 1 ? 'O = Signature Service, CN = Signature Service Root CA' : ''}`,
      );
      await expect(
        run('openssl', [
          'crl',
          '-inform',
          'DER',
          '-in',
          crlFile,
          '-CAfile',
          await writeTemp('tsa.pem', tsa.caCertificatePem),
          '-noout',
          '-verify',
        ]),
      ).rejects.toThrow();
    }

    const [sealSignature] = await readSignatures(sealed);
    const sealContents = Buffer.from(sealed).subarray(sealSignature.byteRange[1] + 1, sealSignature.byteRange[2] - 1);
    const key = vriKey(Buffer.from(sealContents.toString('latin1'), 'hex'));
    expect(key).toMatch(/^[0-9A-F]{40}$/);
    expect(Object.keys(store.vri)).toEqual([key]);
    expect(hex(store.vri[key].certs)).toEqual(expect.arrayContaining(hex([identity.certificateDer])));
    expect(hex(store.vri[key].crls)).toEqual(hex(store.crls));
  });

  it('issues a seal certificate naming the CRL and the CA certificate under PUBLIC_URL', async () => {
    const identity = await seal.identity();
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
        await writeTemp('seal.pem', identity.certificatePem),
        '-noout',
        '-text',
      ]);
      expect(stdout).toMatch(
        /X509v3 CRL Distribution Points:\s+Full Name:\s+URI:https:\/\/sign\.example\.test\/pki\/v1\/ca\.crl/,
      );
      expect(stdout).toMatch(/CA Issuers - URI:https:\/\/sign\.example\.test\/pki\/v1\/ca\.crt/);
    }
  });

  it('keeps an earlier signature valid and extends an existing DSS when a sealed file is sealed again', async () => {
    const again = await appendSignature(sealed, await seal.signer({ reason: 'Certificate of completion' }));
    expect(isPrefix(sealed, again)).toBe(true);
    const reports = await pdfsigBlocks(again);
    expect(reports.map((r) => r['Signature Field Name'])).toEqual([
      'PlatformSeal',
      'DocumentTimeStamp',
      'PlatformSeal2',
      'DocumentTimeStamp2',
    ]);
    expect(reports[0]['Signature Validation']).toBe('Signature is Valid.');
    expect(reports[2]['Signature Validation']).toBe('Signature is Valid.');
    const store = await securityStore(again);
    expect(Object.keys(store.vri)).toHaveLength(2);
  });

  it('fails, appending nothing usable, when the TSA refuses the document time-stamp', async () => {
    const refusing = await startTsaServer({ refuse: true });
    try {
      const failing = createPlatformSeal({ dataDir: path.join(work, 'data'), tsaUrl: refusing.url });
      await expect(appendSignature(await makePdf(1), await failing.signer({}))).rejects.toThrow(/refused/);
    } finally {
      await refusing.close();
    }
  });
});

describe('the platform seal without TSA_URL', () => {
  it('stays PAdES B-B: one signature over the whole file, no DSS, no time-stamp', async () => {
    const original = await makePdf(1);
    const sealed = await appendSignature(original, await plain.signer({}));
    const reports = await pdfsigBlocks(sealed);
    expect(reports).toHaveLength(1);
    expect(reports[0]['Signature Validation']).toBe('Signature is Valid.');
    expect(reports[0].raw).toContain('Total document signed');
    expect((await securityStore(sealed)).dss).toBeUndefined();
  });
});

describe('drawing, seal, DSS and document time-stamp on one parse (IncrementalPdf)', () => {
  it('appends four updates to a file with a cross-reference stream and a form: each its own section, all valid', async () => {
    const withForm = await PDF.load(await makePdf(2));
    const form = withForm.getOrCreateForm();
    withForm
      .getPage(0)!
      .drawField(form.createTextField('customer', { defaultValue: 'ACME' }), { x: 72, y: 500, width: 200, height: 20 });
    const original = await withForm.save({ useXRefStream: true });
    expect(Buffer.from(original).includes('/Type /XRef')).toBe(true);

    const file = await IncrementalPdf.open(original);
    // Text outside Windows-1252 embeds the subsetted font: new objects of several kinds in the first update.
    stampFieldsInto(file, [
      { pageNo: 1, box: { x: 72, y: 100, width: 240, height: 30 }, fieldType: 'NAME', value: 'Ada Lovelace Łukasz' },
      { pageNo: 2, box: { x: 72, y: 100, width: 240, height: 30 }, fieldType: 'TEXT', value: 'second page' },
    ]);
    const sealed = await appendSignature(file, await seal.signer({ reason: 'Workflow completed' }));
    expect(isPrefix(original, sealed)).toBe(true);

    // Four updates after the original, each ending in its own cross-reference stream chained by /Prev.
    const text = Buffer.from(sealed).toString('latin1');
    const sections = [...text.matchAll(/(\d+) 0 obj\s*<< \/Type \/XRef .*?\/Prev (\d+)/g)];
    expect(sections).toHaveLength(4);
    const numbers = sections.map((m) => Number(m[1]));
    expect(new Set(numbers).size).toBe(4);
    const startxrefs = [...text.matchAll(/startxref\s+(\d+)/g)].map((m) => Number(m[1]));
    expect(sections.map((m) => Number(m[2]))).toEqual(startxrefs.slice(-5, -1));
    // No update reuses the object number of an earlier cross-reference stream.
    for (const n of numbers) expect(text.match(new RegExp(`(^|\\s)${n} 0 obj`, 'g'))).toHaveLength(1);

    const reports = await pdfsigBlocks(sealed);
    expect(reports.map((r) => r['Signature Field Name'])).toEqual(['PlatformSeal', 'DocumentTimeStamp']);
    expect(reports[0]['Signature Validation']).toBe('Signature is Valid.');
    expect(reports[0]['Certificate Validation']).toBe(TRUSTED());
    const anchors = [parseCertificate(await seal.ca.certificateDer())];
    const checks = await Promise.all(
      (await readSignatures(sealed)).map((s) =>
        checkPdfSignature(digestOf(sealed, s.byteRange), s.contents, anchors, {
          documentTimestamp: s.subFilter === 'ETSI.RFC3161',
        }),
      ),
    );
    expect(checks.map((c) => [c.integrity, c.problem])).toEqual([
      ['VALID', null],
      ['VALID', null],
    ]);

    const reloaded = await PDF.load(sealed);
    expect(
      reloaded
        .getForm()
        ?.getFields()
        .map((f) => f.name)
        .sort(),
    ).toEqual(['DocumentTimeStamp', 'PlatformSeal', 'customer']);
    expect((await securityStore(sealed)).dss).toBeDefined();
    const drawn = await pdfText(sealed);
    expect(drawn).toContain('Ada Lovelace Łukasz');
    expect(drawn).toContain('second page');
  });
});

describe('the platform CA CRL', () => {
  it('lists nothing revoked, is current, and names only certificates the platform CA issued', async () => {
    const der = await seal.ca.crl();
    const crl = pkijs.CertificateRevocationList.fromBER(der);
    expect(crl.revokedCertificates ?? []).toEqual([]);
    expect(crl.thisUpdate.value.getTime()).toBeLessThanOrEqual(Date.now());
    expect(crl.nextUpdate!.value.getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    expect(await seal.ca.crl()).toBe(der);
    const identity = await seal.identity();
    expect(await seal.ca.revocationData([identity.certificateDer, ...identity.chainDer])).toEqual([der]);
    // The TSA's certificate comes from another CA: no CRL of ours vouches for it.
    const [tokenSignature] = await readSignatures(await appendSignature(await makePdf(1), await seal.signer({})));
    const signedData = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(tokenSignature.contents).content });
    const tokenDer = new Uint8Array(signedData.signerInfos[0].unsignedAttrs!.attributes[0].values[0].toBER(false));
    const tsaCertificates = (
      new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(tokenDer).content }).certificates ?? []
    ).map((c) => new Uint8Array((c as pkijs.Certificate).toSchema().toBER(false)));
    expect(tsaCertificates.length).toBeGreaterThan(0);
    expect(await seal.ca.revocationData(tsaCertificates)).toEqual([]);
  });
});
