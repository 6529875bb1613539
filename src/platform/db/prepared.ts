import crypto from 'node:crypto';
import type { DbOrTx } from './client.ts';

/**
 * A named prepared statement for a statement that runs on most requests (the caller's membership, a workflow and its
 * recipients, the audit trail's append, the lists): Drizzle builds its SQL once per process and driver instead of on
 * every call, and PostgreSQL parses and plans it once per connection. Measured on the 2-core machine through Drizzle
 * and node-postgres: 0.6-1.0 ms per unnamed query, 0.13 ms prepared (docs/operations.md "The database").
 * Values go in as `sql.placeholder(...)`.
 *
 * The Drizzle-builder counterpart of `executePrepared` (client.ts), which prepares raw SQL texts by a digest of the text.
 * Only for statements with a fixed text per `name`: a query whose text varies (optional filters) takes one name per
 * shape, and never one whose text depends on how many values a list holds. Only for statements whose best plan does
 * not depend on the values (PostgreSQL keeps one generic plan: the pool sets plan_cache_mode). PGlite ignores the name:
 * the embedded database names every statement by its text (pglite-query.ts).
 *
 * The statement is built on each handle (the database, or a transaction: its connection) the first time it is used
 * there, through Drizzle's public `prepare`.
 */
export function preparedStatement<Q extends { prepare(name: string): unknown }>(
  name: string,
  build: (db: DbOrTx) => Q,
): (db: DbOrTx) => ReturnType<Q['prepare']> {
  const onHandle = new WeakMap<DbOrTx, ReturnType<Q['prepare']>>();
  return (db) => {
    let statement = onHandle.get(db);
    if (!statement) {
      statement = build(db).prepare(name) as ReturnType<Q['prepare']>;
      onHandle.set(db, statement);
    }
    return statement;
  };
}

/** One prepared statement per shape of a query with optional parts: `shape` names which parts are present. */
export function preparedShapes<Q extends { prepare(name: string): unknown }, S extends string>(
  name: string,
  build: (db: DbOrTx, shape: S) => Q,
): (db: DbOrTx, shape: S) => ReturnType<Q['prepare']> {
  const shapes = new Map<S, (db: DbOrTx) => ReturnType<Q['prepare']>>();
  return (db, shape) => {
    let statement = shapes.get(shape);
    if (!statement) {
      statement = preparedStatement(shapeName(name, shape), (handle) => build(handle, shape));
      shapes.set(shape, statement);
    }
    return statement(db);
  };
}

/**
 * `name:shape`, or `name:` and a digest of the shape when that is longer than PostgreSQL keeps of a statement's name
 * (63 bytes: two longer names alike in their first 63 bytes would be one statement there, and the second's Parse fail).
 */
function shapeName(name: string, shape: string): string {
  const full = `${name}:${shape}`;
  return Buffer.byteLength(full) <= 63
    ? full
    : `${name}:${crypto.createHash('sha256').update(shape).digest('base64url').slice(0, 24)}`;
}

/**
 * A list of integer ids as one parameter value (`= any($1::int[])`): the statement's text stays the same whatever
 * the count, so one prepared statement serves every list. The ids come from the database or are validated integers.
 */
export function intArray(ids: readonly number[]): string {
  return `{${ids.join(',')}}`;
}
