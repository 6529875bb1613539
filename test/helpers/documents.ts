import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { count } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { PDF, PdfArray, PdfDict, PdfName, PdfNumber, PdfString } from '@libpdf/core';
import { activities, documents, recipients, workflows } from '../../src/platform/db/schema/index.ts';
import type { TestApp } from './test-app.ts';

const run = promisify(execFile);

export type Part = { name: string; filename?: string; contentType?: string; data: Uint8Array | string };

/** A multipart/form-data body built in memory (for files small enough to inject). */
export function multipartBody(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----sig-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let header = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) header += `; filename="${part.filename}"`;
    header += '\r\n';
    if (part.filename !== undefined) header += `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n`;
    chunks.push(Buffer.from(`${header}\r\n`), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export type UploadOptions = {
  query?: Record<string, string | number>;
  fields?: Record<string, string>;
  parts?: Part[];
};

/** POST /document/v1 with one file in the part `file` (plus optional extra fields and parts). */
export async function uploadFile(
  t: TestApp,
  token: string | undefined,
  filename: string,
  data: Uint8Array | string,
  options: UploadOptions = {},
) {
  const parts: Part[] = [{ name: 'file', filename, data }];
  for (const [name, value] of Object.entries(options.fields ?? {})) parts.push({ name, data: value });
  parts.push(...(options.parts ?? []));
  return sendMultipart(t, 'POST', `/document/v1${queryString(options.query)}`, token, parts);
}

/** PUT /document/v1/{docId} with one file in the part `file`. */
export async function replaceFile(
  t: TestApp,
  token: string | undefined,
  documentId: number,
  filename: string,
  data: Uint8Array | string,
) {
  return sendMultipart(t, 'PUT', `/document/v1/${documentId}`, token, [{ name: 'file', filename, data }]);
}

export async function sendMultipart(t: TestApp, method: string, url: string, token: string | undefined, parts: Part[]) {
  const { body, contentType } = multipartBody(parts);
  const headers: Record<string, string> = { 'content-type': contentType };
  return t.request(method, url, { token, body, headers });
}

function queryString(query: Record<string, string | number> | undefined): string {
  if (!query || Object.keys(query).length === 0) return '';
  return `?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
}

// ---------------------------------------------------------------------------------------------------------
// Files

/** A minimal but real Word 2007+ document: `paragraphs` paragraphs, each on its own page when `pageBreaks`. */
export function makeDocx(
  paragraphs: string[] = ['Hello from Word'],
  options: { pageBreaks?: boolean } = {},
): Uint8Array {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = paragraphs
    .map((text, index) => {
      const breakBefore = options.pageBreaks && index > 0 ? '<w:r><w:br w:type="page"/></w:r>' : '';
      return `<w:p>${breakBefore}<w:r><w:t>${escape(text)}</w:t></w:r></w:p>`;
    })
    .join('');
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    'word/document.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
    ),
  });
}

/** A valid zip that is not a Word document (no word/document.xml). */
export function makePlainZip(): Uint8Array {
  return zipSync({ 'readme.txt': strToU8('just a zip'), 'data/values.csv': strToU8('a,b\n1,2\n') });
}

/** A Word 97-2003 .doc, produced from a .docx by LibreOffice (as a user's old file would be). */
export async function makeDoc(paragraphs: string[]): Promise<Uint8Array> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'sig-doc-fixture-'));
  try {
    await fsp.writeFile(path.join(dir, 'fixture.docx'), makeDocx(paragraphs, { pageBreaks: true }));
    await run(
      'soffice',
      [
        `-env:UserInstallation=file://${dir}/profile`,
        '--headless',
        '--norestore',
        '--convert-to',
        'doc',
        '--outdir',
        dir,
        path.join(dir, 'fixture.docx'),
      ],
      { timeout: 120_000 },
    );
    return new Uint8Array(await fsp.readFile(path.join(dir, 'fixture.doc')));
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

export async function makeEncryptedPdf(
  bytes: Uint8Array,
  options: { userPassword?: string } = {},
): Promise<Uint8Array> {
  const pdf = await PDF.load(bytes);
  pdf.setProtection({
    userPassword: options.userPassword,
    ownerPassword: 'owner-secret',
    permissions: { modify: false },
  });
  return pdf.save();
}

