import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse, PGlite, protocol, type Results } from '@electric-sql/pglite';

/**
 * What src/platform/db/pglite-query.ts relies on in PGlite beyond its documented query() and transaction(), checked on
 * PGlite itself so that an upgrade that changes any of it fails here, by name, before the service misbehaves
 * (docs/operations.md "Library private parts: verdicts"). The version is pinned exactly in package.json for the same
 * reason; this file fails first when the installed one differs from the pin.
 */
const { serialize } = protocol;
let pglite: PGlite;

beforeAll(async () => {
  pglite = await PGlite.create();
  await pglite.exec('create table contract (id serial primary key, label text not null)');
});
afterAll(async () => {
  await pglite.close();
});

function concat(parts: Uint8Array[]): Uint8Array {
  const message = new Uint8Array(parts.reduce((size, part) => size + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

describe('PGlite as pglite-query.ts uses it', () => {
  test('the installed version is the one package.json pins exactly', () => {
    const pinned = JSON.parse(fs.readFileSync('package.json', 'utf8')).dependencies['@electric-sql/pglite'];
    const installed = JSON.parse(fs.readFileSync('node_modules/@electric-sql/pglite/package.json', 'utf8')).version;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pinned);
  });

  test('the private members exist: _checkReady, _runExclusiveQuery, _runExclusiveTransaction', () => {
    expect(typeof pglite._checkReady).toBe('function');
    expect(typeof pglite._runExclusiveQuery).toBe('function');
    expect(typeof pglite._runExclusiveTransaction).toBe('function');
  });

  test('Parse, Bind, Describe, Execute and Sync in one execProtocolStream call answer as query() does, through parseResults', async () => {
    const message = concat([
      serialize.parse({ name: '', text: 'select $1::int + 1 as n, $2 as label' }),
      serialize.bind({ statement: '', values: ['41', 'x'] }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    const messages = await pglite._runExclusiveQuery(() => pglite.execProtocolStream(message, { syncToFs: false }));
    expect(messages.map((reply) => reply.name)).toEqual([
      'parseComplete',
      'bindComplete',
      'rowDescription',
      'dataRow',
      'commandComplete',
      'readyForQuery',
    ]);
    const [result] = parse.parseResults(messages, pglite.parsers) as Results[];
    const own = await pglite.query('select $1::int + 1 as n, $2 as label', [41, 'x']);
    expect(result.rows).toEqual([{ n: 42, label: 'x' }]);
    expect(result.fields).toEqual(own.fields);
  });

  test('a named statement stays parsed in the session: later calls bind it without Parse; Close drops it', async () => {
    const name = 'contract_named';
    const run = (parts: Uint8Array[]) =>
      pglite._runExclusiveQuery(() => pglite.execProtocolStream(concat(parts), { syncToFs: false }));
    const call = (value: string) => [
      serialize.bind({ statement: name, values: [value] }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ];
    await run([serialize.parse({ name, text: 'select $1::text as v' }), ...call('a')]);
    const second = await run(call('b'));
    expect((parse.parseResults(second, pglite.parsers)[0] as Results).rows).toEqual([{ v: 'b' }]);
    await run([serialize.close({ type: 'S', name }), serialize.sync()]);
    await expect(run(call('c'))).rejects.toThrow(/does not exist/);
    // The failed call's Sync was processed: the session takes the next statement.
    expect((await pglite.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  test('an error inside the one call throws and leaves the session ready, outside and inside a transaction', async () => {
    const bad = concat([
      serialize.parse({ name: '', text: 'select 1/$1::int as n' }),
      serialize.bind({ statement: '', values: ['0'] }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    await expect(pglite._runExclusiveQuery(() => pglite.execProtocolStream(bad, { syncToFs: false }))).rejects.toThrow(
      /division by zero/,
    );
    expect((await pglite.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
    await expect(
      pglite.transaction(async (tx) => {
        await tx.query("insert into contract (label) values ('rolled back')");
        await pglite._runExclusiveQuery(() => pglite.execProtocolStream(bad, { syncToFs: false }));
      }),
    ).rejects.toThrow(/division by zero/);
    expect((await pglite.query("select count(*)::int as n from contract where label = 'rolled back'")).rows).toEqual([
      { n: 0 },
    ]);
  });

  test('_runExclusiveTransaction waits for an open transaction(); _runExclusiveQuery is a lock', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let opened!: () => void;
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const transaction = pglite.transaction(async (tx) => {
      await tx.query("insert into contract (label) values ('in transaction')");
      opened();
      await held;
      order.push('transaction done');
    });
    await open;
    // (Not query() inside: it takes this lock itself.)
    const outside = pglite._runExclusiveTransaction(async () => {
      order.push('outside ran');
    });
    // A statement of its own must not run inside another request's open transaction.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(order).toEqual([]);
    release();
    await transaction;
    await outside;
    expect(order).toEqual(['transaction done', 'outside ran']);

    // _runExclusiveQuery is a lock: a second call waits for the first to finish.
    const steps: string[] = [];
    const first = pglite._runExclusiveQuery(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      steps.push('first');
    });
    const second = pglite._runExclusiveQuery(async () => steps.push('second'));
    await Promise.all([first, second]);
    expect(steps).toEqual(['first', 'second']);
  });

  test('a notification raised by the one call reaches listen() handlers', async () => {
    const got: string[] = [];
    const unlisten = await pglite.listen('contract_channel', (payload) => got.push(payload));
    const message = concat([
      serialize.parse({ name: '', text: "select pg_notify('contract_channel', $1)" }),
      serialize.bind({ statement: '', values: ['hello'] }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    await pglite._runExclusiveQuery(() => pglite.execProtocolStream(message, { syncToFs: false }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(got).toEqual(['hello']);
    await unlisten();
  });
});
