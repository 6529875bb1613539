import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { queryInOneCall } from '../../src/platform/db/pglite-query.ts';

/**
 * The embedded database's one-call statements (src/platform/db/pglite-query.ts) against PGlite's own query(): the
 * same rows for every kind of value, PGlite's errors with the protocol left clean, the same waiting for an open
 * transaction, and notifications delivered.
 */
let pglite: PGlite;

beforeAll(async () => {
  pglite = await PGlite.create();
  await pglite.exec(`
    create table kinds (id serial primary key, label text unique, amount int, big bigint, flag boolean, doc jsonb, at timestamptz, day date);
  `);
});
afterAll(async () => { await pglite.close(); });

describe('a statement in one call into the embedded database', () => {
  test('every kind of value is written and read as PGlite\'s own query() writes and reads it', async () => {
    const at = new Date('2026-11-29T10:11:12.345Z');
    const values = ['one', 42, 9007199254740993n, false, '{"a":[1,true,null]}', at, '2026-11-29'];
    const insert = 'insert into kinds (label, amount, big, flag, doc, at, day) values ($1, $2, $3, $4, $5, $6, $7) returning *';
    const fast = await queryInOneCall(pglite, null, insert, values);
    const own = await pglite.query(insert, ['two', ...values.slice(1)]);
    expect(fast.rows).toEqual([{ ...(own.rows[0] as object), id: (fast.rows[0] as { id: number }).id, label: 'one' }]);
    expect(fast.rows[0]).toMatchObject({ amount: 42, big: 9007199254740993n, flag: false, doc: { a: [1, true, null] }, at });
    expect(fast.fields).toEqual(own.fields);
    expect(fast.affectedRows).toBe(1);
    // A boolean bound to JSON is JSON's true, bound to boolean a boolean; a null is NULL.
    const mixed = await queryInOneCall(pglite, null, 'select $1::jsonb as j, $2::boolean as b, $3::text as n', [true, true, null], { rowMode: 'array' });
    expect(mixed.rows).toEqual([[true, true, null]]);
  });

  test('a value that is not plain (an array) goes through PGlite\'s query(): same answer', async () => {
    const text = 'select label from kinds where label = any($1) order by label';
    expect((await queryInOneCall(pglite, null, text, [['one', 'two']])).rows).toEqual((await pglite.query(text, [['one', 'two']])).rows);
  });

  test('an error is PGlite\'s, and the next statement runs: outside and inside a transaction', async () => {
    const insert = 'insert into kinds (label) values ($1)';
    await expect(queryInOneCall(pglite, null, insert, ['one'])).rejects.toMatchObject({ code: '23505' });
    expect((await queryInOneCall(pglite, null, 'select count(*)::int as n from kinds where label = $1', ['one'])).rows).toEqual([{ n: 1 }]);
    await expect(pglite.transaction(async (tx) => {
      await queryInOneCall(pglite, tx, insert, ['three']);
      await queryInOneCall(pglite, tx, insert, ['one']);
    })).rejects.toMatchObject({ code: '23505' });
    // The failed transaction was rolled back whole, and the connection is usable.
    expect((await queryInOneCall(pglite, null, 'select count(*)::int as n from kinds where label = $1', ['three'])).rows).toEqual([{ n: 0 }]);
  });

  test('a statement of its own waits for an open transaction (it is not part of it), and one of a closed transaction is refused', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    let closed: Parameters<Parameters<PGlite['transaction']>[0]>[0] | undefined;
    const open = pglite.transaction(async (tx) => {
      closed = tx;
      await queryInOneCall(pglite, tx, 'insert into kinds (label) values ($1)', ['four']);
      await held;
      throw new Error('rolled back');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    // One connection: run while the transaction is open, this insert would be rolled back with it.
    const outside = queryInOneCall(pglite, null, 'insert into kinds (label) values ($1)', ['five']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    await expect(open).rejects.toThrow('rolled back');
    await outside;
    const count = 'select label from kinds where label = any($1::text[]) order by label';
    expect((await queryInOneCall(pglite, null, count, ['{four,five}'])).rows).toEqual([{ label: 'five' }]);
    await expect(queryInOneCall(pglite, closed!, 'select 1', [])).rejects.toThrow('Transaction is closed');
  });

  test('a notification sent by such a statement reaches the listener', async () => {
    const received: string[] = [];
    await pglite.listen('one_call', (payload) => { received.push(payload); });
    await queryInOneCall(pglite, null, 'select pg_notify($1, $2)', ['one_call', 'hello']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received).toEqual(['hello']);
  });

  describe('a named statement (a prepared statement of the session)', () => {
    const select = 'select label, amount from kinds where label = $1';
    const prepared = async () => (await pglite.query<{ name: string }>('select name from pg_prepared_statements order by name')).rows.map((row) => row.name);

    test('is parsed once and then only bound and executed: same rows as unnamed', async () => {
      await queryInOneCall(pglite, null, 'insert into kinds (label, amount) values ($1, $2)', ['named-one', 7]);
      const first = await queryInOneCall(pglite, null, select, ['named-one'], undefined, 'by_label');
      const again = await queryInOneCall(pglite, null, select, ['named-one'], undefined, 'by_label');
      expect(first.rows).toEqual([{ label: 'named-one', amount: 7 }]);
      expect(again.rows).toEqual(first.rows);
      expect(again.fields).toEqual((await queryInOneCall(pglite, null, select, ['named-one'])).fields);
      expect(await prepared()).toContain('by_label');
      // Once prepared, what is sent is a Bind of the statement: no Parse.
      const sent: number[] = [];
      const original = pglite.execProtocolStream.bind(pglite);
      pglite.execProtocolStream = ((message: Uint8Array, options?: object) => { sent.push(message[0]); return original(message, options); }) as typeof pglite.execProtocolStream;
      try {
        await queryInOneCall(pglite, null, select, ['named-one'], undefined, 'by_label');
      } finally {
        pglite.execProtocolStream = original;
      }
      expect(sent).toEqual([0x42]);
    });

    test('a failed call leaves the statement usable, inside a transaction rolled back too', async () => {
      const insert = 'insert into kinds (label, amount) values ($1, $2) returning id';
      await queryInOneCall(pglite, null, insert, ['named-two', 1], undefined, 'insert_kind');
      // The statement's first use (its Parse) fails after parsing: the next call must not parse it a second time ("already exists").
      await expect(queryInOneCall(pglite, null, 'select $1::int as n', ['x'], undefined, 'to_int')).rejects.toMatchObject({ code: '22P02' });
      expect((await queryInOneCall(pglite, null, 'select $1::int as n', ['3'], undefined, 'to_int')).rows).toEqual([{ n: 3 }]);
      await expect(pglite.transaction(async (tx) => {
        await queryInOneCall(pglite, tx, insert, ['named-three', 2], undefined, 'insert_kind');
        await queryInOneCall(pglite, tx, insert, ['named-two', 2], undefined, 'insert_kind');
      })).rejects.toMatchObject({ code: '23505' });
      expect((await queryInOneCall(pglite, null, insert, ['named-four', 4], undefined, 'insert_kind')).rows).toHaveLength(1);
      expect((await queryInOneCall(pglite, null, select, ['named-three'], undefined, 'by_label')).rows).toEqual([]);
    });

    test('a name asked with another text is that text (parsed again under the name)', async () => {
      await queryInOneCall(pglite, null, 'select 1 as one where $1::int > 0', ['1'], undefined, 'shifting');
      const other = await queryInOneCall(pglite, null, 'select 2 as two where $1::int > 0', ['1'], undefined, 'shifting');
      expect(other.rows).toEqual([{ two: 2 }]);
    });
  });
});
