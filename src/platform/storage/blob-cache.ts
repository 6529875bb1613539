import { Readable } from 'node:stream';
import type { BlobStore } from './blob-store.ts';

export type BlobCacheLimits = { maxEntryBytes: number; maxTotalBytes: number };

/**
 * Up to 512 KB a file (a 1-2 page contract sealed, a page picture, a logo, a signature), 32 MB in all: the files read
 * again and again (every page-image request reads its picture, every mail its logo, a sealed file is downloaded right
 * after it is stored). Larger ones always come from the store.
 */
export const BLOB_CACHE_LIMITS: BlobCacheLimits = { maxEntryBytes: 512 * 1024, maxTotalBytes: 32 * 1024 * 1024 };

/**
 * Small stored files kept in memory in front of a blob store, least recently used first out. Never stale: a key is
 * its content's SHA-256 and blobs are never changed or removed. What was just stored or read is answered without
 * the file system (each read is an open, a stat, a read and a close on the thread pool: 3% of the service's CPU in
 * bench:lifecycle) or, with S3, without a request to the bucket. Callers get their own copy (`new Uint8Array(x)`
 * copies; a Buffer's slice would not): some fill a buffer they read in place (a remote signature's Contents).
 */
export function withBlobCache(store: BlobStore, limits: BlobCacheLimits = BLOB_CACHE_LIMITS): BlobStore {
  // A Map iterates in insertion order: a hit is moved to the end, so the first entry is the least recently used.
  const entries = new Map<string, Uint8Array>();
  let total = 0;

  function remember(key: string, bytes: Uint8Array): void {
    if (bytes.byteLength > limits.maxEntryBytes || entries.has(key)) return;
    entries.set(key, bytes);
    total += bytes.byteLength;
    for (const [oldest, kept] of entries) {
      if (total <= limits.maxTotalBytes) break;
      entries.delete(oldest);
      total -= kept.byteLength;
    }
  }

  function recall(key: string): Uint8Array | undefined {
    const bytes = entries.get(key);
    if (bytes) {
      entries.delete(key);
      entries.set(key, bytes);
    }
    return bytes;
  }

  return {
    ...store,

    async put(bytes) {
      const stored = await store.put(bytes);
      const parts = bytes instanceof Uint8Array ? [bytes] : bytes.parts;
      if (stored.size <= limits.maxEntryBytes) remember(stored.key, Buffer.concat(parts));
      return stored;
    },

    async get(key, into) {
      const hit = recall(key);
      if (hit) {
        const copy = into ? into(hit.byteLength).subarray(0, hit.byteLength) : new Uint8Array(hit.byteLength);
        copy.set(hit);
        return copy;
      }
      const bytes = await store.get(key, into);
      if (bytes.byteLength <= limits.maxEntryBytes) remember(key, new Uint8Array(bytes));
      return bytes;
    },

    async open(key) {
      const hit = recall(key);
      if (hit) return { stream: Readable.from([Buffer.from(hit)]), size: hit.byteLength };
      return store.open(key);
    },

    // has() and getStored() ask the store itself: they serve evidence checks (is the file still there, intact).
  };
}
