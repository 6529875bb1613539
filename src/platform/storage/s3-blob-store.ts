import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { BlobStore, StagedBlob } from './blob-store.ts';
import { assertBlobKey, createScratch, hashedParts } from './scratch.ts';
import { APPENDED_SUFFIX, appendedParts, concatStreams, keepsBase, parseAppendedHeader } from './appended-blob.ts';

/** A 404 from the bucket: the SDK's NotFound or NoSuchKey (each a 404), or any other error it answers with that status. */
function isMissing(error: unknown): boolean {
  const named = (error as { name?: string }).name;
  return (
    named === 'NotFound' ||
    named === 'NoSuchKey' ||
    (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404
  );
}

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
export async function createS3BlobStore(settings: S3Settings, scratchDir: string): Promise<BlobStore> {
  // Loaded only when a bucket is configured: the SDK is ~6 MB of heap (measured) that every garbage collection of a
  // process storing on disk would otherwise mark.
  const { GetObjectCommand, HeadBucketCommand, HeadObjectCommand, PutObjectCommand, S3Client } = await import(
    '@aws-sdk/client-s3'
  );
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

  async function exists(objectName: string): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket: settings.bucket, Key: objectName }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async function has(key: string): Promise<boolean> {
    return (await exists(objectKey(key))) || exists(objectKey(key) + APPENDED_SUFFIX);
  }

  /**
   * The object of `key` as a stream with its size; kept over a base (appended-blob.ts), the base's stream followed
   * by the appended bytes. Rejects before any byte when the key is not stored.
   */
  async function openStream(key: string): Promise<{ stream: Readable; size: number }> {
    try {
      const response = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) }));
      if (!(response.Body instanceof Readable)) throw new Error(`blob ${key} has no readable body`);
      return { stream: response.Body, size: Number(response.ContentLength) };
    } catch (error) {
      if (!isMissing(error)) throw error;
      let appended: Uint8Array;
      try {
        const response = await client.send(
          new GetObjectCommand({ Bucket: settings.bucket, Key: objectKey(key) + APPENDED_SUFFIX }),
        );
        if (!response.Body) throw new Error(`blob ${key} has no body`);
        appended = await response.Body.transformToByteArray();
      } catch (other) {
        throw isMissing(other) ? error : other;
      }
      const header = parseAppendedHeader(appended, key);
      const base = await openStream(header.baseKey);
      if (base.size !== header.baseSize) {
        base.stream.destroy();
        throw new Error(
          `blob ${key} is kept over ${header.baseKey}, whose size is not the ${header.baseSize} bytes it was kept over`,
        );
      }
      const rest = appended.subarray(header.headerLength);
      return {
        stream: concatStreams(base.stream, Readable.from([Buffer.from(rest.buffer, rest.byteOffset, rest.byteLength)])),
        size: base.size + rest.byteLength,
      };
    }
  }

  async function get(key: string, into?: (size: number) => Uint8Array): Promise<Uint8Array> {
    const { stream, size } = await openStream(key);
    const bytes = into ? into(size).subarray(0, size) : new Uint8Array(size);
    let at = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (at + chunk.length > size) throw new Error(`blob ${key} is longer than its ${size} bytes`);
      bytes.set(chunk, at);
      at += chunk.length;
    }
    if (at !== size) throw new Error(`blob ${key} ended after ${at} of ${size} bytes`);
    return bytes;
  }

  async function commit(staged: StagedBlob): Promise<{ key: string; size: number }> {
    if (!scratch.owns(staged)) throw new Error('not a staged blob of this store');
    try {
      if (!(await has(staged.key))) {
        await client.send(
          new PutObjectCommand({
            Bucket: settings.bucket,
            Key: objectKey(staged.key),
            Body: fs.createReadStream(staged.path),
            ContentLength: staged.size,
            ContentType: 'application/octet-stream',
          }),
        );
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

    async ping() {
      await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
    },

    async put(bytes) {
      const whole = hashedParts(bytes);
      const { sha256: key, size } = whole;
      if (await has(key)) return { key, size };
      // Over its base when that is in the bucket: only the appended bytes travel (appended-blob.ts).
      const overBase = keepsBase(whole) && (await has(whole.base.key));
      const parts = overBase ? appendedParts(whole) : whole.parts;
      const body = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      await client.send(
        new PutObjectCommand({
          Bucket: settings.bucket,
          Key: objectKey(key) + (overBase ? APPENDED_SUFFIX : ''),
          Body: body,
          ContentLength: body.byteLength,
          ContentType: 'application/octet-stream',
        }),
      );
      return { key, size };
    },

    async putStream(stream, maxBytes) {
      return commit(await scratch.stage(stream, maxBytes));
    },

    open: openStream,
    get,
    getStored: (key) => get(key),
  };
}
