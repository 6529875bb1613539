import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

const { serialize } = protocol;

/**
 * A statement with parameters in one call into the embedded database instead of six. PGlite's query() sends Parse,
 * then Describe of the statement (to learn the parameters' types and serialize each value by its type), then Bind,
 * Describe of the portal, Execute and Sync, each its own call into the database (a trip through the wasm boundary and
 * the protocol parser); this sends them all at once with the values as text of unspecified type, which PostgreSQL
 * types from the statement exactly as it does for the node-postgres driver on a server. Measured on the 2-core
 * machine: a one-row select by key 0.32-0.40 ms → 0.22-0.28 ms, an update 0.30-0.33 → 0.19-0.21 ms
 * (docs/decisions.md "Lifecycle throughput").
 *
 * Values are written as PGlite's own serializers write them whatever the type (text as is, numbers and bigints by
 * toString, dates as ISO 8601, booleans as true/false, which both boolean and JSON read); any other value (an array,
 * an object, bytes) makes the statement go through PGlite's query() as before. Results, errors and notifications are
 * PGlite's own (its protocol parser, its result parser); `transaction` is the PGlite transaction the statement runs
 * in, or null for a statement of its own (which then waits for any open transaction and is written to disk after, as
 * query() does).
 *
 * `name` (a prepared statement's, prepared.ts) makes it a named statement of the database's one session: parsed,
 * analysed and planned once (a generic plan: openPglite sets plan_cache_mode as the PostgreSQL pool does), then only
 * bound and executed. Measured alone on the 2-core machine: a select by key of a 32-column row 0.35-0.48 ms unnamed,
 * 0.21-0.22 ms named (docs/decisions.md "Lifecycle throughput").
 */
export async function queryInOneCall(pglite: PGlite, transaction: Transaction | null, text: string, params: unknown[], options?: QueryOptions, name?: string): Promise<Results> {
  const values = textValues(params);
  if (!values) return (transaction ?? pglite).query(text, params as unknown[] as never[], options);
  const run = async () => {
    const prepared = name ? preparedOf(pglite) : null;
    const statement = prepared && name ? name : '';
    // A name not known to be prepared with this text is closed first (not an error when there is none) and parsed
    // again; it is known only once a call that parsed it succeeded (a failed call may or may not have parsed it).
    const parsing = prepared === null || prepared.get(statement) !== text;
    const message = concat([
      ...(parsing && prepared ? [serialize.close({ type: 'S', name: statement })] : []),
      ...(parsing ? [serialize.parse({ name: statement, text })] : []),
      serialize.bind({ statement, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync(),
    ]);
    if (prepared) prepared.delete(statement);
    const messages = await pglite.execProtocolStream(message, { syncToFs: false });
    if (prepared) prepared.set(statement, text);
    return parse.parseResults(messages, pglite.parsers, options)[0] as Results;
  };
  if (transaction) {
    if (transaction.closed) throw new Error('Transaction is closed');
    return pglite._runExclusiveQuery(run);
  }
  await pglite._checkReady();
  return pglite._runExclusiveTransaction(async () => {
    const result = await pglite._runExclusiveQuery(run);
    await pglite.syncToFs();
    return result;
  });
}

/**
 * The key under which the embedded database's Drizzle view (client.ts) offers a client whose statements are one named
 * statement (prepared.ts gives it to its prepared statements): `view[namedStatement](name).query(text, params, options)`.
 */
export const namedStatement = Symbol('named statement');

/** The named statements of an instance's session and their texts. */
const preparedByInstance = new WeakMap<PGlite, Map<string, string>>();

function preparedOf(pglite: PGlite): Map<string, string> {
  let prepared = preparedByInstance.get(pglite);
  if (!prepared) {
    prepared = new Map();
    preparedByInstance.set(pglite, prepared);
  }
  return prepared;
}

function textValues(params: unknown[]): (string | null)[] | null {
  const values: (string | null)[] = [];
  for (const value of params) {
    if (value === null || value === undefined) values.push(null);
    else if (typeof value === 'string') values.push(value);
    else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') values.push(String(value));
    else if (value instanceof Date) values.push(value.toISOString());
    else return null;
  }
  return values;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const message = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}
