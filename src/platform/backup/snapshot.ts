import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Database } from '../db/client.ts';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/data-dir.ts';
import {
  BUCKET_LIST_FILE,
  EMBEDDED_DATABASE_FILE,
  SNAPSHOT_FILE,
  SNAPSHOTS_DIR,
  type SnapshotRecord,
} from './layout.ts';

/** A snapshot nobody claimed (a backup that stopped half-way) is removed by the next snapshot after this long. */
export const SNAPSHOT_UNCLAIMED_MS = 60 * 60 * 1000;
/** Unclaimed snapshots at most: each holds a copy of the database on the service's own disk. */
export const SNAPSHOTS_KEPT = 3;

export class TooManySnapshotsError extends Error {}

/** What listing the bucket needs: its name, endpoint and region (credentials from the AWS SDK's usual chain). */
export type BucketSettings = {
  bucket: string;
  endpoint?: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

/**
 * The part of a backup only the running service can take (docs/operations.md "Backups"), written under
 * DATA_DIR/backups/<name>/ (0700, files 0600), never sent over HTTP: the backup holds what the database keeps
 * (password hashes, wrapped keys, encrypted credentials) and the CLI that claims it reads the keys beside it.
 *
 * - The embedded database: PGlite's own dump of its data directory (`dumpDataDir`, as its `clone()` does), taken
 *   inside a transaction of the one session after a CHECKPOINT, so no other transaction is open at that point: the
 *   dump is the database as of that commit order, every earlier commit in it and none half-applied.
 * - PostgreSQL: nothing of the database (the CLI runs pg_dump, whose own snapshot is consistent).
 * - A bucket: the list of its objects, taken after the database snapshot; blobs are content-addressed and never
 *   deleted, so the list holds every file a snapshot taken before it references.
 */
export async function takeSnapshot(options: {
  database: Database;
  dataDir: string;
  bucket?: BucketSettings;
  /** Names of the keys set in the environment rather than generated into DATA_DIR/keys. */
  keysFromEnvironment?: string[];
  now?: Date;
}): Promise<SnapshotRecord> {
  const root = path.join(options.dataDir, SNAPSHOTS_DIR);
  fs.mkdirSync(root, { recursive: true, mode: PRIVATE_DIR_MODE });
  const now = options.now ?? new Date();
  await pruneUnclaimed(root, now);
  const waiting = (await fsp.readdir(root)).filter((name) => !name.startsWith('.'));
  if (waiting.length >= SNAPSHOTS_KEPT) throw new TooManySnapshotsError(`${waiting.length} snapshots not yet claimed`);

  const name = `${now.toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(4).toString('hex')}`;
  // Written under a dot name and renamed when whole: a claimed snapshot is never a partial one.
  const partial = path.join(root, `.${name}`);
  fs.mkdirSync(partial, { mode: PRIVATE_DIR_MODE });
  try {
    const record: SnapshotRecord = {
      name,
      takenAt: now.toISOString(),
      database: options.database.kind,
      storage: options.bucket ? 's3' : 'filesystem',
      bucket: options.bucket ? { name: options.bucket.bucket, endpoint: options.bucket.endpoint ?? null } : null,
      embeddedDatabase: null,
      bucketObjects: null,
      keysFromEnvironment: options.keysFromEnvironment ?? [],
    };
    if (options.database.kind === 'pglite') {
      const started = performance.now();
      const dump = await dumpEmbeddedDatabase(options.database);
      const held = performance.now() - started;
      // Compressed after the database is free again, in zlib's threads: the dump is mostly empty pages.
      const source = Readable.fromWeb(dump.stream() as import('node:stream/web').ReadableStream).pipe(
        zlib.createGzip(),
      );
      const written = await writePrivate(path.join(partial, EMBEDDED_DATABASE_FILE), source);
      record.embeddedDatabase = { ...written, milliseconds: Math.round(held) };
    }
    if (options.bucket) {
      const objects = await listBucket(options.bucket);
      const text = objects.map((o) => `${o.key}\t${o.size}\n`).join('');
      await writePrivate(path.join(partial, BUCKET_LIST_FILE), Readable.from([text]));
      record.bucketObjects = { count: objects.length, bytes: objects.reduce((sum, o) => sum + o.size, 0) };
    }
    fs.writeFileSync(path.join(partial, SNAPSHOT_FILE), JSON.stringify(record, null, 2), { mode: PRIVATE_FILE_MODE });
    fs.renameSync(partial, path.join(root, name));
    return record;
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/** The PGlite instance behind Drizzle: `$client` is Drizzle's public handle on the driver it was given. */
type EmbeddedClient = {
  transaction<T>(run: (tx: { exec(text: string): Promise<unknown> }) => Promise<T>): Promise<T>;
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<Blob>;
};

async function dumpEmbeddedDatabase(database: Database): Promise<Blob> {
  const client = (database.db as unknown as { $client?: Partial<EmbeddedClient> }).$client;
  if (typeof client?.dumpDataDir !== 'function' || typeof client.transaction !== 'function')
    throw new Error('the embedded database does not offer a dump of its data directory');
  const embedded = client as EmbeddedClient;
  // A transaction of the one session holds PGlite's transaction lock: every other transaction has committed or
  // rolled back, and statements outside one wait for it. CHECKPOINT writes every page out, so the dump needs no WAL
  // replay of much when it is opened. Uncompressed: compressing inside the lock held the database 0.7-1.3 s instead of
  // 0.15-0.32 s for a freshly migrated database (measured, docs/operations.md "Backups").
  return embedded.transaction(async (tx) => {
    await tx.exec('checkpoint');
    return embedded.dumpDataDir('none');
  });
}

async function writePrivate(file: string, body: ReadableStream<Uint8Array> | Readable) {
  const hash = crypto.createHash('sha256');
  let size = 0;
  const source = body instanceof Readable ? body : Readable.fromWeb(body as import('node:stream/web').ReadableStream);
  source.on('data', (chunk: Buffer | string) => {
    hash.update(chunk);
    size += Buffer.byteLength(chunk);
  });
  await pipeline(source, fs.createWriteStream(file, { mode: PRIVATE_FILE_MODE, flags: 'wx' }));
  return { file: path.basename(file), size, sha256: hash.digest('hex') };
}

async function pruneUnclaimed(root: string, now: Date) {
  for (const entry of await fsp.readdir(root)) {
    const full = path.join(root, entry);
    const stat = await fsp.stat(full).catch(() => null);
    if (stat && now.getTime() - stat.mtimeMs > SNAPSHOT_UNCLAIMED_MS)
      await fsp.rm(full, { recursive: true, force: true });
  }
}

/** Every object of the bucket (the store keeps blobs as `blobs/<sha256>` and `blobs/<sha256>.appended`). */
async function listBucket(settings: BucketSettings): Promise<{ key: string; size: number }[]> {
  // Loaded only when a bucket is configured, as the blob store does.
  const { ListObjectsV2Command, S3Client } = await import('@aws-sdk/client-s3');
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint, forcePathStyle: true } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  });
  const objects: { key: string; size: number }[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: settings.bucket, Prefix: 'blobs/', ContinuationToken: token }),
      );
      for (const item of page.Contents ?? [])
        if (item.Key) objects.push({ key: item.Key, size: Number(item.Size ?? 0) });
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    client.destroy();
  }
  return objects;
}
