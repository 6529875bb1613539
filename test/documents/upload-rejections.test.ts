import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import {
  makeDocx,
  makeEncryptedPdf,
  makePermsSignaturePdf,
  makePlainZip,
  makeSignedFieldPdf,
  multipartBody,
  sendMultipart,
  storedState,
  uploadFile,
} from '../helpers/documents.ts';
import { loadSealIdentity } from '../../src/platform/crypto/seal-identity.ts';
import { sealPdf } from '../../src/platform/pdf/seal-pdf.ts';

let t: TestApp;
let owner: TestUser;
let pdf: Uint8Array;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
  pdf = await makePdf(2);
});
afterAll(async () => {
  await t?.close();
});

// Every rejection must leave the database and the blob directory exactly as they were.
let before: Awaited<ReturnType<typeof storedState>>;
beforeEach(async () => {
  before = await storedState(t);
});
async function expectRejected(res: { status: number; body: any }, message: string, label = '') {
  expect(res.status, `${label} ${JSON.stringify(res.body)}`).toBe(400);
  expect(res.body.message, label).toBe(message);
  expect(res.body.success).toBe(false);
  expect(await storedState(t), label).toEqual(before);
}

describe('type', () => {
  it('refuses names other than .pdf, .doc and .docx with INVALID_DOCUMENT_TYPE', async () => {
    for (const name of ['notes.txt', 'scan.png', 'contract', 'contract.pdf.zip', 'contract.pdfx', '.pdf.exe']) {
      const res = await uploadFile(t, owner.token, name, pdf);
      await expectRejected(res, 'INVALID_DOCUMENT_TYPE', name);
      // SPEC.md's condition text stays fixed; what went wrong is in responseBody.detail.
      expect(res.body.errorDescription).toBe('Invalid document type');
      expect(res.body.responseBody.detail).toContain(name);
    }
  });

  it('refuses content that does not match the extension', async () => {
    const cases: Array<[string, Uint8Array | string]> = [
      ['text.pdf', 'Just some text, not a PDF at all'],
      ['word.pdf', makeDocx()],
      ['pdf.docx', pdf],
      ['text.docx', 'plain text'],
      ['pdf.doc', pdf],
      ['docx.doc', makeDocx()],
    ];
    for (const [name, data] of cases)
      await expectRejected(await uploadFile(t, owner.token, name, data), 'INVALID_DOCUMENT_TYPE', name);
  });

  it('refuses a zip renamed .docx (no word/document.xml) as INVALID_DOCUMENT_TYPE, not a conversion error', async () => {
    const res = await uploadFile(t, owner.token, 'archive.docx', makePlainZip());
    await expectRejected(res, 'INVALID_DOCUMENT_TYPE');
    expect(res.body.responseBody.detail).toContain('word/document.xml');
  });
});

describe('size', () => {
  it('refuses an empty file with INVALID_DOCUMENT_SIZE', async () => {
    for (const name of ['empty.pdf', 'empty.docx', 'empty.doc']) {
      const res = await uploadFile(t, owner.token, name, new Uint8Array(0));
      await expectRejected(res, 'INVALID_DOCUMENT_SIZE', name);
      expect(res.body.errorDescription).toContain('empty');
    }
  });
});

describe('damaged and encrypted PDFs', () => {
  it('refuses a truncated PDF with INVALID_PDF', async () => {
    for (const cut of [0.3, 0.6, 0.95]) {
      const res = await uploadFile(t, owner.token, 'cut.pdf', pdf.slice(0, Math.floor(pdf.length * cut)));
      await expectRejected(res, 'INVALID_PDF', `cut at ${cut}`);
      expect(res.body.errorDescription).toMatch(/truncated/);
    }
  });

  it('refuses a PDF header with nothing readable behind it with INVALID_PDF', async () => {
    const res = await uploadFile(t, owner.token, 'hollow.pdf', '%PDF-1.7\nnothing here\n%%EOF\n');
    await expectRejected(res, 'INVALID_PDF');
    expect(res.body.errorDescription).toMatch(/damaged/);
  });

  it('refuses encrypted PDFs, with or without an open password, with INVALID_PDF', async () => {
    for (const userPassword of ['open-sesame', undefined]) {
      const res = await uploadFile(t, owner.token, 'locked.pdf', await makeEncryptedPdf(pdf, { userPassword }));
      await expectRejected(res, 'INVALID_PDF', String(userPassword));
      expect(res.body.errorDescription).toMatch(/encrypted/);
    }
  });
});

