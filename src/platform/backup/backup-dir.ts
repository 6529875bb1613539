import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, restrictDataDir } from '../storage/data-dir.ts';
import {
  BACKUP_FORMAT,
  BUCKET_LIST_FILE,
  EMBEDDED_DATABASE_FILE,
  MANIFEST_FILE,
  POSTGRES_DUMP_FILE,
  SNAPSHOT_FILE,
  SNAPSHOTS_DIR,
  type BackupManifest,
  type SnapshotRecord,
} from './layout.ts';

/**
 * The operator's side of a backup (docs/operations.md "Backups"): `npm run admin -- backup <dir>` asks the running
 * service for a snapshot (snapshot.ts), then, on the service's host and with its DATA_DIR, turns it into a backup
 * directory; `restore <dir>` writes one back into an empty DATA_DIR (and an empty PostgreSQL database) while no
 * service runs on it. Everything is written owner-only: the backup holds the platform's private keys.
 */
export class BackupError extends Error {}

export type BackupResult = { manifest: BackupManifest; warnings: string[] };

/** After the service wrote snapshot `name` under DATA_DIR/backups: the backup directory, its manifest written last. */
export async function writeBackup(options: {
  dataDir: string;
  target: string;
  snapshot: string;
  databaseUrl?: string;
}): Promise<BackupResult> {
  const { dataDir, target } = options;
  const snapshotDir = path.join(dataDir, SNAPSHOTS_DIR, options.snapshot);
  if (!fs.existsSync(path.join(snapshotDir, SNAPSHOT_FILE)))
    throw new BackupError(
      `the service wrote its snapshot into its DATA_DIR, but ${snapshotDir} does not exist: DATA_DIR here (${dataDir}) is not the service's. ` +
        "Run the backup on the service's host, as its user, with DATA_DIR set as the service has it.",
    );
  const record = JSON.parse(fs.readFileSync(path.join(snapshotDir, SNAPSHOT_FILE), 'utf8')) as SnapshotRecord;
  emptyDirectory(target, 'the backup directory');
  const warnings: string[] = [];

  let database: BackupManifest['database'];
  if (record.database === 'pglite') {
    const dump = record.embeddedDatabase!;
    await move(path.join(snapshotDir, dump.file), path.join(target, EMBEDDED_DATABASE_FILE));
    database = { kind: 'pglite', file: EMBEDDED_DATABASE_FILE, size: dump.size, sha256: dump.sha256 };
  } else {
    if (!options.databaseUrl)
      throw new BackupError(
        'the service runs on PostgreSQL: set DATABASE_URL to its database so that pg_dump can read it',
      );
    const file = path.join(target, POSTGRES_DUMP_FILE);
    const tool = await run(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`],
      options.databaseUrl,
    );
    if (tool.missing)
      throw new BackupError(
        `pg_dump is not installed here (PostgreSQL's client programs): install it (Debian: postgresql-client), or run ` +
          `"pg_dump --format=custom --file=${POSTGRES_DUMP_FILE} <DATABASE_URL>" elsewhere before the rest of the backup.`,
      );
    if (tool.code !== 0) throw new BackupError(`pg_dump failed (exit ${tool.code}): ${tool.stderr.trim()}`);
    fs.chmodSync(file, PRIVATE_FILE_MODE);
    database = {
      kind: 'postgres',
      file: POSTGRES_DUMP_FILE,
      ...(await digest(file)),
      tool: (await version('pg_dump')) ?? 'pg_dump',
    };
  }

  // Keys and files after the database: keys are created once and kept, blobs are content-addressed, immutable and
  // never deleted, so what is copied now holds everything the snapshot refers to.
  const keys = copyTree(path.join(dataDir, 'keys'), path.join(target, 'keys'));
  let storage: BackupManifest['storage'];
  if (record.storage === 'filesystem') {
    const blobs = copyTree(path.join(dataDir, 'blobs'), path.join(target, 'blobs'), (relative) => relative !== 'tmp');
    storage = { kind: 'filesystem', files: blobs.length, bytes: blobs.reduce((sum, f) => sum + f.size, 0) };
  } else {
    await move(path.join(snapshotDir, BUCKET_LIST_FILE), path.join(target, BUCKET_LIST_FILE));
    storage = {
      kind: 's3',
      bucket: record.bucket!.name,
      endpoint: record.bucket!.endpoint,
      listFile: BUCKET_LIST_FILE,
      objects: record.bucketObjects!.count,
      bytes: record.bucketObjects!.bytes,
    };
    warnings.push(
      `the files stay in bucket ${record.bucket!.name}: ${BUCKET_LIST_FILE} lists its ${storage.objects} objects; keep the bucket versioned or copied (they are never changed or deleted).`,
    );
  }
  if (record.keysFromEnvironment.length > 0)
    warnings.push(
      `${record.keysFromEnvironment.join(' and ')} come from the service's environment: back them up with its configuration.`,
    );

  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    takenAt: record.takenAt,
    finishedAt: new Date().toISOString(),
    database,
    storage,
    keys: keys.map((f) => f.relative),
    notInBackup: record.keysFromEnvironment,
  };
  fs.writeFileSync(path.join(target, SNAPSHOT_FILE), JSON.stringify(record, null, 2), { mode: PRIVATE_FILE_MODE });
  restrictDataDir(target);
  fs.writeFileSync(path.join(target, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, {
    mode: PRIVATE_FILE_MODE,
  });
  fs.rmSync(snapshotDir, { recursive: true, force: true });
  return { manifest, warnings };
}

/**
 * Writes backup `source` into DATA_DIR, which must be empty or absent (and, for PostgreSQL, into the empty database
 * of DATABASE_URL). The files go into a directory beside DATA_DIR that becomes DATA_DIR only when all is written.
 */
export async function restoreBackup(options: {
  source: string;
  dataDir: string;
  databaseUrl?: string;
}): Promise<BackupResult> {
  const { source, dataDir } = options;
  const manifestFile = path.join(source, MANIFEST_FILE);
  if (!fs.existsSync(manifestFile))
    throw new BackupError(`${source} holds no ${MANIFEST_FILE}: not a finished backup (a backup writes it last)`);
  const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as BackupManifest;
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`backup format ${manifest.format} is not known here`);
  if (fs.existsSync(dataDir) && (!fs.statSync(dataDir).isDirectory() || fs.readdirSync(dataDir).length > 0))
    throw new BackupError(
      `DATA_DIR ${dataDir} is not empty: restore writes only into an empty DATA_DIR (or one that does not exist yet); move it aside first`,
    );
  const databaseFile = path.join(source, manifest.database.file);
  const { sha256 } = await digest(databaseFile);
  if (sha256 !== manifest.database.sha256)
    throw new BackupError(
      `${manifest.database.file} does not match its SHA-256 in ${MANIFEST_FILE}: the backup is damaged`,
    );

  if (manifest.database.kind === 'pglite' && options.databaseUrl)
    throw new BackupError('this backup is of the embedded database: unset DATABASE_URL to restore it');
  if (manifest.database.kind === 'postgres') {
    if (!options.databaseUrl)
      throw new BackupError(
        'this backup is of a PostgreSQL database: set DATABASE_URL to the empty database to restore it into',
      );
    await assertEmptyDatabase(options.databaseUrl);
    if (!(await version('pg_restore')))
      throw new BackupError(
        `pg_restore is not installed here (Debian: postgresql-client); or restore ${POSTGRES_DUMP_FILE} elsewhere with pg_restore --no-owner and run restore there`,
      );
  }

  const staging = `${dataDir}.restoring-${crypto.randomBytes(4).toString('hex')}`;
  fs.mkdirSync(path.dirname(staging), { recursive: true });
  fs.mkdirSync(staging, { mode: PRIVATE_DIR_MODE });
  const warnings: string[] = [];
  try {
    copyTree(path.join(source, 'keys'), path.join(staging, 'keys'));
    if (manifest.storage.kind === 'filesystem') copyTree(path.join(source, 'blobs'), path.join(staging, 'blobs'));
    else
      warnings.push(
        `the files are in bucket ${manifest.storage.bucket}: the service restored here needs S3_BUCKET=${manifest.storage.bucket} ` +
          `and every object ${manifest.storage.listFile} lists (${manifest.storage.objects}).`,
      );
    if (manifest.database.kind === 'pglite') await loadEmbedded(databaseFile, path.join(staging, 'pgdata'));
    else {
      const connection = libpqEnvironment(options.databaseUrl!);
      const tool = await run(
        'pg_restore',
        [
          '--no-owner',
          '--no-privileges',
          '--exit-on-error',
          '--single-transaction',
          `--dbname=${connection.PGDATABASE ?? connection.PGUSER ?? 'postgres'}`,
          databaseFile,
        ],
        options.databaseUrl,
      );
      if (tool.code !== 0) throw new BackupError(`pg_restore failed (exit ${tool.code}): ${tool.stderr.trim()}`);
    }
    restrictDataDir(staging);
    if (fs.existsSync(dataDir)) fs.rmdirSync(dataDir);
    fs.renameSync(staging, dataDir);
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  for (const name of manifest.notInBackup)
    warnings.push(`${name} is not in the backup: start the service with the value it had.`);
  return { manifest, warnings };
}

/** The embedded database's data directory from its dump, opened once by PGlite (which unpacks it) and closed. */
async function loadEmbedded(dump: string, pgdata: string) {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
  ]);
  fs.mkdirSync(pgdata, { mode: PRIVATE_DIR_MODE });
  const client = await PGlite.create(pgdata, {
    extensions: { pg_trgm },
    loadDataDir: new Blob([fs.readFileSync(dump)]),
  });
  try {
    await client.query('select 1');
  } finally {
    await client.close();
  }
}

