import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, type HashedParts, type StagedBlob } from './blob-store.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './data-dir.ts';

/**
 * The local scratch area every blob store stages into: a received file is written here while it is hashed
 * (holding one chunk in memory), parsers and converters read it here, and the store then commits it (a rename
 * on disk, an upload to a bucket) or discards it.
 */
export function createScratch(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const scratchFile = () => path.join(dir, crypto.randomUUID());

  return {
    dir,

    owns(staged: StagedBlob): boolean {
      return path.dirname(staged.path) === dir;
    },

    async stage(stream: Readable, maxBytes: number): Promise<StagedBlob> {
      const file = scratchFile();
      const hash = crypto.createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          if (size > maxBytes) return callback(new BlobTooLargeError(maxBytes));
          hash.update(chunk);
          callback(null, chunk);
        },
      });
      try {
        await pipeline(stream, meter, fs.createWriteStream(file, { mode: PRIVATE_FILE_MODE }));
      } catch (error) {
        await fsp.rm(file, { force: true });
        throw error;
      }
      return { key: hash.digest('hex'), size, path: file };
    },

    async stageBytes(bytes: Uint8Array | HashedParts): Promise<StagedBlob> {
      const file = scratchFile();
      const { parts, sha256, size } = hashedParts(bytes);
      try {
        await writeParts(file, parts);
      } catch (error) {
        await fsp.rm(file, { force: true });
        throw error;
      }
      return { key: sha256, size, path: file };
    },

    async discard(staged: StagedBlob): Promise<void> {
      if (path.dirname(staged.path) !== dir) return;
      await fsp.rm(staged.path, { force: true });
    },
  };
}

export type Scratch = ReturnType<typeof createScratch>;

/**
 * Writes the parts to a new file in order with vectored writes, as few as the kernel allows (usually one). Measured,
 * not reasoned: writing a 20 MB sealed file's parts took 4.9 ms this way against 7.6 ms with writeFile (median of 15,
 * this machine). A short write resumes where it stopped.
 */
async function writeParts(file: string, parts: Uint8Array[]): Promise<void> {
  const handle = await fsp.open(file, 'wx', PRIVATE_FILE_MODE);
  try {
    let pending = parts.filter((part) => part.byteLength > 0);
    while (pending.length > 0) {
      let { bytesWritten } = await handle.writev(pending);
      const rest: Uint8Array[] = [];
      for (const part of pending) {
        if (bytesWritten >= part.byteLength) bytesWritten -= part.byteLength;
        else {
          rest.push(bytesWritten > 0 ? part.subarray(bytesWritten) : part);
          bytesWritten = 0;
        }
      }
      pending = rest;
    }
  } finally {
    await handle.close();
  }
}

/** Bytes as parts with their hash (computed here for plain bytes). */
export function hashedParts(bytes: Uint8Array | HashedParts): HashedParts {
  return bytes instanceof Uint8Array ? { parts: [bytes], sha256: sha256Hex(bytes), size: bytes.byteLength } : bytes;
}

export function sha256Hex(bytes: Uint8Array): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

export function assertBlobKey(key: string): void {
  if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`invalid blob key ${key}`);
}
