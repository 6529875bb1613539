import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { executePrepared, keepsPlans, statementName } from '../../src/platform/db/client.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * What src/platform/db/client.ts relies on in Drizzle beyond its public API, checked on both databases so that an
 * upgrade that changes it fails here, by name (docs/operations.md "Library private parts: verdicts"):
 * `executePrepared` builds a raw SQL text with the handle's `dialect.sqlToQuery` and runs it as a named statement
 * through `session.prepareQuery(query, undefined, name, false)`; `sqlInTx` runs pg-boss's raw SQL on
 * `session.client`, the driver connection of a Drizzle transaction. The version is pinned exactly in package.json.
 */
const onPostgres = Boolean(process.env.DATABASE_URL);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('Drizzle as client.ts uses it', () => {
  it('the installed version is the one package.json pins exactly', () => {
    const pinned = JSON.parse(fs.readFileSync('package.json', 'utf8')).dependencies['drizzle-orm'];
    const installed = JSON.parse(fs.readFileSync('node_modules/drizzle-orm/package.json', 'utf8')).version;
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installed).toBe(pinned);
  });

  it('a database and a transaction carry session.prepareQuery, session.client and dialect.sqlToQuery', async () => {
    const { db } = t.platform;
    const shape = (handle: unknown) => {
      const { session, dialect } = handle as {
        session: { prepareQuery: unknown; client: unknown };
        dialect: { sqlToQuery: unknown };
      };
      return [typeof session.prepareQuery, typeof session.client, typeof dialect.sqlToQuery];
    };
    expect(shape(db)).toEqual(['function', 'object', 'function']);
    expect(await db.transaction(async (tx) => shape(tx))).toEqual(['function', 'object', 'function']);
  });

  it("keepsPlans tells the drivers apart by Drizzle's exported classes, for the database and a transaction", async () => {
    expect(keepsPlans(t.platform.db)).toBe(onPostgres);
    expect(await t.platform.db.transaction(async (tx) => keepsPlans(tx))).toBe(onPostgres);
  });

  it('executePrepared answers rows as db.execute does, values as parameters, inside and outside a transaction', async () => {
    const query = sql`select ${7}::int as n, ${'x'}::text as s, ${'2026-12-01T10:00:00.000Z'}::timestamptz as at /* drizzle-contract */`;
    const own = (await t.platform.db.execute(query)).rows;
    expect(own).toHaveLength(1);
    expect((await executePrepared(t.platform.db, query)).rows).toEqual(own);
    expect(await t.platform.db.transaction(async (tx) => (await executePrepared(tx, query)).rows)).toEqual(own);
  });

  it.runIf(onPostgres)(
    'on PostgreSQL the statement is prepared under its name on the connection it ran on',
    async () => {
      const query = sql`select ${1}::int as one /* drizzle-contract-named */`;
      const name = statementName('select $1::int as one /* drizzle-contract-named */');
      const prepared = await t.platform.db.transaction(async (tx) => {
        await executePrepared(tx, query);
        return (await tx.execute(sql`select name from pg_prepared_statements where name = ${name}`)).rows;
      });
      expect(prepared).toEqual([{ name }]);
    },
  );

  it("session.client of a transaction is that transaction's connection: raw SQL on it commits and rolls back with it", async () => {
    const { database, db } = t.platform;
    await db.execute(sql`create table if not exists drizzle_contract (label text)`);
    await db.transaction(async (tx) => {
      await database.sqlInTx(tx).executeSql('insert into drizzle_contract (label) values ($1)', ['committed']);
      // Seen by the transaction's own statements before it commits.
      const seen = await tx.execute(sql`select count(*)::int as n from drizzle_contract where label = 'committed'`);
      expect(seen.rows).toEqual([{ n: 1 }]);
    });
    await expect(
      db.transaction(async (tx) => {
        await database.sqlInTx(tx).executeSql('insert into drizzle_contract (label) values ($1)', ['rolled back']);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const { rows } = await database.sql.executeSql('select label from drizzle_contract order by label');
    expect(rows).toEqual([{ label: 'committed' }]);
  });
});
