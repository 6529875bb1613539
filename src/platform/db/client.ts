import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { is, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite, PgliteDatabase, PgliteTransaction } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { restrictDataDir } from '../storage/data-dir.ts';
import { queryInOneCall } from './pglite-query.ts';

/**
 * Both drivers expose the same Drizzle PostgreSQL API; the PGlite database is typed as the node-postgres
 * one so that services and repos have one type to depend on.
 */
export type Db = NodePgDatabase<typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Repos take either the database or an open transaction. */
export type DbOrTx = Db | Tx;

/** Raw parameterised SQL, as pg-boss's `db` option wants it. */
export type SqlExecutor = { executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }> };

export type Database = {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Raw SQL on the database (outside any transaction). */
  sql: SqlExecutor;
  /** Raw SQL inside an open Drizzle transaction (so a job is enqueued in the same commit). */
  sqlInTx(tx: Tx): SqlExecutor;
  ping(): Promise<void>;
  /**
   * Runs `handler` on every notification of `channel` that reaches this process, and whenever one may have been
   * missed (a new PostgreSQL connection: while none was open, nothing listened). A notification of a transaction
   * committed through this process reaches the handler before that commit returns; one committed elsewhere, as soon
   * as an idle connection of this process reads it. The handler gets the notification's payload, or undefined when
   * one may have been missed.
   */
  onNotify(channel: NotifyChannel, handler: NotifyHandler): void;
  close(): Promise<void>;
};

/**
 * The channels every connection LISTENs on, and the migrations whose triggers NOTIFY them: access_changed, a change
 * to a membership, role, user or business app (0023); members_roles_changed and templates_changed, a change to what an
 * organization's member and role lists, or its template list, show, with the organization's id (0024);
 * template_analytics_changed, a change to what a template's analytics read, with the template's id (0025);
 * document_lists_changed, a change to what users' document lists show, with their ids comma-separated (0026).
 */
const NOTIFY_CHANNELS = [
  'access_changed',
  'members_roles_changed',
  'templates_changed',
  'template_analytics_changed',
  'document_lists_changed',
] as const;
export type NotifyChannel = (typeof NOTIFY_CHANNELS)[number];
/** `payload` undefined: notifications may have been missed (a new connection), so assume anything changed. */
export type NotifyHandler = (payload: string | undefined) => void;

function notifyHandlers() {
  const handlers = new Map<string, Set<NotifyHandler>>();
  return {
    add(channel: NotifyChannel, handler: NotifyHandler) {
      if (!handlers.has(channel)) handlers.set(channel, new Set());
      handlers.get(channel)!.add(handler);
    },
    run(channel: string, payload: string | undefined) {
      for (const handler of handlers.get(channel) ?? []) handler(payload);
    },
  };
}

export const migrationsFolder = path.join(import.meta.dirname, 'migrations');

// A constant key so several instances starting together run migrations one at a time.
const MIGRATION_LOCK_KEY = 727_001;

export type DatabaseOptions = {
  databaseUrl?: string;
  /** PostgreSQL connections at most (default 20). */
  poolSize?: number;
  /** PGlite data directory; undefined keeps it in memory. */
  pgliteDir?: string;
  /** A PGlite data dump to start from (tests: a migrated template). */
  pgliteLoadDataDir?: Blob;
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 20);
  return openPglite(options);
}

async function openPostgres(databaseUrl: string, poolSize: number): Promise<Database> {
  // Every connection listens before it is handed out, so that a notification of a transaction it commits arrives
  // (before ReadyForQuery) before the commit returns, and one committed elsewhere is read by whichever connection is
  // idle. A new connection also runs the handlers: while none was open, nothing listened.
  const notified = notifyHandlers();
  const onConnect = async (client: pg.ClientBase) => {
    client.on('notification', (message) => notified.run(message.channel, message.payload ?? ''));
    // Named statements (executePrepared) keep one generic plan per connection: left to choose, PostgreSQL planned the
    // list's item select anew on every call (its custom plans for one or two ids look cheaper than the generic one),
    // and planning cost more than running it. Unnamed statements (every other query) are planned per call regardless.
    await client.query(
      ['set plan_cache_mode = force_generic_plan', ...NOTIFY_CHANNELS.map((channel) => `listen ${channel}`)].join('; '),
    );
    for (const channel of NOTIFY_CHANNELS) notified.run(channel, undefined);
  };
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, onConnect });
  // An idle client dropped by the server must not crash the process.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema, casing: 'snake_case' });
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migratePg(db, { migrationsFolder });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    lockClient.release();
  }
  return {
    kind: 'postgres',
    db,
    sql: { executeSql: async (text, values) => pool.query(text, values as any[]) },
    sqlInTx: (tx) => ({ executeSql: async (text, values) => sessionClient(tx).query(text, values) }),
    ping: async () => {
      await pool.query('select 1');
    },
    onNotify: notified.add,
    close: () => pool.end(),
  };
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  if (options.pgliteDir) fs.mkdirSync(options.pgliteDir, { recursive: true, mode: 0o700 });
  // pg_trgm: the document list's name search index (migration 0018).
  const client = await PGlite.create(options.pgliteDir, {
    extensions: { pg_trgm },
    ...(options.pgliteLoadDataDir ? { loadDataDir: options.pgliteLoadDataDir } : {}),
  });
  // PGlite writes a new data directory's initial files with mode 0666 (files PostgreSQL creates later are 0600),
  // so the directory is made owner-only once it exists: the database is the service's alone.
  if (options.pgliteDir) restrictDataDir(options.pgliteDir);
  const forDrizzle = inOneCall(client, client, null);
  const db = drizzlePglite(forDrizzle, { schema, casing: 'snake_case' }) as unknown as Db;
  await migratePglite(db as any, { migrationsFolder });
  // One session: its own notifications are handed to the listeners (as microtasks queued while the committing
  // statement's answer is read) before that statement returns.
  const notified = notifyHandlers();
  for (const channel of NOTIFY_CHANNELS) await client.listen(channel, (payload) => notified.run(channel, payload));
  return {
    kind: 'pglite',
    db,
    sql: {
      executeSql: (text, values) => pgliteExecute(forDrizzle, text, values),
    },
    sqlInTx: (tx) => ({
      executeSql: (text, values) => pgliteExecute(sessionClient(tx), text, values),
    }),
    ping: async () => {
      await client.query('select 1');
    },
    onNotify: notified.add,
    close: () => client.close(),
  };
}

