import { describe, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { executePrepared, openDatabase } from '../../src/platform/db/client.ts';
import { intArray } from '../../src/platform/db/prepared.ts';
import { test } from '../helpers/fixtures.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

describe.runIf(onPostgres)('DATABASE_POOL_SIZE', () => {
  test('the service holds at most that many PostgreSQL connections: more statements at once wait for one', async ({
    app: t,
  }) => {
    const database = await openDatabase({ databaseUrl: t.databaseUrl!, poolSize: 4 });
    try {
      const rows = await Promise.all(
        Array.from({ length: 12 }, () => database.sql.executeSql('select pg_backend_pid() as pid, pg_sleep(0.05)')),
      );
      expect(new Set(rows.map((result) => result.rows[0].pid)).size).toBe(4);
    } finally {
      await database.close();
    }
  });
});

describe.runIf(onPostgres)('prepared statements', () => {
  test('a named statement is planned once per connection (a generic plan), whatever its values', async ({ app: t }) => {
    const database = await openDatabase({ databaseUrl: t.databaseUrl!, poolSize: 4 });
    try {
      // Left to choose, PostgreSQL kept planning a statement anew when its plans for one or two ids looked cheaper.
      const plans = await database.db.transaction(async (tx) => {
        for (let i = 0; i < 8; i += 1)
          await executePrepared(
            tx,
            sql`select count(*)::int as n from workflows w where w.id = any(${intArray([i, i + 1])}::int[]) /* plan-test */`,
          );
        return (
          await tx.execute(
            sql`select generic_plans::int, custom_plans::int from pg_prepared_statements where statement like '%plan-test%'`,
          )
        ).rows;
      });
      expect(plans).toEqual([{ generic_plans: 8, custom_plans: 0 }]);
    } finally {
      await database.close();
    }
  });
});
