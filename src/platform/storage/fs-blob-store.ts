import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore, StagedBlob } from './blob-store.ts';
import { PRIVATE_DIR_MODE } from './data-dir.ts';
import { assertBlobKey, createScratch, hashedParts } from './scratch.ts';

/**
 * Blobs under DATA_DIR/blobs/ab/abcdef…. New content is written to DATA_DIR/blobs/tmp first and renamed into
 * place (same file system, so the rename is atomic): a reader never sees half a file. Directories are 0700 and
 * files 0600: the blobs are people's contracts.
 */
export function createFsBlobStore(root: string): BlobStore {
  const scratch = createScratch(path.join(root, 'tmp'));
  const pathOf = (key: string) => {
    assertBlobKey(key);
    return path.join(root, key.slice(0, 2), key);
  };

  async function commit(staged: StagedBlob): Promise<{ key: string; size: number }> {
    if (!scratch.owns(staged)) throw new Error('not a staged blob of this store');
    const target = pathOf(staged.key);
    if (fs.existsSync(target)) {
      await fsp.rm(staged.path, { force: true });
    } else {
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: PRIVATE_DIR_MODE });
      await fsp.rename(staged.path, target);
    }
    return { key: staged.key, size: staged.size };
  }

  return {
    stage: scratch.stage,
    stageBytes: scratch.stageBytes,
    discard: scratch.discard,
    commit,

    async put(bytes) {
      // Hashed once: the scratch file takes the hash along rather than computing it again.
      const whole = hashedParts(bytes);
      if (fs.existsSync(pathOf(whole.sha256))) return { key: whole.sha256, size: whole.size };
      return commit(await scratch.stageBytes(whole));
    },

    async putStream(stream, maxBytes) {
      return commit(await scratch.stage(stream, maxBytes));
    },

    async get(key) {
      // A view of the buffer read, not a copy of it: a 20 MB sealed file is allocated once, not twice.
      const bytes = await fsp.readFile(pathOf(key));
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },

    async open(key) {
      // Opened before answering, so a missing blob is an error here, not a stream that fails after the headers.
      const handle = await fsp.open(pathOf(key), 'r');
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), size };
    },

    async has(key) {
      return fs.existsSync(pathOf(key));
    },
  };
}
