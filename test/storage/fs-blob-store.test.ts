import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsBlobStore } from '../../src/platform/storage/fs-blob-store.ts';
import type { BlobStore } from '../../src/platform/storage/blob-store.ts';

let dir: string;
let blobs: BlobStore;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fs-blobs-'));
  blobs = createFsBlobStore(path.join(dir, 'blobs'));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('file-system blob store', () => {
  it('keeps parts with a known hash as the one file they make, under that hash, and dedupes against plain bytes', async () => {
    const parts = [
      crypto.randomBytes(70_000),
      new Uint8Array(0),
      new TextEncoder().encode('middle'),
      crypto.randomBytes(3_000_000),
    ].map((b) => new Uint8Array(b));
    const whole = Buffer.concat(parts);
    const sha256 = crypto.createHash('sha256').update(whole).digest('hex');
    const stored = await blobs.put({ parts, sha256, size: whole.length });
    expect(stored).toEqual({ key: sha256, size: whole.length });
    expect(Buffer.from(await blobs.get(sha256)).equals(whole)).toBe(true);
    expect(await blobs.put(new Uint8Array(whole))).toEqual(stored);
    // Nothing left in the scratch area.
    expect(await fs.readdir(path.join(dir, 'blobs', 'tmp')).catch(() => [])).toEqual([]);
  });

  it('stores plain bytes under their SHA-256', async () => {
    const bytes = new Uint8Array(crypto.randomBytes(1000));
    const stored = await blobs.put(bytes);
    expect(stored.key).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
    expect(Buffer.from(await blobs.get(stored.key)).equals(Buffer.from(bytes))).toBe(true);
  });

  it("reads a blob back whole, a large one (many times a read call's chunk) and an empty one alike; a missing one is an error", async () => {
    for (const size of [5 * 1024 * 1024 + 7, 0]) {
      const bytes = new Uint8Array(crypto.randomBytes(size));
      const { key } = await blobs.put(bytes);
      const read = await blobs.get(key);
      expect(read.byteLength).toBe(size);
      expect(crypto.createHash('sha256').update(read).digest('hex')).toBe(key);
    }
    await expect(blobs.get('0'.repeat(64))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps parts that name their stored base as the appended bytes only, and reads them back whole (get, open, has), over a chain of bases', async () => {
    const original = new Uint8Array(crypto.randomBytes(2_000_000));
    const base = await blobs.put(original);
    const update = new Uint8Array(crypto.randomBytes(5_000));
    const once = hashed([original, new Uint8Array(0), update], base);
    expect(await blobs.put(once)).toEqual({ key: once.sha256, size: original.length + update.length });
    // On disk: no second copy of the original, only the header and the update under <key>.appended.
    const file = path.join(dir, 'blobs', once.sha256.slice(0, 2), once.sha256);
    expect(await fs.stat(file).catch(() => null)).toBeNull();
    const kept = await fs.stat(`${file}.appended`);
    expect(kept.size).toBeLessThan(update.length + 100);
    expect(kept.mode & 0o777).toBe(0o600);
    const whole = Buffer.concat([original, update]);
    expect(Buffer.from(await blobs.get(once.sha256)).equals(whole)).toBe(true);
    expect(await blobs.has(once.sha256)).toBe(true);
    const opened = await blobs.open(once.sha256);
    expect(opened.size).toBe(whole.length);
    expect(Buffer.concat(await opened.stream.toArray()).equals(whole)).toBe(true);

    // A further update over that one (a second signer's revision, then the seal): three pieces, read as one file.
    const more = new Uint8Array(crypto.randomBytes(700));
    const twice = hashed([whole, more], { key: once.sha256, size: whole.length });
    await blobs.put(twice);
    const all = Buffer.concat([whole, more]);
    expect(Buffer.from(await blobs.get(twice.sha256)).equals(all)).toBe(true);
    const reopened = await blobs.open(twice.sha256);
    expect(reopened.size).toBe(all.length);
    expect(
      crypto
        .createHash('sha256')
        .update(Buffer.concat(await reopened.stream.toArray()))
        .digest('hex'),
    ).toBe(twice.sha256);
    // The same content again, as plain bytes or parts: nothing more is written.
    const before = await fs.readdir(path.join(dir, 'blobs', twice.sha256.slice(0, 2)));
    expect(await blobs.put(new Uint8Array(all))).toEqual({ key: twice.sha256, size: all.length });
    expect(await fs.readdir(path.join(dir, 'blobs', twice.sha256.slice(0, 2)))).toEqual(before);
    expect(await fs.readdir(path.join(dir, 'blobs', 'tmp'))).toEqual([]);
  });

  it('stores parts whole when their base is not stored or is not their first part', async () => {
    const original = new Uint8Array(crypto.randomBytes(10_000));
    const update = new Uint8Array(crypto.randomBytes(100));
    const absent = hashed([original, update], {
      key: crypto.createHash('sha256').update(original).digest('hex'),
      size: original.length,
    });
    await blobs.put(absent);
    expect((await fs.stat(path.join(dir, 'blobs', absent.sha256.slice(0, 2), absent.sha256))).size).toBe(
      original.length + update.length,
    );

    const base = await blobs.put(original);
    const shifted = hashed([original.subarray(1), update], base);
    await blobs.put(shifted);
    expect((await fs.stat(path.join(dir, 'blobs', shifted.sha256.slice(0, 2), shifted.sha256))).size).toBe(
      original.length - 1 + update.length,
    );
    expect(Buffer.from(await blobs.get(shifted.sha256)).equals(Buffer.concat([original.subarray(1), update]))).toBe(
      true,
    );
  });

  it('refuses to read an appended blob whose header is damaged or whose base has another size, before any byte', async () => {
    const original = new Uint8Array(crypto.randomBytes(3_000));
    const base = await blobs.put(original);
    const parts = hashed([original, new Uint8Array(crypto.randomBytes(50))], base);
    await blobs.put(parts);
    const file = path.join(dir, 'blobs', parts.sha256.slice(0, 2), `${parts.sha256}.appended`);
    const kept = await fs.readFile(file);
    await fs.writeFile(file, Buffer.concat([Buffer.from('garbage'), kept]));
    await expect(blobs.get(parts.sha256)).rejects.toThrow(/header is unreadable/);
    await expect(blobs.open(parts.sha256)).rejects.toThrow(/header is unreadable/);
    await fs.writeFile(
      file,
      Buffer.from(kept.toString('latin1').replace(` ${original.length}\n`, ` ${original.length + 1}\n`), 'latin1'),
    );
    await expect(blobs.get(parts.sha256)).rejects.toThrow(/whose size is not/);
    await expect(blobs.open(parts.sha256)).rejects.toThrow(/whose size is not/);
  });
});

/** Parts with the SHA-256 of their whole, naming `base` as their first part. */
function hashed(parts: Uint8Array[], base: { key: string; size: number }) {
  const hash = crypto.createHash('sha256');
  for (const part of parts) hash.update(part);
  return { parts, sha256: hash.digest('hex'), size: parts.reduce((n, p) => n + p.length, 0), base };
}
