import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { NAMED_TEXT_LIMIT, queryInOneCall, STATEMENTS_KEPT } from '../../src/platform/db/pglite-query.ts';

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
afterAll(async () => {
  await pglite.close();
});

/** `run`'s result, and how many times it went through PGlite's own query() (the path of values it cannot write). */
async function countingFallbacks<T>(run: () => Promise<T>): Promise<{ result: T; fellBack: number }> {
  const own = pglite.query;
  let fellBack = 0;
  pglite.query = function (this: PGlite, ...args: Parameters<PGlite['query']>) {
    fellBack++;
    return own.apply(this, args);
  } as PGlite['query'];
  try {
    return { result: await run(), fellBack };
  } finally {
    delete (pglite as Partial<PGlite>).query;
  }
}

describe('a statement in one call into the embedded database', () => {
  test("every kind of value is written and read as PGlite's own query() writes and reads it", async () => {
    const at = new Date('2026-11-29T10:11:12.345Z');
    const values = ['one', 42, 9007199254740993n, false, '{"a":[1,true,null]}', at, '2026-11-29'];
    const insert =
      'insert into kinds (label, amount, big, flag, doc, at, day) values ($1, $2, $3, $4, $5, $6, $7) returning *';
    const fast = await queryInOneCall(pglite, null, insert, values);
    const own = await pglite.query(insert, ['two', ...values.slice(1)]);
    expect(fast.rows).toEqual([{ ...(own.rows[0] as object), id: (fast.rows[0] as { id: number }).id, label: 'one' }]);
    expect(fast.rows[0]).toMatchObject({
      amount: 42,
      big: 9007199254740993n,
      flag: false,
      doc: { a: [1, true, null] },
      at,
    });
    expect(fast.fields).toEqual(own.fields);
    expect(fast.affectedRows).toBe(1);
    // A boolean bound to JSON is JSON's true, bound to boolean a boolean; a null is NULL.
    const mixed = await queryInOneCall(
      pglite,
      null,
      'select $1::jsonb as j, $2::boolean as b, $3::text as n',
      [true, true, null],
      { rowMode: 'array' },
    );
    expect(mixed.rows).toEqual([[true, true, null]]);
  });

  test("an array is written as an array literal in the one call, read as PGlite's query() reads it: quotes, backslashes, NULL, nesting", async () => {
    const awkward = ['one', 'a "quoted", {braced} value', 'back\\slash\\', 'NULL', '', null, 'two'];
    const at = new Date('2026-11-29T10:11:12.345Z');
    const cases: [string, unknown[]][] = [
      ['select label from kinds where label = any($1) order by label', [['one', 'two']]],
      ['select $1::text[] as t', [awkward]],
      [
        'select $1::int[] as i, $2::bigint[] as b, $3::boolean[] as f, $4::timestamptz[] as at',
        [[1, -2, null], [9007199254740993n], [true, false], [at]],
      ],
      [
        'select $1::int[][] as nested, $2::text[] as empty',
        [
          [
            [1, 2],
            [3, 4],
          ],
          [],
        ],
      ],
      ['select $1::uuid[] as ids', [['0b6f1d7e-5a8e-4a52-9a7f-2f3b8c1d9e01', 'c5e4a9b2-1f0d-4c3e-8b7a-6d5e4f3a2b10']]],
    ];
    for (const [text, params] of cases) {
      const fast = await countingFallbacks(() => queryInOneCall(pglite, null, text, params));
      expect(fast.fellBack, text).toBe(0);
      expect(fast.result.rows, text).toEqual((await pglite.query(text, params)).rows);
    }
    expect((await queryInOneCall(pglite, null, 'select $1::text[] as t', [awkward])).rows).toEqual([{ t: awkward }]);
  });

  test("a value that is not plain (an object in an array, bytes) goes through PGlite's query(): same answer", async () => {
    const text = 'select $1::jsonb as j, $2::bytea as b';
    const params = [[{ a: 1 }], new Uint8Array([1, 2, 255])];
    const fast = await countingFallbacks(() => queryInOneCall(pglite, null, text, params));
    expect(fast.fellBack).toBe(1);
    expect(fast.result.rows).toEqual((await pglite.query(text, params)).rows);
  });

  test("an error is PGlite's, and the next statement runs: outside and inside a transaction", async () => {
    const insert = 'insert into kinds (label) values ($1)';
    await expect(queryInOneCall(pglite, null, insert, ['one'])).rejects.toMatchObject({ code: '23505' });
    expect(
      (await queryInOneCall(pglite, null, 'select count(*)::int as n from kinds where label = $1', ['one'])).rows,
    ).toEqual([{ n: 1 }]);
    await expect(
      pglite.transaction(async (tx) => {
        await queryInOneCall(pglite, tx, insert, ['three']);
        await queryInOneCall(pglite, tx, insert, ['one']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    // The failed transaction was rolled back whole, and the connection is usable.
    expect(
      (await queryInOneCall(pglite, null, 'select count(*)::int as n from kinds where label = $1', ['three'])).rows,
    ).toEqual([{ n: 0 }]);
  });

  test('a statement of its own waits for an open transaction (it is not part of it), and one of a closed transaction is refused', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
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
    await pglite.listen('one_call', (payload) => {
      received.push(payload);
    });
    await queryInOneCall(pglite, null, 'select pg_notify($1, $2)', ['one_call', 'hello']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(received).toEqual(['hello']);
  });

  describe('a statement with parameters is a named statement of the session', () => {
    const select = 'select label, amount from kinds where label = $1';
    const preparedCount = async () =>
      (await pglite.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0].n;
    /** Each call's messages while `run` runs, as their type letters: Close, Parse, Bind, Describe, Execute, Sync. */
    async function callsOf(run: () => Promise<unknown>): Promise<string[]> {
      const sent: string[] = [];
      const original = pglite.execProtocolStream.bind(pglite);
      pglite.execProtocolStream = ((message: Uint8Array, options?: object) => {
        let types = '';
        for (
          let at = 0;
          at < message.length;
          at += 1 + new DataView(message.buffer, message.byteOffset + at + 1, 4).getInt32(0)
        )
          types += String.fromCharCode(message[at]);
        sent.push(types);
        return original(message, options);
      }) as typeof pglite.execProtocolStream;
      try {
        await run();
      } finally {
        pglite.execProtocolStream = original;
      }
      return sent;
    }

    test('is parsed once and then only bound and executed, with the same answer', async () => {
      await queryInOneCall(pglite, null, 'insert into kinds (label, amount) values ($1, $2)', ['named-one', 7]);
      const before = await preparedCount();
      let first: unknown, again: unknown;
      // The first call closes the name (there may be a statement left by a failed call) and parses it; later calls
      // only bind, describe the portal's rows and execute.
      expect(
        await callsOf(async () => {
          first = await queryInOneCall(pglite, null, select, ['named-one']);
        }),
      ).toEqual(['CPBDES']);
      expect(
        await callsOf(async () => {
          again = await queryInOneCall(pglite, null, select, ['named-one']);
        }),
      ).toEqual(['BDES']);
      expect((first as { rows: unknown[] }).rows).toEqual([{ label: 'named-one', amount: 7 }]);
      expect(again).toEqual(first);
      expect((again as { fields: unknown }).fields).toEqual((await pglite.query(select, ['named-one'])).fields);
      expect(await preparedCount()).toBe(before + 1);
      // Without parameters a text stays unnamed (migrations' statements, one-off texts), and so does a very long one.
      await queryInOneCall(pglite, null, 'select count(*)::int as n from kinds', []);
      const long = `select $1::int as n${' '.repeat(NAMED_TEXT_LIMIT)}`;
      expect((await queryInOneCall(pglite, null, long, ['5'])).rows).toEqual([{ n: 5 }]);
      expect(await preparedCount()).toBe(before + 1);
    });

    test('a failed call leaves the statement usable, inside a transaction rolled back too', async () => {
      const insert = 'insert into kinds (label, amount) values ($1, $2) returning id';
      await queryInOneCall(pglite, null, insert, ['named-two', 1]);
      // Parsed, then its Bind fails: the next call must not parse the name a second time ("already exists").
      await expect(queryInOneCall(pglite, null, 'select $1::int as n', ['x'])).rejects.toMatchObject({ code: '22P02' });
      expect((await queryInOneCall(pglite, null, 'select $1::int as n', ['3'])).rows).toEqual([{ n: 3 }]);
      await expect(
        pglite.transaction(async (tx) => {
          await queryInOneCall(pglite, tx, insert, ['named-three', 2]);
          await queryInOneCall(pglite, tx, insert, ['named-two', 2]);
        }),
      ).rejects.toMatchObject({ code: '23505' });
      expect((await queryInOneCall(pglite, null, insert, ['named-four', 4])).rows).toHaveLength(1);
      expect((await queryInOneCall(pglite, null, select, ['named-three'])).rows).toEqual([]);
    });

    test('a statement whose result columns a schema change altered fails once, then is parsed again', async () => {
      await pglite.exec('create table shifting (id int, a text)');
      await pglite.exec(`insert into shifting values (1, 'x')`);
      const star = 'select * from shifting where id = $1';
      expect((await queryInOneCall(pglite, null, star, ['1'])).rows).toEqual([{ id: 1, a: 'x' }]);
      expect((await queryInOneCall(pglite, null, star, ['1'])).rows).toEqual([{ id: 1, a: 'x' }]);
      await pglite.exec('alter table shifting add column b int default 2');
      // PostgreSQL refuses the prepared statement (as it does a node-postgres one on a server); the next call parses it anew.
      await expect(queryInOneCall(pglite, null, star, ['1'])).rejects.toMatchObject({ code: '0A000' });
      expect(
        await callsOf(async () => {
          expect((await queryInOneCall(pglite, null, star, ['1'])).rows).toEqual([{ id: 1, a: 'x', b: 2 }]);
        }),
      ).toEqual(['CPBDES']);
      expect((await queryInOneCall(pglite, null, star, ['1'])).rows).toEqual([{ id: 1, a: 'x', b: 2 }]);
    });

    test(`beyond ${STATEMENTS_KEPT} texts the least recently used are closed, and parsed again when asked`, async () => {
      const text = (n: number) => `select ${n} as n where $1::int > 0`;
      for (let n = 0; n < STATEMENTS_KEPT + 20; n++) await queryInOneCall(pglite, null, text(n), ['1']);
      expect(await preparedCount()).toBeLessThanOrEqual(STATEMENTS_KEPT);
      expect(
        (
          await pglite.query<{ n: number }>(
            `select count(*)::int as n from pg_prepared_statements where statement = $1`,
            [text(0)],
          )
        ).rows[0].n,
      ).toBe(0);
      expect((await queryInOneCall(pglite, null, text(0), ['1'])).rows).toEqual([{ n: 0 }]);
      expect((await queryInOneCall(pglite, null, text(STATEMENTS_KEPT + 19), ['1'])).rows).toEqual([
        { n: STATEMENTS_KEPT + 19 },
      ]);
    });
  });
});
