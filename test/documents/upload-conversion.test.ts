import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { makeDocx, storedState, uploadFile } from '../helpers/documents.ts';
import {
  ConversionFailedError,
  ConversionUnavailableError,
  convertWordToPdf,
} from '../../src/platform/pdf/convert-word.ts';

/*
 * LibreOffice stand-ins at a path the test controls: absent (not installed), failing, or producing nothing.
 * The real conversion is tested in upload.test.ts.
 */
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-fake-soffice-'));
const sofficePath = path.join(scratch, 'soffice');

function installFakeSoffice(script: string) {
  fs.writeFileSync(sofficePath, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
}

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp({ sofficePath });
  owner = await createUser(t);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('Word conversion failures', () => {
  it('answers DOCUMENT_CONVERSION_UNAVAILABLE when LibreOffice is not installed, and stores nothing', async () => {
    fs.rmSync(sofficePath, { force: true });
    const before = await storedState(t);
    const res = await uploadFile(t, owner.token, 'letter.docx', makeDocx());
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('DOCUMENT_CONVERSION_UNAVAILABLE');
    expect(res.body.errorDescription).toMatch(
      /^Word conversion is not available: install LibreOffice .* or set SOFFICE_PATH/,
    );
    expect(await storedState(t)).toEqual(before);
  });

  it('still accepts PDFs without LibreOffice', async () => {
    fs.rmSync(sofficePath, { force: true });
    const { makePdf } = await import('../helpers/pdf-fixtures.ts');
    expect((await uploadFile(t, owner.token, 'plain.pdf', await makePdf(1))).status).toBe(201);
  });

  it('answers DOCUMENT_CONVERSION_FAILED when LibreOffice fails or writes no PDF, and stores nothing', async () => {
    for (const script of [
      'echo "Error: source file could not be loaded" >&2; exit 1',
      'echo "Error: source file could not be loaded"; exit 0',
      'mkdir -p out; printf "" > out/document.pdf',
    ]) {
      installFakeSoffice(script);
      const before = await storedState(t);
      const res = await uploadFile(t, owner.token, 'broken.docx', makeDocx());
      expect(res.status, script).toBe(400);
      expect(res.body.message, script).toBe('DOCUMENT_CONVERSION_FAILED');
      expect(await storedState(t), script).toEqual(before);
    }
  });

  it('answers DOCUMENT_CONVERSION_FAILED when the converter writes something that is not a usable PDF', async () => {
    installFakeSoffice('mkdir -p out; echo "%PDF-1.7 not really" > out/document.pdf');
    const res = await uploadFile(t, owner.token, 'odd.docx', makeDocx());
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('DOCUMENT_CONVERSION_FAILED');
    expect(res.body.errorDescription).toMatch(/resulting PDF is unusable/);
  });

  it('runs each conversion with its own LibreOffice profile directory', async () => {
    const log = path.join(scratch, 'args.log');
    installFakeSoffice(`echo "$1" >> ${log}; exit 1`);
    await Promise.all([1, 2, 3].map(() => uploadFile(t, owner.token, 'p.docx', makeDocx())));
    const profiles = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(profiles).toHaveLength(3);
    expect(profiles.every((line) => line.startsWith('-env:UserInstallation=file:///'))).toBe(true);
    expect(new Set(profiles).size).toBe(3);
  });
});

/** A killed process may linger as a zombie until some parent reaps it; that is not running. */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('convertWordToPdf', () => {
  it('kills LibreOffice and everything it started when the time limit passes', async () => {
    const pidFile = path.join(scratch, 'child.pid');
    installFakeSoffice(`sleep 120 & echo $! > ${pidFile}; wait`);
    const input = path.join(scratch, 'in.docx');
    fs.writeFileSync(input, makeDocx());
    const started = Date.now();
    await expect(convertWordToPdf(input, 'docx', { sofficePath, timeoutMs: 500 })).rejects.toBeInstanceOf(
      ConversionFailedError,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    const childPid = Number(fs.readFileSync(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(isRunning(childPid)).toBe(false);
  });

  it('reports a missing or non-executable converter as unavailable', async () => {
    const input = path.join(scratch, 'in2.docx');
    fs.writeFileSync(input, makeDocx());
    await expect(
      convertWordToPdf(input, 'docx', { sofficePath: path.join(scratch, 'missing') }),
    ).rejects.toBeInstanceOf(ConversionUnavailableError);
    fs.writeFileSync(path.join(scratch, 'not-executable'), 'x', { mode: 0o644 });
    await expect(
      convertWordToPdf(input, 'docx', { sofficePath: path.join(scratch, 'not-executable') }),
    ).rejects.toBeInstanceOf(ConversionUnavailableError);
  });
});