/**
 * A PGlite instance or transaction as Drizzle should see it: its statements go into the database in one call each
 * (pglite-query.ts), everything else is PGlite's own (methods bound: PGlite keeps private fields).
 */
function inOneCall<T extends object>(client: PGlite, target: T, transaction: Transaction | null): T {
  return new Proxy(target, {
    get(object, property) {
      if (property === 'query')
        return (text: string, params?: unknown[], options?: QueryOptions) =>
          queryInOneCall(client, transaction, text, params ?? [], options);
      if (property === 'transaction')
        return (run: (tx: object) => Promise<unknown>) =>
          (object as unknown as PGlite).transaction((tx) => run(inOneCall(client, tx, tx)) as any);
      const value = Reflect.get(object, property, object);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/**
 * PGlite's query() takes one statement with parameters; exec() takes several statements without. pg-boss
 * sends both kinds (its schema install is one multi-statement text), so parameterless text goes to exec().
 */
async function pgliteExecute(
  client: { query: PGlite['query']; exec: PGlite['exec'] },
  text: string,
  values?: unknown[],
) {
  if (!values || values.length === 0) {
    const results = await client.exec(text);
    return { rows: results.at(-1)?.rows ?? [], fields: results.at(-1)?.fields ?? [] };
  }
  const result = await client.query(text, values as any[]);
  return { rows: result.rows as any[], fields: result.fields };
}

/**
 * The driver connection behind a Drizzle transaction: node-postgres' PoolClient or PGlite's Transaction (the view of
 * inOneCall). Drizzle keeps it on the session, a private member: no public API hands out a transaction's connection,
 * and pg-boss's raw SQL must run on it to commit with the transaction; `tx.execute()` would hand the rows through
 * Drizzle's parsers (timestamps as text). Guarded by test/platform/drizzle-contract.test.ts; Drizzle is pinned exactly
 * in package.json ("//"). Verdict: docs/operations.md "Library private parts: verdicts".
 */
function sessionClient(tx: Tx): any {
  return (tx as any).session.client;
}

/**
 * A statement PostgreSQL prepares and plans once per connection (a generic plan: the pool sets plan_cache_mode) and
 * then only executes: for the hot reads of list pages, whose
 * planning costs several times their execution (docs/operations.md "The database"). The name is
 * a digest of the text, so each distinct text is its own statement; use it only for texts drawn from a small set
 * (values as parameters, never spliced in). PGlite names it by its text as it does every statement with parameters,
 * with PostgreSQL's default choice of plan (pglite-query.ts). Rows as `db.execute` gives them.
 *
 * Drizzle names only its query builders' statements (`.prepare(name)`), so this uses the handle's internal
 * `dialect.sqlToQuery` and `session.prepareQuery`. Kept because the list's uncached reads need it: a new search term
 * each request at 32 connections, unnamed through `db.execute`, cost PostgreSQL 1.09-1.10 ms per request against
 * 0.21-0.22 ms named, p99 132-313 against 58-80 ms (goal 20 ms; bench/README.md "Library private parts"). Guarded
 * by test/platform/drizzle-contract.test.ts; Drizzle is pinned exactly in package.json ("//").
 */
export async function executePrepared(db: DbOrTx, query: SQL): Promise<{ rows: Record<string, unknown>[] }> {
  const { session, dialect } = db as unknown as {
    session: {
      prepareQuery(
        query: { sql: string; params: unknown[] },
        fields: undefined,
        name: string,
        arrayMode: boolean,
      ): { execute(): Promise<{ rows: Record<string, unknown>[] }> };
    };
    dialect: { sqlToQuery(query: SQL): { sql: string; params: unknown[] } };
  };
  const built = dialect.sqlToQuery(query);
  return session.prepareQuery(built, undefined, statementName(built.sql), false).execute();
}

/**
 * Whether statements on this handle keep their plans (PostgreSQL: a named statement is planned once per connection,
 * generic) rather than being planned per call when their plan depends on their values (PGlite: plan_cache_mode auto,
 * pglite-query.ts; in this process, where there is no round trip to save either).
 */
export function keepsPlans(db: DbOrTx): boolean {
  return !is(db, PgliteDatabase) && !is(db, PgliteTransaction);
}

/** A prepared statement's name for a text (node-postgres keeps one statement per name and connection). */
export function statementName(text: string): string {
  return `s_${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
}
