import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createDraftWorkflow, createUser, insertField, type TestUser } from '../helpers/factories.ts';
import { uploadFile } from '../helpers/documents.ts';
import { makePdf } from '../helpers/pdf-fixtures.ts';
import { documentRows, pngDataUrl, waitForSeal } from '../helpers/ceremony.ts';
import { pdfsig } from '../helpers/pdfsig.ts';
import { startS3Server, type S3TestServer } from '../helpers/s3-server.ts';
import { BlobTooLargeError } from '../../src/platform/storage/blob-store.ts';
import { logoPart, pngImage, putBranding, settings } from '../branding/branding-forms.ts';

/** S3_BUCKET: every stored file goes to the bucket (a real S3-compatible server), none to DATA_DIR/blobs. */
let s3: S3TestServer;
let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  s3 = await startS3Server();
  t = await createTestApp(
    { s3: { bucket: s3.bucket, endpoint: s3.endpoint, region: 'us-east-1' } },
    { s3Credentials: s3.credentials },
  );
  owner = await createUser(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

/** Files under DATA_DIR/blobs other than the scratch area. */
function localBlobs(): string[] {
  const root = path.join(t.config.dataDir, 'blobs');
  if (!fs.existsSync(root)) return [];
  return fs.readdirSync(root).filter((entry) => entry !== 'tmp');
}

describe('S3 blob store', () => {
  it('stores, dedupes, reads back and answers has()', async () => {
    const bytes = new TextEncoder().encode(`hello ${Date.now()}`);
    const first = await t.platform.blobs.put(bytes);
    const again = await t.platform.blobs.put(bytes);
    expect(again).toEqual(first);
    expect(Buffer.from(await t.platform.blobs.get(first.key)).equals(Buffer.from(bytes))).toBe(true);
    expect(await t.platform.blobs.has(first.key)).toBe(true);
    expect(await t.platform.blobs.has('0'.repeat(64))).toBe(false);
    expect(s3.keys()).toContain(`blobs/${first.key}`);
  });

  it('keeps parts with a known hash as one object under that hash', async () => {
    const parts = [
      new TextEncoder().encode(`first ${Date.now()} `),
      new Uint8Array(crypto.randomBytes(50_000)),
      new TextEncoder().encode(' last'),
    ];
    const whole = Buffer.concat(parts);
    const sha256 = crypto.createHash('sha256').update(whole).digest('hex');
    expect(await t.platform.blobs.put({ parts, sha256, size: whole.length })).toEqual({
      key: sha256,
      size: whole.length,
    });
    expect(Buffer.from(await t.platform.blobs.get(sha256)).equals(whole)).toBe(true);
    expect(s3.keys()).toContain(`blobs/${sha256}`);
  });

  it('keeps parts that name their stored base as an object of the appended bytes only, and reads it back whole (get, open, has)', async () => {
    const original = new Uint8Array(crypto.randomBytes(1_500_000));
    const base = await t.platform.blobs.put(original);
    const update = new Uint8Array(crypto.randomBytes(4_000));
    const whole = Buffer.concat([original, update]);
    const sha256 = crypto.createHash('sha256').update(whole).digest('hex');
    expect(await t.platform.blobs.put({ parts: [original, update], sha256, size: whole.length, base })).toEqual({
      key: sha256,
      size: whole.length,
    });
    expect(s3.keys()).toContain(`blobs/${sha256}.appended`);
    expect(s3.keys()).not.toContain(`blobs/${sha256}`);
    expect(await t.platform.blobs.has(sha256)).toBe(true);
    expect(Buffer.from(await t.platform.blobs.get(sha256)).equals(whole)).toBe(true);
    const { stream, size } = await t.platform.blobs.open(sha256);
    expect(size).toBe(whole.length);
    expect(Buffer.concat(await stream.toArray()).equals(whole)).toBe(true);
    // Its base missing from the bucket: stored whole.
    const lone = new Uint8Array(crypto.randomBytes(2_000));
    const loneWhole = Buffer.concat([lone, update]);
    const loneKey = crypto.createHash('sha256').update(loneWhole).digest('hex');
    await t.platform.blobs.put({
      parts: [lone, update],
      sha256: loneKey,
      size: loneWhole.length,
      base: { key: crypto.createHash('sha256').update(lone).digest('hex'), size: lone.length },
    });
    expect(s3.keys()).toContain(`blobs/${loneKey}`);
    expect(Buffer.from(await t.platform.blobs.get(loneKey)).equals(loneWhole)).toBe(true);
  });

  it('opens a stored blob as a stream with its size, and refuses a key that is not stored before any byte', async () => {
    const bytes = new Uint8Array(2 * 1024 * 1024 + 13).map((_, i) => (i * 31) & 255);
    const { key } = await t.platform.blobs.put(bytes);
    const { stream, size } = await t.platform.blobs.open(key);
    expect(size).toBe(bytes.byteLength);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    // More than one chunk: the body came as a stream, not as one buffer.
    expect(chunks.length).toBeGreaterThan(1);
    expect(Buffer.concat(chunks).equals(Buffer.from(bytes))).toBe(true);
    await expect(t.platform.blobs.open('f'.repeat(64))).rejects.toThrow();
  });

  it('stages locally while hashing, commits to the bucket, and leaves nothing behind on discard or when too large', async () => {
    const payload = Buffer.alloc(3 * 1024 * 1024, 7);
    const staged = await t.platform.blobs.stage(
      Readable.from([payload.subarray(0, 1000), payload.subarray(1000)]),
      10 * 1024 * 1024,
    );
    expect(fs.existsSync(staged.path)).toBe(true);
    const committed = await t.platform.blobs.commit(staged);
    expect(fs.existsSync(staged.path)).toBe(false);
    expect((await t.platform.blobs.get(committed.key)).length).toBe(payload.length);

    const discarded = await t.platform.blobs.stageBytes(new Uint8Array([1, 2, 3]));
    await t.platform.blobs.discard(discarded);
    expect(fs.existsSync(discarded.path)).toBe(false);
    expect(await t.platform.blobs.has(discarded.key)).toBe(false);

    await expect(t.platform.blobs.putStream(Readable.from([payload]), 1000)).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(fs.readdirSync(path.join(t.config.dataDir, 'blobs', 'tmp'))).toEqual([]);
  });

  it('carries a whole envelope: upload over HTTP, self-sign, seal, download the sealed PDF, all from the bucket', async () => {
    const pdf = await makePdf(1);
    const uploaded = await uploadFile(t, owner.token, 'contract.pdf', pdf);
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);

    const { workflow, document, selfRecipient } = await createDraftWorkflow(t, owner, { sequence: 'SELF' });
    const signature = await insertField(t, {
      workflowId: workflow.id,
      documentId: document.id,
      recipientId: selfRecipient!.id,
      fieldType: 'SIGNATURE',
    });
    const signed = await t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
      token: owner.token,
      body: { id: signature.id, image: pngDataUrl(120, 40) },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect((await waitForSeal(t, workflow.id)).sealStatus).toBe('SEALED');
    const [row] = await documentRows(t, workflow.id);
    // Kept over the uploaded document: only the update went to the bucket.
    expect(s3.keys()).toContain(`blobs/${row.sealedBlobKey}.appended`);
    expect(s3.keys()).toContain(`blobs/${document.blobKey}`);

    const download = await t.app.inject({
      method: 'GET',
      url: `/document/v1/download/${workflow.id}?selectedOption=downloadDocument&documentId=${document.id}`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(download.statusCode, download.body.slice(0, 300)).toBe(200);
    // Streamed from the bucket with the stored object's length.
    expect(Number(download.headers['content-length'])).toBe(row.sealedSize);
    expect(download.rawPayload.length).toBe(row.sealedSize);
    const report = await pdfsig(download.rawPayload);
    expect(report.allValid, report.output).toBe(true);
    expect(localBlobs()).toEqual([]);
  });

  it("keeps an organization's logo in the bucket and serves it from there (mails link to it)", async () => {
    const res = await putBranding(t, owner.token, [settings({ primaryColor: '#123456' }), logoPart(pngImage(64, 32))]);
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const branding = await t.request('GET', '/organization/v1/branding', { token: owner.token });
    const logoKey = /\/branding\/v1\/logos\/([0-9a-f]{64})$/.exec(branding.body.logoUrl)?.[1];
    expect(logoKey).toBeTruthy();
    expect(s3.keys()).toContain(`blobs/${logoKey}`);
    const logo = await t.app.inject({ method: 'GET', url: `/branding/v1/logos/${logoKey}` });
    expect(logo.statusCode).toBe(200);
    expect(logo.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    expect(localBlobs()).toEqual([]);
  });
});