describe('signed PDFs', () => {
  it('refuses a PDF with a signed signature field (signature dictionary with /ByteRange) as DOCUMENT_ALREADY_SIGNED', async () => {
    await expectRejected(
      await uploadFile(t, owner.token, 'signed.pdf', await makeSignedFieldPdf(pdf)),
      'DOCUMENT_ALREADY_SIGNED',
      'in /Fields',
    );
    await expectRejected(
      await uploadFile(t, owner.token, 'signed.pdf', await makeSignedFieldPdf(pdf, { linked: false })),
      'DOCUMENT_ALREADY_SIGNED',
      'widget only',
    );
  });

  it('refuses a PDF sealed with a real PAdES signature', async () => {
    const identity = await loadSealIdentity(t.config.dataDir);
    const sealed = await sealPdf(pdf, identity);
    before = await storedState(t);
    const res = await uploadFile(t, owner.token, 'sealed.pdf', sealed);
    await expectRejected(res, 'DOCUMENT_ALREADY_SIGNED');
    expect(res.body.errorDescription).toMatch(/signature/);
  });

  it('refuses a certified PDF (signature under /Perms /DocMDP)', async () => {
    await expectRejected(
      await uploadFile(t, owner.token, 'certified.pdf', await makePermsSignaturePdf(pdf, 'DocMDP')),
      'DOCUMENT_ALREADY_SIGNED',
    );
  });

  it('accepts a PDF with an empty signature field (a place to sign is not a signature), and a Reader-extended form (UR3)', async () => {
    const res = await uploadFile(t, owner.token, 'to-sign.pdf', await makeSignedFieldPdf(pdf, { withValue: false }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const extended = await uploadFile(t, owner.token, 'reader-extended.pdf', await makePermsSignaturePdf(pdf, 'UR3'));
    expect(extended.status, JSON.stringify(extended.body)).toBe(201);
  });
});

describe('multipart form', () => {
  it('refuses a form without the part "file"', async () => {
    const res = await sendMultipart(t, 'POST', '/document/v1', owner.token, [
      { name: 'timeZone', data: 'Europe/Paris' },
    ]);
    await expectRejected(res, 'BAD_REQUEST_BODY');
    expect(res.body.errorDescription).toContain('"file"');
  });

  it('refuses two files', async () => {
    const res = await sendMultipart(t, 'POST', '/document/v1', owner.token, [
      { name: 'file', filename: 'one.pdf', data: pdf },
      { name: 'file', filename: 'two.pdf', data: pdf },
    ]);
    await expectRejected(res, 'BAD_REQUEST_BODY');
    expect(res.body.errorDescription).toMatch(/exactly one file/);
  });

  it('refuses a file in another part, and "file" sent as a text field', async () => {
    await expectRejected(
      await sendMultipart(t, 'POST', '/document/v1', owner.token, [{ name: 'document', filename: 'x.pdf', data: pdf }]),
      'BAD_REQUEST_BODY',
      'other part',
    );
    await expectRejected(
      await sendMultipart(t, 'POST', '/document/v1', owner.token, [{ name: 'file', data: 'x.pdf' }]),
      'BAD_REQUEST_BODY',
      'text field',
    );
  });

  it('refuses a JSON body and a cut-off multipart body', async () => {
    await expectRejected(
      await t.request('POST', '/document/v1', { token: owner.token, body: { file: 'x.pdf' } }),
      'BAD_REQUEST_BODY',
      'json',
    );
    const { body, contentType } = multipartBody([{ name: 'file', filename: 'x.pdf', data: pdf }]);
    const cut = body.subarray(0, body.length - 60);
    const res = await t.request('POST', '/document/v1', {
      token: owner.token,
      body: cut,
      headers: { 'content-type': contentType },
    });
    await expectRejected(res, 'BAD_REQUEST_BODY', 'cut-off');
  });

  it('a too-long text part is refused', async () => {
    const res = await uploadFile(t, owner.token, 'x.pdf', pdf, { fields: { timeZone: 'x'.repeat(5000) } });
    await expectRejected(res, 'BAD_REQUEST_BODY');
  });
});
