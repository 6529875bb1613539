import type { Readable } from 'node:stream';

/**
 * A file received but not yet stored: it sits in the store's scratch area until `commit` makes it readable
 * by key, or `discard` removes it. Uploads are staged, validated, and committed only once the request is
 * accepted, so a rejected request leaves nothing behind.
 */
export type StagedBlob = {
  /** The key the blob will have once committed (hex SHA-256 of its bytes). */
  key: string;
  size: number;
  /** A local file holding the bytes until commit or discard, for parsers and converters that read files. */
  path: string;
};

/**
 * Content-addressed file storage: a blob's key is the hex SHA-256 of its bytes, so storing the same file
 * twice keeps one copy and a key proves the content.
 */
export type BlobStore = {
  /** Resolves once the storage answers (the directory is writable, or the bucket exists and is reachable). */
  ping(): Promise<void>;
  /**
   * Stores bytes already in memory; returns the key. Parts with their SHA-256 already known (an IncrementalPdf
   * hashed them as they grew) are stored as they are: neither joined nor hashed again; over their base when they
   * name a stored one (only the appended bytes are written).
   */
  put(bytes: Uint8Array | HashedParts): Promise<{ key: string; size: number }>;
  /** Streams into storage while hashing; throws BlobTooLargeError (and keeps nothing) when more than maxBytes arrive. */
  putStream(stream: Readable, maxBytes: number): Promise<{ key: string; size: number }>;
  /**
   * Streams into the scratch area while hashing, holding at most one chunk in memory. Throws BlobTooLargeError
   * (and keeps nothing) when more than maxBytes arrive.
   */
  stage(stream: Readable, maxBytes: number): Promise<StagedBlob>;
  stageBytes(bytes: Uint8Array): Promise<StagedBlob>;
  /** Makes a staged blob readable by its key. Committing content that is already stored keeps the one copy. */
  commit(staged: StagedBlob): Promise<{ key: string; size: number }>;
  /** Removes a staged blob; harmless after commit or a previous discard. */
  discard(staged: StagedBlob): Promise<void>;
  /**
   * The stored bytes in one buffer. `into`: where to read them, a buffer of at least `size` bytes the caller owns and
   * reuses (read-buffers.ts); the answer is then a view of it.
   */
  get(key: string, into?: (size: number) => Uint8Array): Promise<Uint8Array>;
  /** The bytes as the storage holds them now, never from a cache in front of it (blob-cache.ts): for evidence checks. */
  getStored(key: string): Promise<Uint8Array>;
  /**
   * The stored bytes as a stream and their size, for answers that pass a file through (downloads): memory stays at
   * a chunk whatever the file's size. Rejects (before any byte) when the key is not stored.
   */
  open(key: string): Promise<{ stream: Readable; size: number }>;
  has(key: string): Promise<boolean>;
};

/**
 * A file as consecutive parts, with the hex SHA-256 and size of the whole, computed by whoever holds the parts.
 * `base`: the first part is exactly the stored blob of that key (an update appended to a stored PDF), so a store may
 * keep only the rest and point at it (appended-blob.ts).
 */
export type HashedParts = { parts: Uint8Array[]; sha256: string; size: number; base?: { key: string; size: number } };

export class BlobTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`blob exceeds ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}