/**
 * A PDF whose AcroForm holds a signature field with a value: a signature dictionary with /ByteRange and
 * /Contents, as a signing tool leaves it. `linked: false` leaves the field out of /Fields (widget on the page only).
 */
export async function makeSignedFieldPdf(
  bytes: Uint8Array,
  options: { linked?: boolean; withValue?: boolean } = {},
): Promise<Uint8Array> {
  const pdf = await PDF.load(bytes);
  const page = pdf.getPages()[0];
  const signature = new PdfDict([
    ['Type', PdfName.of('Sig')],
    ['Filter', PdfName.of('Adobe.PPKLite')],
    ['SubFilter', PdfName.of('adbe.pkcs7.detached')],
    ['ByteRange', PdfArray.of(PdfNumber.of(0), PdfNumber.of(100), PdfNumber.of(200), PdfNumber.of(300))],
    ['Contents', PdfString.fromBytes(new Uint8Array(64))],
  ]);
  const entries: Array<[string, any]> = [
    ['FT', PdfName.of('Sig')],
    ['T', PdfString.fromString('Signature1')],
    ['Type', PdfName.of('Annot')],
    ['Subtype', PdfName.of('Widget')],
    ['Rect', PdfArray.of(PdfNumber.of(0), PdfNumber.of(0), PdfNumber.of(0), PdfNumber.of(0))],
    ['P', page.ref],
  ];
  if (options.withValue !== false) entries.push(['V', pdf.context.register(signature)]);
  const fieldRef = pdf.context.register(new PdfDict(entries));
  page.dict.set('Annots', PdfArray.of(fieldRef));
  if (options.linked !== false) {
    pdf.getCatalog().set(
      'AcroForm',
      new PdfDict([
        ['Fields', PdfArray.of(fieldRef)],
        ['SigFlags', PdfNumber.of(3)],
      ]),
    );
  }
  return pdf.save();
}

/**
 * A signature dictionary registered only in the catalog's /Perms: under DocMDP (a certification signature) or
 * under UR3 (Adobe Reader usage rights of a blank form).
 */
export async function makePermsSignaturePdf(bytes: Uint8Array, kind: 'DocMDP' | 'UR3'): Promise<Uint8Array> {
  const pdf = await PDF.load(bytes);
  const signature = new PdfDict([
    ['Type', PdfName.of('Sig')],
    ['Filter', PdfName.of('Adobe.PPKLite')],
    ['ByteRange', PdfArray.of(PdfNumber.of(0), PdfNumber.of(100), PdfNumber.of(200), PdfNumber.of(300))],
    ['Contents', PdfString.fromBytes(new Uint8Array(64))],
  ]);
  pdf.getCatalog().set('Perms', new PdfDict([[kind, pdf.context.register(signature)]]));
  return pdf.save();
}

// ---------------------------------------------------------------------------------------------------------
// What is stored

/** Files under DATA_DIR/blobs, scratch area included. */
export function countBlobFiles(t: TestApp): number {
  const root = path.join(t.config.dataDir, 'blobs');
  if (!fs.existsSync(root)) return 0;
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

/** Row counts of every table an upload writes, plus the blob files: equal before and after a rejected request. */
export async function storedState(t: TestApp) {
  const db = t.platform.db;
  const [[w], [d], [r], [a]] = await Promise.all([
    db.select({ n: count() }).from(workflows),
    db.select({ n: count() }).from(documents),
    db.select({ n: count() }).from(recipients),
    db.select({ n: count() }).from(activities),
  ]);
  return { workflows: w.n, documents: d.n, recipients: r.n, activities: a.n, blobFiles: countBlobFiles(t) };
}

export function isPng(base64: string): boolean {
  const bytes = Buffer.from(base64, 'base64');
  return bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
}

/** Width and height of a PNG (from its IHDR chunk). */
export function pngSize(base64: string): { width: number; height: number } {
  const bytes = Buffer.from(base64, 'base64');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}
