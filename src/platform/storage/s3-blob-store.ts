import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client, NotFound, NoSuchKey } from '@aws-sdk/client-s3';
import type { BlobStore, StagedBlob } from './blob-store.ts';
import { assertBlobKey, createScratch, hashedParts } from './scratch.ts';

export type S3Settings = {
  bucket: string;
  /** An S3-compatible endpoint (MinIO, Ceph, a test server); unset: AWS itself. Path-style addressing when set. */
  endpoint?: string;
  region: string;
  /** Tests pass credentials; otherwise the AWS SDK's usual chain (AWS_ACCESS_KEY_ID, profiles, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

/**
 * Blobs as objects `blobs/<sha256>` in an S3-compatible bucket, so several instances share them. Uploads are
 * staged on local disk (parsers and LibreOffice read files), then streamed to the bucket on commit; content
 * already in the bucket is not sent again. Objects are written once and never changed, so a reader sees either
 * nothing or the whole file.
 */
export function createS3BlobStore(settings: S3Settings, scratchDir: string): BlobStore {
  const client = new S3Client({
    region: settings.region,
    // Checksums only where an operation needs them: the default (a CRC32 trailer in aws-chunked encoding for
    // streamed bodies) is not understood by every S3-compatible server, which then stores the chunk framing.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  });
  const scratch = createScratch(scratchDir);
  const objectKey = (key: string) => {
    assertBlobKey(key);
    return `blobs/${key}`;
  };

  async function has(key: string): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
      return true;
    } catch (error) {
      if (error instanceof NotFound || error instanceof NoSuchKey || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw error;
    }
  }

  async function commit(staged: StagedBlob): Promise<{ key: string; size: number }> {
    if (!scratch.owns(staged)) throw new Error('not a staged blob of this store');
    try {
      if (!(await has(staged.key))) {
        await client.send(new PutObjectCommand({
          Bucket: settings.bucket,
          Key: objectKey(staged.key),
          Body: fs.createReadStream(staged.path),
          ContentLength: staged.size,
          ContentType: 'application/octet-stream',
        }));
      }
    } finally {
      await fsp.rm(staged.path, { force: true });
    }
    return { key: staged.key, size: staged.size };
  }

  return {
    stage: scratch.stage,
    stageBytes: scratch.stageBytes,
    discard: scratch.discard,
    commit,
    has,

    async put(bytes) {
      const { parts, sha256: key, size } = hashedParts(bytes);
      if (!(await has(key))) {
        const body = parts.length === 1 ? parts[0] : Buffer.concat(parts);
        await client.send(new PutObjectCommand({ Bucket: settings.bucket, Key: objectKey(key), Body: body, ContentLength: size, ContentType: 'application/octet-stream' }));
      }
      return { key, size };
    },

    async putStream(stream, maxBytes) {
      return commit(await scratch.stage(stream, maxBytes));
    },

    async open(key) {
      const response = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
      if (!(response.Body instanceof Readable)) throw new Error(`blob ${key} has no readable body`);
      return { stream: response.Body, size: Number(response.ContentLength) };
    },

    async get(key) {
      const response = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
      if (!response.Body) throw new Error(`blob ${key} has no body`);
      return new Uint8Array(await response.Body.transformToByteArray());
    },
  };
}
