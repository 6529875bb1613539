import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { eq } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { convertWordToPdf, createWordConverter, detectNetworkIsolation } from '../../src/platform/pdf/convert-word.ts';
import { documents } from '../../src/platform/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { makeDocx, uploadFile } from '../helpers/documents.ts';
import { pdfText } from '../helpers/pdf-text.ts';
import { has } from '../helpers/tools.ts';

/*
 * A .docx whose images are linked, not embedded: one from an HTTP listener on loopback that this test runs, one
 * from a local SVG file whose text is a marker. Unsandboxed, LibreOffice fetches the first (three requests) and
 * draws the second, so the marker appears in the PDF's text: the first test shows that, so the others cannot
 * pass merely because the fixture stopped working. Sandboxed, no request may arrive and the marker must not
 * appear.
 */
const MARKER = 'LOCALFILEMARKER7731';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-word-sandbox-'));
const markerSvg = path.join(scratch, 'marker.svg');
const requests: string[] = [];
let server: http.Server;
let docx: Uint8Array;

function linkedImage(relationshipId: string, id: number): string {
  return (
    `<w:p><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="1905000" cy="476250"/><wp:docPr id="${id}" name="Picture ${id}"/>` +
    '<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">' +
    `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="${id}" name="image${id}"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip r:link="${relationshipId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1905000" cy="476250"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr></pic:pic>' +
    '</a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>'
  );
}

function makeLinkingDocx(remoteUrl: string, localUrl: string): Uint8Array {
  const image = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
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
    'word/_rels/document.xml.rels': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        `<Relationship Id="rId5" Type="${image}" Target="${remoteUrl}" TargetMode="External"/>` +
        `<Relationship Id="rId6" Type="${image}" Target="${localUrl}" TargetMode="External"/></Relationships>`,
    ),
    'word/document.xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" ' +
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body><w:p><w:r><w:t>Visible body text</w:t></w:r></w:p>' +
        `${linkedImage('rId5', 1)}${linkedImage('rId6', 2)}</w:body></w:document>`,
    ),
  });
}

beforeAll(async () => {
  fs.writeFileSync(
    markerSvg,
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><text x="10" y="50" font-size="24">${MARKER}</text></svg>`,
  );
  server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  docx = makeLinkingDocx(`http://127.0.0.1:${port}/tracking-pixel.png`, pathToFileURL(markerSvg).href);
  fs.writeFileSync(path.join(scratch, 'linking.docx'), docx);
});
beforeEach(() => {
  requests.length = 0;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  fs.rmSync(scratch, { recursive: true, force: true });
});

// These two run LibreOffice itself; without it (tools.ts) a Word upload is refused, DOCUMENT_CONVERSION_UNAVAILABLE
// (test/conformance/word-without-libreoffice.test.ts), and there is no conversion to sandbox.
describe.skipIf(!has('soffice'))(
  'the fixture, converted the way the service used to (inherited environment, default profile)',
  () => {
    it('makes LibreOffice fetch the remote image and draw the local file', async () => {
      const dir = fs.mkdtempSync(path.join(scratch, 'plain-'));
      fs.copyFileSync(path.join(scratch, 'linking.docx'), path.join(dir, 'document.docx'));
      await new Promise<void>((resolve, reject) => {
        const child = spawn(
          'soffice',
          [
            `-env:UserInstallation=${pathToFileURL(path.join(dir, 'profile')).href}`,
            '--headless',
            '--norestore',
            '--convert-to',
            'pdf',
            '--outdir',
            dir,
            path.join(dir, 'document.docx'),
          ],
          { cwd: dir, stdio: 'ignore', env: { ...process.env, HOME: dir } },
        );
        child.on('error', reject);
        child.on('close', () => resolve());
      });
      expect(requests.length).toBeGreaterThan(0);
      expect(await pdfText(fs.readFileSync(path.join(dir, 'document.pdf')))).toContain(MARKER);
    });
  },
);

describe.skipIf(!has('soffice'))('Word upload in the sandbox', () => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('converts over HTTP without any request reaching the network and without the local file in the PDF', async () => {
    const res = await uploadFile(t, owner.token, 'linking.docx', docx);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [stored] = await t.platform.db.select().from(documents).where(eq(documents.id, res.body.id));
    const text = await pdfText(await t.platform.blobs.get(stored.blobKey));
    expect(text).toContain('Visible body text');
    expect(text).not.toContain(MARKER);
    expect(requests).toEqual([]);
  });

  it('keeps the remote and the local link out with the blocked-links profile alone (where no network namespace can be made)', async () => {
    const input = path.join(scratch, 'linking.docx');
    const pdf = await convertWordToPdf(input, 'docx', {
      sofficePath: 'soffice',
      isolation: { kind: 'profile-only', reason: 'test' },
    });
    const text = await pdfText(pdf);
    expect(text).toContain('Visible body text');
    expect(text).not.toContain(MARKER);
    expect(requests).toEqual([]);
  });
});

describe('what LibreOffice is given', () => {
  it("an environment without the service's secrets, a scratch directory holding only its input, and no network where unshare works", async () => {
    const sofficePath = path.join(scratch, 'spy-soffice');
    const report = path.join(scratch, 'spy-report');
    fs.mkdirSync(report);
    // A stand-in that records what it sees, then writes a PDF so the conversion succeeds.
    fs.writeFileSync(
      sofficePath,
      `#!/bin/sh\nenv > ${report}/env\nls -A > ${report}/cwd\ncat /proc/net/dev > ${report}/net\nmkdir -p out\nprintf '%%PDF-1.4\\n' > out/document.pdf\n`,
      { mode: 0o755 },
    );
    const secrets = {
      JWT_SECRET: 'jwt-secret-value',
      DATABASE_URL: 'postgres://user:pw@db/x',
      SMTP_URL: 'smtp://user:pw@mail',
    };
    const saved = Object.fromEntries(Object.keys(secrets).map((key) => [key, process.env[key]]));
    Object.assign(process.env, secrets);
    try {
      const converter = createWordConverter({ sofficePath, searchPath: '/usr/local/bin:/usr/bin:/bin' });
      fs.writeFileSync(path.join(scratch, 'plain.docx'), makeDocx());
      await converter.convert(path.join(scratch, 'plain.docx'), 'docx');
      const env = Object.fromEntries(
        fs
          .readFileSync(path.join(report, 'env'), 'utf8')
          .trim()
          .split('\n')
          .map((line) => [line.split('=')[0], line.slice(line.indexOf('=') + 1)]),
      );
      // PWD, SHLVL and _ are the shell's own.
      expect(
        Object.keys(env)
          .filter((key) => !['PWD', 'SHLVL', '_', 'OLDPWD'].includes(key))
          .sort(),
      ).toEqual(['HOME', 'LANG', 'PATH', 'TMPDIR']);
      expect(JSON.stringify(env)).not.toMatch(/jwt-secret-value|user:pw/);
      expect(fs.readFileSync(path.join(report, 'cwd'), 'utf8').trim().split('\n').sort()).toEqual([
        'document.docx',
        'profile',
        'tmp',
      ]);
      expect(env.HOME).toBe(env.PWD);
      const isolation = await converter.isolation();
      expect(isolation).toEqual(await detectNetworkIsolation({ searchPath: '/usr/local/bin:/usr/bin:/bin' }));
      if (isolation.kind === 'network-namespace') {
        const interfaces = fs
          .readFileSync(path.join(report, 'net'), 'utf8')
          .trim()
          .split('\n')
          .slice(2)
          .map((line) => line.trim().split(':')[0]);
        expect(interfaces).toEqual(['lo']);
      }
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});
