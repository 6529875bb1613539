import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withBlobCache } from '../../src/platform/storage/blob-cache.ts';
import { createFsBlobStore } from '../../src/platform/storage/fs-blob-store.ts';
import type { BlobStore } from '../../src/platform/storage/blob-store.ts';

let dir: string;
let store: BlobStore;
/** The store under the cache, counting the reads that reach it. */
const reads = { get: 0, open: 0 };

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'blob-cache-'));
  const files = createFsBlobStore(path.join(dir, 'blobs'));
  store = {
    ...files,
    get: (key) => {
      reads.get++;
      return files.get(key);
    },
    open: (key) => {
      reads.open++;
      return files.open(key);
    },
  };
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

const random = (size: number) => new Uint8Array(crypto.randomBytes(size));
const text = async (opened: { stream: NodeJS.ReadableStream }) =>
  Buffer.concat(await (opened.stream as import('node:stream').Readable).toArray());

describe('the small-file cache in front of a blob store', () => {
  it('answers what was just stored or read without the store, each caller with its own copy', async () => {
    const blobs = withBlobCache(store, { maxEntryBytes: 1000, maxTotalBytes: 10_000 });
    const bytes = random(800);
    const { key } = await blobs.put(bytes);
    const before = { ...reads };
    const first = await blobs.get(key);
    expect(Buffer.from(first).equals(Buffer.from(bytes))).toBe(true);
    // A caller that fills its buffer in place does not change what the next one reads.
    first.fill(0);
    expect(Buffer.from(await blobs.get(key)).equals(Buffer.from(bytes))).toBe(true);
    const opened = await blobs.open(key);
    expect(opened.size).toBe(800);
    expect((await text(opened)).equals(Buffer.from(bytes))).toBe(true);
    expect(await blobs.has(key)).toBe(true);
    expect(reads).toEqual(before);

    // Stored as parts (a sealed file): cached as the file they make.
    const parts = [random(300), random(200)];
    const whole = Buffer.concat(parts);
    const stored = await blobs.put({
      parts,
      sha256: crypto.createHash('sha256').update(whole).digest('hex'),
      size: whole.length,
    });
    expect((await text(await blobs.open(stored.key))).equals(whole)).toBe(true);
    expect(reads).toEqual(before);

    // Read once from the store (written by another instance, say), then from memory.
    const elsewhere = await store.put(random(500));
    await blobs.get(elsewhere.key);
    await blobs.get(elsewhere.key);
    await blobs.open(elsewhere.key);
    expect(reads).toEqual({ get: before.get + 1, open: before.open });
  });

  it('keeps files up to the entry limit only, and the most recently used within the total', async () => {
    const blobs = withBlobCache(store, { maxEntryBytes: 1000, maxTotalBytes: 2500 });
    const large = await blobs.put(random(1001));
    const before = reads.get;
    await blobs.get(large.key);
    await blobs.get(large.key);
    expect(reads.get).toBe(before + 2);

    const [a, b, c] = [await blobs.put(random(1000)), await blobs.put(random(1000)), await blobs.put(random(400))];
    // a, b and c fit (2,400 bytes); reading a makes b the least recently used, so a fourth file pushes b out.
    await blobs.get(a.key);
    const d = await blobs.put(random(400));
    const counted = reads.get;
    await Promise.all([blobs.get(a.key), blobs.get(c.key), blobs.get(d.key)]);
    expect(reads.get).toBe(counted);
    await blobs.get(b.key);
    expect(reads.get).toBe(counted + 1);
  });

  it('leaves evidence checks to the store: has() and getStored() see a file changed or removed under the cache', async () => {
    const blobs = withBlobCache(store);
    const bytes = random(600);
    const { key } = await blobs.put(bytes);
    const file = path.join(dir, 'blobs', key.slice(0, 2), key);
    await fs.writeFile(file, Buffer.from('tampered'));
    expect(Buffer.from(await blobs.get(key)).equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from(await blobs.getStored(key)).toString()).toBe('tampered');
    await fs.rm(file);
    expect(await blobs.has(key)).toBe(false);
  });

  it('passes misses through: a key that is not stored is still an error', async () => {
    const blobs = withBlobCache(store);
    await expect(blobs.get('0'.repeat(64))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(blobs.open('0'.repeat(64))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await blobs.has('0'.repeat(64))).toBe(false);
  });
});
