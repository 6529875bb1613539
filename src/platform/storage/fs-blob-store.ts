import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, type BlobStore, type StagedBlob } from './blob-store.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './data-dir.ts';

/**
 * Blobs under DATA_DIR/blobs/ab/abcdef…. New content is written to DATA_DIR/blobs/tmp first and renamed into
 * place (same file system, so the rename is atomic): a reader never sees half a file. Directories are 0700 and
 * files 0600: the blobs are people's contracts.
 */
export function createFsBlobStore(root: string): BlobStore {
  const tmpDir = path.join(root, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const pathOf = (key: string) => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`invalid blob key ${key}`);
    return path.join(root, key.slice(0, 2), key);
  };
  const scratchFile = () => path.join(tmpDir, crypto.randomUUID());

  async function stage(stream: Readable, maxBytes: number): Promise<StagedBlob> {
    const tmpFile = scratchFile();
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
      await pipeline(stream, meter, fs.createWriteStream(tmpFile, { mode: PRIVATE_FILE_MODE }));
    } catch (error) {
      await fsp.rm(tmpFile, { force: true });
      throw error;
    }
    return { key: hash.digest('hex'), size, path: tmpFile };
  }

  async function stageBytes(bytes: Uint8Array): Promise<StagedBlob> {
    const tmpFile = scratchFile();
    await fsp.writeFile(tmpFile, bytes, { mode: PRIVATE_FILE_MODE });
    return { key: crypto.createHash('sha256').update(bytes).digest('hex'), size: bytes.byteLength, path: tmpFile };
  }

  async function commit(staged: StagedBlob): Promise<{ key: string; size: number }> {
    if (path.dirname(staged.path) !== tmpDir) throw new Error('not a staged blob of this store');
    const target = pathOf(staged.key);
    if (fs.existsSync(target)) {
      await fsp.rm(staged.path, { force: true });
    } else {
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      await fsp.rename(staged.path, target);
    }
    return { key: staged.key, size: staged.size };
  }

  async function discard(staged: StagedBlob): Promise<void> {
    if (path.dirname(staged.path) !== tmpDir) return;
    await fsp.rm(staged.path, { force: true });
  }

  return {
    stage,
    stageBytes,
    commit,
    discard,

    async put(bytes) {
      const key = crypto.createHash('sha256').update(bytes).digest('hex');
      if (fs.existsSync(pathOf(key))) return { key, size: bytes.byteLength };
      return commit(await stageBytes(bytes));
    },

    async putStream(stream, maxBytes) {
      return commit(await stage(stream, maxBytes));
    },

    async get(key) {
      return new Uint8Array(await fsp.readFile(pathOf(key)));
    },

    async has(key) {
      return fs.existsSync(pathOf(key));
    },
  };
}
