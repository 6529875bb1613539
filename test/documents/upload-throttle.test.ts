import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { makeDocx, replaceFile, storedState, uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';

describe('uploads per account per minute (UPLOADS_PER_MINUTE)', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ uploadsPerMinute: 3 });
    owner = await createUser(t);
    other = await createUser(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 UPLOAD_RATE_LIMITED with Retry-After beyond the allowance, for uploads and replacements, stores nothing, and leaves other accounts alone', async () => {
    const pdf = await makePdf(1);
    const first = await uploadFile(t, owner.token, 'one.pdf', pdf);
    expect(first.status).toBe(201);
    // A rejected upload counts too: it cost the same work.
    expect((await uploadFile(t, owner.token, 'notes.txt', 'plain text')).status).toBe(400);
    expect((await replaceFile(t, owner.token, first.body.id, 'two.pdf', await makePdf(2))).status).toBe(200);

    const before = await storedState(t);
    const refused = await uploadFile(t, owner.token, 'four.pdf', pdf);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      httpStatusCode: 429,
      success: false,
      message: 'UPLOAD_RATE_LIMITED',
      errorCode: 12020,
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const replacement = await replaceFile(t, owner.token, first.body.id, 'again.pdf', pdf);
    expect(replacement.status).toBe(429);
    expect(replacement.body.message).toBe('UPLOAD_RATE_LIMITED');
    expect(replacement.headers['retry-after']).toBeDefined();
    expect(await storedState(t)).toEqual(before);

    // Renaming is not an upload; another account has its own allowance.
    expect(
      (await t.request('PUT', `/document/v1/${first.body.id}`, { token: owner.token, body: { name: 'Renamed' } }))
        .status,
    ).toBe(200);
    expect((await uploadFile(t, other.token, 'theirs.pdf', pdf)).status).toBe(201);
  });
});

/*
 * A LibreOffice stand-in that holds every conversion until the test releases it, then writes a real PDF: the
 * service runs 2 conversions and lets 8 wait, so of 12 uploads sent together exactly 2 are turned away at once.
 */
describe('the Word conversion waiting line', () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-conversion-queue-'));
  const release = path.join(scratch, 'release');
  const started = path.join(scratch, 'started');
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    fs.writeFileSync(path.join(scratch, 'result.pdf'), await makePdf(1));
    fs.mkdirSync(started);
    const sofficePath = path.join(scratch, 'soffice');
    fs.writeFileSync(
      sofficePath,
      `#!/bin/sh\nmktemp ${started}/XXXXXX >/dev/null\nwhile [ ! -f ${release} ]; do sleep 0.05; done\nmkdir -p out\ncp ${scratch}/result.pdf out/document.pdf\n`,
      { mode: 0o755 },
    );
    t = await createTestApp({ sofficePath });
    owner = await createUser(t);
  });
  afterAll(async () => {
    fs.writeFileSync(release, '');
    await t?.close();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when full, and converts everything it accepted', async () => {
    const answers: { status: number; body: any; headers: Record<string, any> }[] = [];
    const uploads = Array.from({ length: 12 }, (_, n) =>
      uploadFile(t, owner.token, `letter-${n}.docx`, makeDocx([`Letter ${n}`])).then((res) => {
        answers.push(res);
        return res;
      }),
    );
    // The two beyond the line answer without waiting for any conversion.
    const deadline = Date.now() + 30_000;
    while (answers.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answers.map((a) => a.status)).toEqual([503, 503]);
    for (const refused of answers) {
      expect(refused.body.message).toBe('SERVICE_UNAVAILABLE');
      expect(refused.body.errorDescription).toMatch(/Word conversions/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Two conversions are running meanwhile, and only two.
    while (fs.readdirSync(started).length < 2 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(fs.readdirSync(started).length).toBe(2);
    expect(answers).toHaveLength(2);

    fs.writeFileSync(release, '');
    const all = await Promise.all(uploads);
    expect(all.filter((res) => res.status === 201)).toHaveLength(10);
    expect(fs.readdirSync(started).length).toBe(10);
  });
});
