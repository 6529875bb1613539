import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BlobTooLargeError, type BlobStore } from './blob-store.ts';

/** Blobs under DATA_DIR/blobs/ab/abcdef…; written to a temp file and renamed so a reader never sees half a file. */
export function createFsBlobStore(root: string): BlobStore {
  const tmpDir = path.join(root, 'tmp');
  fs.mkdirSync(tmpDir, { recursive: true });
  const pathOf = (key: string) => {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new Error(`invalid blob key ${key}`);
    return path.join(root, key.slice(0, 2), key);
  };

  async function commit(tmpFile: string, key: string) {
    const target = pathOf(key);
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(tmpFile, target);
  }

  return {
    async put(bytes) {
      const key = crypto.createHash('sha256').update(bytes).digest('hex');
      if (!fs.existsSync(pathOf(key))) {
        const tmpFile = path.join(tmpDir, crypto.randomUUID());
        await fsp.writeFile(tmpFile, bytes);
        await commit(tmpFile, key);
      }
      return { key, size: bytes.byteLength };
    },

    async putStream(stream: Readable, maxBytes: number) {
      const tmpFile = path.join(tmpDir, crypto.randomUUID());
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
        await pipeline(stream, meter, fs.createWriteStream(tmpFile));
      } catch (error) {
        await fsp.rm(tmpFile, { force: true });
        throw error;
      }
      const key = hash.digest('hex');
      await commit(tmpFile, key);
      return { key, size };
    },

    async get(key) {
      return new Uint8Array(await fsp.readFile(pathOf(key)));
    },

    async has(key) {
      return fs.existsSync(pathOf(key));
    },
  };
}
