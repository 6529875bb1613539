import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { BlobStore, StagedBlob } from './blob-store.ts';
import { PRIVATE_DIR_MODE } from './data-dir.ts';
import { assertBlobKey, createScratch, hashedParts } from './scratch.ts';
import {
  APPENDED_HEADER_MAX,
  APPENDED_SUFFIX,
  appendedParts,
  concatStreams,
  keepsBase,
  parseAppendedHeader,
} from './appended-blob.ts';

/** Not zero-filled (every byte is read over) and never from the shared pool (a view of it would expose its neighbours). */
function newBuffer(size: number): Uint8Array {
  const slow = Buffer.allocUnsafeSlow(size);
  return new Uint8Array(slow.buffer, slow.byteOffset, size);
}

/** A byte range of an open blob file. */
type Piece = { handle: FileHandle; start: number; size: number };

/**
 * Blobs under DATA_DIR/blobs/ab/abcdef… (or abcdef….appended: the bytes appended to a stored base, appended-blob.ts).
 * New content is written to DATA_DIR/blobs/tmp first and renamed into
 * place (same file system, so the rename is atomic): a reader never sees half a file. Directories are 0700 and
 * files 0600: the blobs are people's contracts.
 */
export function createFsBlobStore(root: string): BlobStore {
  const scratch = createScratch(path.join(root, 'tmp'));
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return path.join(root, key.slice(0, 2), key);
  };

  const stored = (key: string) => fs.existsSync(pathOf(key)) || fs.existsSync(pathOf(key) + APPENDED_SUFFIX);

  /**
   * The open files whose ranges make up `key` in order: the whole file, or (kept over a base) the base's pieces
   * and then the appended bytes. Rejects with ENOENT when the key is not stored.
   */
  async function openPieces(key: string): Promise<Piece[]> {
    // Looked up first (a stat, no thread-pool trip) rather than by a failing open: an exception costs more.
    if (fs.existsSync(pathOf(key)) || !fs.existsSync(pathOf(key) + APPENDED_SUFFIX)) {
      // The whole file, or neither form: the open then rejects with ENOENT.
      const handle = await fsp.open(pathOf(key), 'r');
      try {
        return [{ handle, start: 0, size: (await handle.stat()).size }];
      } catch (error) {
        await handle.close();
        throw error;
      }
    }
    const handle = await fsp.open(pathOf(key) + APPENDED_SUFFIX, 'r');
    try {
      const start = new Uint8Array(APPENDED_HEADER_MAX);
      const { bytesRead } = await handle.read(start, 0, start.length, 0);
      const header = parseAppendedHeader(start.subarray(0, bytesRead), key);
      const size = (await handle.stat()).size - header.headerLength;
      const base = await openPieces(header.baseKey);
      if (base.reduce((n, piece) => n + piece.size, 0) !== header.baseSize) {
        await Promise.all(base.map((piece) => piece.handle.close()));
        throw new Error(
          `blob ${key} is kept over ${header.baseKey}, whose size is not the ${header.baseSize} bytes it was kept over`,
        );
      }
      return [...base, { handle, start: header.headerLength, size }];
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async function commit(staged: StagedBlob): Promise<{ key: string; size: number }> {
    if (!scratch.owns(staged)) throw new Error('not a staged blob of this store');
    const target = pathOf(staged.key);
    if (stored(staged.key)) {
      await fsp.rm(staged.path, { force: true });
    } else {
      await place(staged.path, target);
    }
    return { key: staged.key, size: staged.size };
  }

  /** A scratch file renamed into its place (same file system: atomic, a reader never sees half of it). */
  async function place(from: string, target: string): Promise<void> {
    await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
    await fsp.rename(from, target);
  }

  const store: BlobStore = {
    stage: scratch.stage,
    stageBytes: scratch.stageBytes,
    discard: scratch.discard,
    commit,

    async put(bytes) {
      // Hashed once: the scratch file takes the hash along rather than computing it again.
      const whole = hashedParts(bytes);
      if (stored(whole.sha256)) return { key: whole.sha256, size: whole.size };
      if (keepsBase(whole) && stored(whole.base.key)) {
        // Only the appended bytes are written (appended-blob.ts), renamed into place as the whole file would be.
        const staged = await scratch.stageBytes({ ...whole, parts: appendedParts(whole) });
        await place(staged.path, pathOf(whole.sha256) + APPENDED_SUFFIX);
        return { key: whole.sha256, size: whole.size };
      }
      return commit(await scratch.stageBytes(whole));
    },

    async putStream(stream, maxBytes) {
      return commit(await scratch.stage(stream, maxBytes));
    },

    async get(key, into) {
      // Into one buffer of the whole size, in as few reads as the kernel allows: readFile reads 512 KB per trip
      // through the thread pool (20 MB: 7.5 ms here, read whole: 4 ms). Blobs never change once stored (the key is
      // their SHA-256), so the sizes read first stay true.
      const pieces = await openPieces(key);
      try {
        const size = pieces.reduce((n, piece) => n + piece.size, 0);
        const bytes = into ? into(size).subarray(0, size) : newBuffer(size);
        let at = 0;
        for (const piece of pieces) {
          let filled = 0;
          while (filled < piece.size) {
            const { bytesRead } = await piece.handle.read(
              bytes,
              at + filled,
              piece.size - filled,
              piece.start + filled,
            );
            if (bytesRead === 0) throw new Error(`blob ${key} ended after ${at + filled} of ${size} bytes`);
            filled += bytesRead;
          }
          at += piece.size;
        }
        return bytes;
      } finally {
        await Promise.all(pieces.map((piece) => piece.handle.close()));
      }
    },

    async open(key) {
      // Opened before answering, so a missing blob is an error here, not a stream that fails after the headers.
      const pieces = await openPieces(key);
      const streams: Readable[] = pieces.map((piece) => piece.handle.createReadStream({ start: piece.start }));
      const size = pieces.reduce((n, piece) => n + piece.size, 0);
      return { stream: streams.reduce((whole, next) => concatStreams(whole, next)), size };
    },

    async has(key) {
      return stored(key);
    },

    async ping() {
      // The scratch area lies inside the root: both must take new files.
      await fsp.access(path.join(root, 'tmp'), fs.constants.R_OK | fs.constants.W_OK);
    },

    getStored: (key) => store.get(key),
  };
  return store;
}
