import crypto from 'node:crypto';
import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

const { serialize } = protocol;
type BackendMessage = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/**
 * A statement with parameters in one call into the embedded database instead of six. PGlite's query() sends Parse,
 * then Describe of the statement (to learn the parameters' types and serialize each value by its type), then Bind,
 * Describe of the portal, Execute and Sync, each its own call into the database (a trip through the wasm boundary and
 * the protocol parser); this sends them all at once with the values as text of unspecified type, which PostgreSQL
 * types from the statement exactly as it does for the node-postgres driver on a server. Measured on the 2-core
 * machine: a one-row select by key 0.32-0.40 ms → 0.22-0.28 ms, an update 0.30-0.33 → 0.19-0.21 ms
 * (bench/README.md "Lifecycle throughput").
 *
 * Values are written as PGlite's own serializers write them whatever the type (text as is, numbers and bigints by
 * toString, dates as ISO 8601, booleans as true/false, which both boolean and JSON read), arrays of those as array
 * literals (`arrayLiteral`: pg-boss completes jobs by a uuid[] of ids); any other value (an object, bytes) makes the
 * statement go through PGlite's query() as before. Results, errors and notifications are
 * PGlite's own (its protocol parser, its result parser); `transaction` is the PGlite transaction the statement runs
 * in, or null for a statement of its own (which then waits for any open transaction and is written to disk after, as
 * query() does).
 *
 * Every statement with parameters becomes a named statement of the database's one session, named by a digest of its
 * text: parsed and analysed once, then only bound and executed; PostgreSQL plans it as it plans any prepared
 * statement (plan_cache_mode auto, the default: a custom plan for the first five executions, then the generic plan
 * when it is not costlier, so a statement whose best plan depends on its values keeps custom plans). Measured alone
 * on the 2-core machine: a select by key of a 32-column row 0.35-0.48 ms unnamed, 0.21-0.22 ms named; the lifecycle
 * bench's PGlite time per envelope 106 → 47-60 ms (bench/README.md "Lifecycle throughput"). The most recently used
 * STATEMENTS_KEPT texts keep their statements; the others are closed. Statements without parameters (migrations'
 * DDL, one-off texts) stay unnamed, and so do texts longer than NAMED_TEXT_LIMIT (a many-row insert: one text per
 * row count, whose kept plan would hold memory in proportion, for a parse that is small beside its execution).
 *
 * This builds on PGlite's private parts: the protocol messages are written here (with PGlite's exported
 * serializer), and the statement takes PGlite's own locks through `_checkReady`, `_runExclusiveQuery` and
 * `_runExclusiveTransaction` so that it never runs inside another request's open transaction. Kept because without
 * it the embedded lifecycle falls below its goal: PGlite's query() alone cost the service 114-124 ms of CPU per
 * envelope against 90-92 ms with this (alternated, bench/README.md "Library private parts"), 8.5-9.0 envelopes/s
 * where this keeps 10+ (goal: above 10). Guarded by test/platform/pglite-contract.test.ts; PGlite is pinned exactly
 * in package.json ("//"). Verdict: docs/operations.md "Library private parts: verdicts".
 */
export async function queryInOneCall(
  pglite: PGlite,
  transaction: Transaction | null,
  text: string,
  params: unknown[],
  options?: QueryOptions,
): Promise<Results> {
  const values = textValues(params);
  if (!values) return (transaction ?? pglite).query(text, params as unknown[] as never[], options);
  const run = async () => {
    const session = values.length > 0 && text.length <= NAMED_TEXT_LIMIT ? statementsOf(pglite) : null;
    const name = session ? session.nameOf(text) : '';
    // A name not known to be prepared is closed first (not an error when there is none) and parsed again: it is known
    // only once a call that parsed it succeeded (a failed call may or may not have parsed it), and forgotten when a call
    // of it fails.
    const parsing = !session?.prepared.has(name);
    const closing = session ? session.closing.splice(0) : [];
    if (parsing && session) closing.push(name);
    const message = concat([
      ...closing.map((closed) => serialize.close({ type: 'S', name: closed })),
      ...(parsing ? [serialize.parse({ name, text })] : []),
      serialize.bind({ statement: name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    let messages: BackendMessage[];
    try {
      messages = await pglite.execProtocolStream(message, { syncToFs: false });
    } catch (error) {
      // Whatever failed (a bad value, or a schema change that altered the result columns, which PostgreSQL refuses to
      // run the statement after), the next call closes the name and parses it anew.
      session?.prepared.delete(name);
      throw error;
    }
    session?.prepared.add(name);
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

/** The longest text made a named statement (the per-request statements are far shorter). */
export const NAMED_TEXT_LIMIT = 8_192;

/** How many statement texts keep a named statement per instance (each holds its parse tree and plans in PGlite's memory). */
export const STATEMENTS_KEPT = 500;

/** An instance's named statements: the name of each text (least recently used first), and which are parsed. */
class SessionStatements {
  /** The names parsed. */
  readonly prepared = new Set<string>();
  /** Names of statements dropped from the texts kept, to be closed with the next call. */
  readonly closing: string[] = [];
  private readonly names = new Map<string, string>();

  nameOf(text: string): string {
    let name = this.names.get(text);
    if (name) {
      this.names.delete(text);
    } else {
      name = `q_${crypto.createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
      if (this.names.size >= STATEMENTS_KEPT) {
        const oldest = this.names.entries().next().value;
        if (oldest) {
          this.names.delete(oldest[0]);
          if (this.prepared.delete(oldest[1])) this.closing.push(oldest[1]);
        }
      }
    }
    this.names.set(text, name);
    return name;
  }
}

const statementsByInstance = new WeakMap<PGlite, SessionStatements>();

function statementsOf(pglite: PGlite): SessionStatements {
  let statements = statementsByInstance.get(pglite);
  if (!statements) {
    statements = new SessionStatements();
    statementsByInstance.set(pglite, statements);
  }
  return statements;
}

function textValues(params: unknown[]): (string | null)[] | null {
  const values: (string | null)[] = [];
  for (const value of params) {
    if (value === null || value === undefined) values.push(null);
    else if (typeof value === 'string') values.push(value);
    else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
      values.push(String(value));
    else if (value instanceof Date) values.push(value.toISOString());
    else if (Array.isArray(value)) {
      const literal = arrayLiteral(value);
      if (literal === null) return null;
      values.push(literal);
    } else return null;
  }
  return values;
}

/**
 * An array as PostgreSQL's array literal, each element quoted, as node-postgres writes one whatever the parameter's
 * type (so a statement taking `= any($1)` behaves the same on both databases); null when an element is of a kind
 * written otherwise (an object, bytes), which then goes through PGlite's query().
 */
function arrayLiteral(array: unknown[]): string | null {
  const elements: string[] = [];
  for (const element of array) {
    if (element === null || element === undefined) elements.push('NULL');
    else if (Array.isArray(element)) {
      const inner = arrayLiteral(element);
      if (inner === null) return null;
      elements.push(inner);
    } else {
      const text =
        typeof element === 'string'
          ? element
          : typeof element === 'number' || typeof element === 'bigint' || typeof element === 'boolean'
            ? String(element)
            : element instanceof Date
              ? element.toISOString()
              : null;
      if (text === null) return null;
      elements.push(`"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
    }
  }
  return `{${elements.join(',')}}`;
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
