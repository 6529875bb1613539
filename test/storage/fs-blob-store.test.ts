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
    const parts = [crypto.randomBytes(70_000), new Uint8Array(0), new TextEncoder().encode('middle'), crypto.randomBytes(3_000_000)].map((b) => new Uint8Array(b));
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

  it('reads a blob back whole, a large one (many times a read call\'s chunk) and an empty one alike; a missing one is an error', async () => {
    for (const size of [5 * 1024 * 1024 + 7, 0]) {
      const bytes = new Uint8Array(crypto.randomBytes(size));
      const { key } = await blobs.put(bytes);
      const read = await blobs.get(key);
      expect(read.byteLength).toBe(size);
      expect(crypto.createHash('sha256').update(read).digest('hex')).toBe(key);
    }
    await expect(blobs.get('0'.repeat(64))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
