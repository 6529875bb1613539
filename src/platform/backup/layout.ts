/**
 * Names shared by the service's snapshot (snapshot.ts) and the operator's command line that turns it into a backup
 * directory and restores one (backup-dir.ts, scripts/admin.ts). docs/operations.md "Backups" describes the layout.
 */

/** Under DATA_DIR: snapshots the service wrote and the command line has not claimed yet. */
export const SNAPSHOTS_DIR = 'backups';
/** In a snapshot and in a backup: what the snapshot is (SnapshotRecord). */
export const SNAPSHOT_FILE = 'snapshot.json';
/** The embedded database's data directory as PGlite dumps it (a gzipped tar). */
export const EMBEDDED_DATABASE_FILE = 'pglite-data.tar.gz';
/** PostgreSQL's database as pg_dump writes it (custom format, for pg_restore). */
export const POSTGRES_DUMP_FILE = 'postgres.dump';
/** The bucket's objects, one `key<TAB>size` a line. */
export const BUCKET_LIST_FILE = 'bucket-objects.txt';
/** A backup directory's manifest, written last: a directory without it is not a finished backup. */
export const MANIFEST_FILE = 'backup.json';

export const BACKUP_FORMAT = 1;

export type SnapshotRecord = {
  name: string;
  takenAt: string;
  database: 'pglite' | 'postgres';
  storage: 'filesystem' | 's3';
  bucket: { name: string; endpoint: string | null } | null;
  /** The embedded database's dump (PGlite only). */
  embeddedDatabase: { file: string; size: number; sha256: string; milliseconds: number } | null;
  /** The bucket's list (S3 only). */
  bucketObjects: { count: number; bytes: number } | null;
  /** Keys the service takes from its environment (JWT_SECRET, SECRETS_KEY) instead of DATA_DIR/keys: names only. */
  keysFromEnvironment: string[];
};

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  /** When the database snapshot was taken: the backup is the service as of then. */
  takenAt: string;
  finishedAt: string;
  database:
    | { kind: 'pglite'; file: string; size: number; sha256: string }
    | { kind: 'postgres'; file: string; size: number; sha256: string; tool: string };
  storage:
    | { kind: 'filesystem'; files: number; bytes: number }
    | { kind: 's3'; bucket: string; endpoint: string | null; listFile: string; objects: number; bytes: number };
  /** Files under keys/, relative. */
  keys: string[];
  /** Keys the service takes from its environment instead of DATA_DIR/keys: back them up with its configuration. */
  notInBackup: string[];
};
