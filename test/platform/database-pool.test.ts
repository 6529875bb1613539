import { describe, expect } from 'vitest';
import { openDatabase } from '../../src/platform/db/client.ts';
import { test } from '../helpers/fixtures.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

describe.runIf(onPostgres)('DATABASE_POOL_SIZE', () => {
  test('the service holds at most that many PostgreSQL connections: more statements at once wait for one', async ({ app: t }) => {
    const database = await openDatabase({ databaseUrl: t.databaseUrl!, poolSize: 4 });
    try {
      const rows = await Promise.all(Array.from({ length: 12 }, () => database.sql.executeSql('select pg_backend_pid() as pid, pg_sleep(0.05)')));
      expect(new Set(rows.map((result) => result.rows[0].pid)).size).toBe(4);
    } finally {
      await database.close();
    }
  });
});
