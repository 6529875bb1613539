import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { makeDocx, storedState, uploadFile } from '../helpers/documents.ts';
import { killHard, scratchDatabase, startServiceProcess, type ServiceProcess } from '../system/service-process.ts';
import { sofficeMissingLine } from '../../src/platform/pdf/convert-word.ts';

/*
 * RUNTIME.md "Two commands": `npm ci && npm start` on a fresh machine. Without LibreOffice, Word uploads cannot be
 * converted: the start-up says so in one line, and the upload's error tells the client how it can be fixed.
 */

const HINT =
  'Word conversion is not available: install LibreOffice (Debian/Ubuntu: apt-get install libreoffice-writer-nogui) or set SOFFICE_PATH; PDF uploads work without it';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-no-soffice-'));
const missing = path.join(scratch, 'libreoffice', 'program', 'soffice');

let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp({ sofficePath: missing });
  owner = await createUser(t);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

describe('Word uploads on a machine without LibreOffice', () => {
  it('answer 400 DOCUMENT_CONVERSION_UNAVAILABLE with the install hint, and store nothing', async () => {
    for (const [name, bytes] of [
      ['letter.docx', makeDocx()],
      ['letter.doc', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0])],
    ] as const) {
      const before = await storedState(t);
      const res = await uploadFile(t, owner.token, name, bytes);
      expect(res.status, name).toBe(400);
      expect(res.body, name).toMatchObject({
        message: 'DOCUMENT_CONVERSION_UNAVAILABLE',
        errorCode: 12005,
        errorDescription: HINT,
      });
      // The server's paths are the operator's business, not the client's.
      expect(res.raw).not.toContain(scratch);
      expect(await storedState(t), name).toEqual(before);
    }
  });

  it('the start-up line is decided by whether soffice can be run: absent or not executable, at a path or on PATH', async () => {
    const bin = path.join(scratch, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    const notExecutable = path.join(bin, 'plain-file');
    fs.writeFileSync(notExecutable, 'not a program', { mode: 0o644 });
    const fake = path.join(bin, 'soffice');
    fs.writeFileSync(fake, '#!/bin/sh\nexit 0\n', { mode: 0o755 });

    const line = await sofficeMissingLine(missing, '/usr/bin:/bin');
    expect(line).toContain(`SOFFICE_PATH=${missing}`);
    expect(line).toContain('DOCUMENT_CONVERSION_UNAVAILABLE');
    expect(line).toContain('apt-get install libreoffice-writer-nogui');
    expect(await sofficeMissingLine(notExecutable, '/usr/bin:/bin')).toContain(notExecutable);
    expect(await sofficeMissingLine('soffice', path.join(scratch, 'empty'))).toContain(
      `SOFFICE_PATH=soffice is in no directory of PATH=${path.join(scratch, 'empty')}`,
    );
    expect(await sofficeMissingLine(fake, '/usr/bin:/bin')).toBeNull();
    expect(await sofficeMissingLine('soffice', `${path.join(scratch, 'empty')}:${bin}`)).toBeNull();
  });
});

describe('the service started as `npm start` does, with SOFFICE_PATH pointing at nothing', () => {
  let service: ServiceProcess | undefined;
  let database: Awaited<ReturnType<typeof scratchDatabase>> = null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-no-soffice-data-'));
  afterAll(async () => {
    if (service) await killHard(service);
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs one clear warning at start naming SOFFICE_PATH and how to install LibreOffice', async () => {
    database = await scratchDatabase('sig_no_soffice');
    service = await startServiceProcess('no-soffice', {
      DATA_DIR: dataDir,
      SOFFICE_PATH: missing,
      ...(database ? { DATABASE_URL: database.url } : {}),
    });
    const isMissingLine = (line: Record<string, any>) =>
      typeof line.msg === 'string' && line.msg.includes(`SOFFICE_PATH=${missing}`);
    await service.waitForLog(isMissingLine, 60_000);
    // The isolation probe's line comes from the same start-up check: once it is there, nothing more is to come.
    await service.waitForLog(
      (line) => typeof line.msg === 'string' && line.msg.startsWith('Word conversion: '),
      60_000,
    );
    const lines = service.logLines().filter(isMissingLine);
    expect(lines).toHaveLength(1);
    expect(lines[0].level).toBe(40);
    expect(lines[0].msg).toContain('apt-get install libreoffice-writer-nogui');
  }, 300_000);
});
