import type { Readable } from 'node:stream';

/**
 * Content-addressed file storage: a blob's key is the hex SHA-256 of its bytes, so storing the same file
 * twice keeps one copy and a key proves the content.
 */
export type BlobStore = {
  /** Stores bytes already in memory; returns the key. */
  put(bytes: Uint8Array): Promise<{ key: string; size: number }>;
  /**
   * Streams into storage while hashing; throws (and keeps nothing) when more than maxBytes arrive.
   * The caller passes `onLimit` to turn the overflow into its own error.
   */
  putStream(stream: Readable, maxBytes: number): Promise<{ key: string; size: number }>;
  get(key: string): Promise<Uint8Array>;
  has(key: string): Promise<boolean>;
};

export class BlobTooLargeError extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`blob exceeds ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}