/** A restore goes into a database without tables of its own (a new one, created with CREATE DATABASE). */
async function assertEmptyDatabase(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`cannot reach the database of DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    const { rows } = await client.query(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p', 'v', 'm', 'S') and n.nspname not in ('pg_catalog', 'information_schema')
          and n.nspname not like 'pg_toast%'`,
    );
    if (rows[0].n > 0)
      throw new BackupError(
        `the database of DATABASE_URL is not empty (${rows[0].n} tables, views or sequences): restore only into a new, empty database`,
      );
  } finally {
    await client.end();
  }
}

/** The directory must not exist (it is created, 0700) or be empty. */
function emptyDirectory(dir: string, what: string) {
  if (fs.existsSync(dir)) {
    if (!fs.statSync(dir).isDirectory() || fs.readdirSync(dir).length > 0)
      throw new BackupError(`${what} ${dir} is not empty: give a new or empty directory`);
    fs.chmodSync(dir, PRIVATE_DIR_MODE);
  } else fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/** Copies the files under `from` (none if it does not exist) into `to`: directories 0700, files 0600. */
function copyTree(from: string, to: string, include: (relative: string) => boolean = () => true) {
  const copied: { relative: string; size: number }[] = [];
  const visit = (relative: string) => {
    const source = path.join(from, relative);
    const stat = fs.lstatSync(source);
    if (stat.isDirectory()) {
      fs.mkdirSync(path.join(to, relative), { recursive: true, mode: PRIVATE_DIR_MODE });
      for (const name of fs.readdirSync(source).sort()) {
        const child = relative ? path.join(relative, name) : name;
        if (include(child)) visit(child);
      }
    } else if (stat.isFile()) {
      const target = path.join(to, relative);
      fs.copyFileSync(source, target, fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE);
      fs.chmodSync(target, PRIVATE_FILE_MODE);
      copied.push({ relative, size: stat.size });
    }
  };
  if (fs.existsSync(from)) visit('');
  return copied;
}

async function move(from: string, to: string) {
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    // Another filesystem: copied, then the snapshot's copy removed.
    await pipeline(fs.createReadStream(from), fs.createWriteStream(to, { mode: PRIVATE_FILE_MODE, flags: 'wx' }));
    fs.rmSync(from);
  }
  fs.chmodSync(to, PRIVATE_FILE_MODE);
}

async function digest(file: string): Promise<{ size: number; sha256: string }> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).byteLength;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * Runs a PostgreSQL client program. The connection goes through libpq's environment (PGHOST, PGPASSWORD…) rather
 * than its arguments, so the password is not on a command line that other users of the host can read.
 */
function run(
  program: string,
  args: string[],
  databaseUrl: string | undefined,
): Promise<{ code: number; stderr: string; missing: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(program, args, {
      env: { ...process.env, ...(databaseUrl ? libpqEnvironment(databaseUrl) : {}) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ code: -1, stderr: error.message, missing: error.code === 'ENOENT' }),
    );
    child.on('close', (code) => resolve({ code: code ?? -1, stderr, missing: false }));
  });
}

async function version(program: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = spawn(program, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', () => resolve(null));
    child.on('close', (code) => resolve(code === 0 ? out.trim() : null));
  });
}

function libpqEnvironment(databaseUrl: string): Record<string, string> {
  const url = new URL(databaseUrl);
  const env: Record<string, string> = {};
  if (url.hostname) env.PGHOST = decodeURIComponent(url.hostname.replace(/^\[|\]$/g, ''));
  if (url.port) env.PGPORT = url.port;
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (name) env.PGDATABASE = name;
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}
