import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgBoss } from 'pg-boss';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * What `platform/jobs/queue.ts` relies on in pg-boss beyond its documented API (docs/operations.md, "Library private
 * parts: verdicts — pg-boss"), checked against the installed version: an upgrade that changes any of it fails here
 * before it breaks crash safety, the operator's queue view or the refusal of a broken payload. Each statement below
 * has the shape of the queue's own.
 */
let t: TestApp;
let boss: PgBoss;
beforeAll(async () => {
  t = await createTestApp();
  // A second pg-boss on the test database's schema, without its maintenance loops: each check drives pg-boss itself.
  boss = new PgBoss({ db: t.platform.database.sql, schema: 'pgboss', supervise: false, schedule: false });
  boss.on('error', () => {});
  await boss.start();
});
afterAll(async () => {
  await boss?.stop({ graceful: false, timeout: 1000 });
  await t?.close();
});

const sql = (text: string, values: unknown[] = []) => t.platform.database.sql.executeSql(text, values);

async function row(name: string, id: string) {
  const { rows } = await sql(
    'select state, retry_count, retry_limit, expire_seconds, started_on, start_after, data, output from pgboss.job where name = $1 and id = $2',
    [name, id],
  );
  return rows[0] as { state: string; retry_count: number; retry_limit: number; expire_seconds: number } | undefined;
}

/** The next due job; a job sent this very moment may not be due yet (start_after is not before now()). */
async function fetchOne(name: string) {
  for (let tries = 0; tries < 50; tries++) {
    const [job] = await boss.fetch(name, { batchSize: 1, includeMetadata: true });
    if (job) return job as unknown as { id: string; retryCount: number };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

describe('pg-boss contract (the pieces queue.ts keeps)', () => {
  it('keeps the jobs of a queue created without partition in pgboss.job, with the states and columns the queue uses', async () => {
    const { rows: states } = await sql('select enum_range(null::pgboss.job_state)::text[] as states');
    expect((states[0] as { states: string[] }).states).toEqual(
      expect.arrayContaining(['created', 'retry', 'active', 'completed', 'failed']),
    );
    await boss.createQueue('contract.table');
    const id = (await boss.send('contract.table', { recordId: 9 }))!;
    expect(await row('contract.table', id)).toMatchObject({ state: 'created', retry_count: 0 });
    // isLive: JSON containment on the payload, among the waiting and running.
    const live = (match: object) =>
      sql(
        "select 1 from pgboss.job where name = $1 and state in ('created', 'retry', 'active') and data @> $2::jsonb limit 1",
        ['contract.table', JSON.stringify(match)],
      ).then(({ rows }) => rows.length > 0);
    expect(await live({ recordId: 9 })).toBe(true);
    expect(await live({ recordId: 10 })).toBe(false);
    // stats(): the grouped count over the same rows.
    const { rows } = await sql(
      `select (count(*) filter (where state = 'created'))::int as created, min(created_on) filter (where state in ('created', 'retry')) as oldest
       from pgboss.job where name = any($1::text[]) group by name`,
      [['contract.table']],
    );
    expect(rows[0]).toMatchObject({ created: 1 });
    expect(rows[0]!.oldest).not.toBeNull();
  });

  it("times an active job out from started_on + expire_seconds, so the lease's renewal keeps pg-boss's own expiry off it", async () => {
    await boss.createQueue('contract.lease', { expireInSeconds: 1, retryLimit: 2, retryDelay: 0 });
    const renewed = (await boss.send('contract.lease', {}))!;
    const lapsed = (await boss.send('contract.lease', {}))!;
    const fetched = [(await fetchOne('contract.lease'))?.id, (await fetchOne('contract.lease'))?.id];
    expect(fetched.sort()).toEqual([renewed, lapsed].sort());
    expect(await row('contract.lease', renewed)).toMatchObject({ state: 'active', expire_seconds: 1 });
    // The queue's renewal: the lease runs LEASE_SECONDS from now, however long the job has run.
    await sql(
      `update pgboss.job set expire_seconds = ceil(extract(epoch from now() - started_on))::int + $3
       where name = any($1::text[]) and id in (
         select id from pgboss.job where name = any($1::text[]) and id = any($2::uuid[]) and state = 'active' for update skip locked)`,
      [['contract.lease'], [renewed], 3600],
    );
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await boss.supervise('contract.lease');
    expect((await row('contract.lease', renewed))!.state).toBe('active');
    expect((await row('contract.lease', lapsed))!.state).toBe('retry');
  });

  it('fetches a job put back as retry (start_after now) at once, counting the lost run as an attempt', async () => {
    await boss.createQueue('contract.reclaim', { retryLimit: 3, retryDelay: 60 });
    const id = (await boss.send('contract.reclaim', {}))!;
    expect((await fetchOne('contract.reclaim'))?.retryCount).toBe(0);
    await sql(
      `update pgboss.job set state = 'retry', start_after = now() where name = any($1::text[]) and id in (
         select id from pgboss.job where name = any($1::text[]) and state = 'active' and retry_count < retry_limit for update skip locked)`,
      [['contract.reclaim']],
    );
    const again = await fetchOne('contract.reclaim');
    expect(again?.id).toBe(id);
    expect(again?.retryCount).toBe(1);
  });

  it('makes fail() final for a job whose retry_limit was lowered to its retry_count (the refusal of a broken payload)', async () => {
    await boss.createQueue('contract.refuse', { retryLimit: 3 });
    const id = (await boss.send('contract.refuse', {}))!;
    expect((await fetchOne('contract.refuse'))?.id).toBe(id);
    await sql("update pgboss.job set retry_limit = retry_count where name = $1 and id = $2 and state = 'active'", [
      'contract.refuse',
      id,
    ]);
    await boss.fail('contract.refuse', id, { message: 'invalid payload' });
    expect(await row('contract.refuse', id)).toMatchObject({ state: 'failed', retry_count: 0 });
  });

  it('counts waiting and active jobs live in getQueueStats (drain) and keeps one waiting job on a short queue (oneWaiting)', async () => {
    await boss.createQueue('contract.stats', { policy: 'short' });
    const id = (await boss.send('contract.stats', {}))!;
    expect(await boss.send('contract.stats', {})).toBeNull();
    expect(await boss.getQueueStats('contract.stats')).toMatchObject({ queuedCount: 1, activeCount: 0 });
    await fetchOne('contract.stats');
    expect(await boss.getQueueStats('contract.stats')).toMatchObject({ queuedCount: 0, activeCount: 1 });
    // A job running while the next waits: what the webhook dispatcher's tick does.
    expect(await boss.send('contract.stats', {})).not.toBeNull();
    await boss.complete('contract.stats', id);
    expect(await boss.getQueueStats('contract.stats')).toMatchObject({ queuedCount: 1, activeCount: 0 });
  });
});
