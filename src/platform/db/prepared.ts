import type { DbOrTx } from './client.ts';

/**
 * A named prepared statement for a read that runs on most requests (the caller's membership, the lists): Drizzle
 * builds it once per database handle instead of on every call, and PostgreSQL parses and plans it once per
 * connection. Measured on the 2-core machine through Drizzle and node-postgres: 0.6-1.0 ms per unnamed query,
 * 0.13 ms prepared (docs/decisions.md "Prepared statements"). Values go in as `sql.placeholder(...)`.
 *
 * The Drizzle-builder counterpart of `executePrepared` (client.ts), which prepares raw SQL texts by a digest of the text.
 * Only for statements with a fixed text per `name`: a query whose text varies (optional filters) takes one name per
 * shape, and never one whose text depends on how many values a list holds. Inside a transaction the statement is
 * built for that transaction (its connection) and dropped with it; PGlite ignores the name.
 */
export function preparedStatement<Q extends { prepare(name: string): unknown }>(name: string, build: (db: DbOrTx) => Q): (db: DbOrTx) => ReturnType<Q['prepare']> {
  const statements = new WeakMap<DbOrTx, ReturnType<Q['prepare']>>();
  return (db) => {
    let statement = statements.get(db);
    if (!statement) {
      statement = build(db).prepare(name) as ReturnType<Q['prepare']>;
      statements.set(db, statement);
    }
    return statement;
  };
}

/** One prepared statement per shape of a query with optional parts: `shape` names which parts are present. */
export function preparedShapes<Q extends { prepare(name: string): unknown }, S extends string>(name: string, build: (db: DbOrTx, shape: S) => Q): (db: DbOrTx, shape: S) => ReturnType<Q['prepare']> {
  const shapes = new Map<S, (db: DbOrTx) => ReturnType<Q['prepare']>>();
  return (db, shape) => {
    let statement = shapes.get(shape);
    if (!statement) {
      statement = preparedStatement(`${name}:${shape}`, (handle) => build(handle, shape));
      shapes.set(shape, statement);
    }
    return statement(db);
  };
}

/**
 * A list of integer ids as one parameter value (`= any($1::int[])`): the statement's text stays the same whatever
 * the count, so one prepared statement serves every list. The ids come from the database or are validated integers.
 */
export function intArray(ids: readonly number[]): string {
  return `{${ids.join(',')}}`;
}
