import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// Raw SQL (pg-boss's, `executeSql`) gets timestamps as Dates on both databases, as node-postgres gives them, while
// Drizzle's own queries keep mapping them from text (Drizzle passes its own parsers with each of its queries).
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

it('raw SQL answers timestamps as Dates, outside and inside a transaction', async () => {
  const at = '2026-11-28T12:34:56.789Z';
  const outside = await t.platform.database.sql.executeSql('select $1::timestamptz as at, $2::int as n', [at, 7]);
  expect(outside.rows[0].at).toBeInstanceOf(Date);
  expect((outside.rows[0].at as Date).toISOString()).toBe(at);
  expect(outside.rows[0].n).toBe(7);
  const inside = await t.platform.db.transaction((tx) =>
    t.platform.database.sqlInTx(tx).executeSql('select $1::timestamptz as at', [at]),
  );
  expect((inside.rows[0].at as Date).toISOString()).toBe(at);
  // Parameterless text goes through exec() on PGlite: the same values.
  const exec = await t.platform.database.sql.executeSql(`select '${at}'::timestamptz as at`);
  expect((exec.rows[0].at as Date).toISOString()).toBe(at);
});
