import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Type } from 'typebox';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createJobQueue, defineJob, type JobQueue } from '../../src/platform/jobs/queue.ts';

let t: TestApp;
let queue: JobQueue;
const handled: unknown[] = [];
const typed = defineJob({
  name: 'test.typed',
  payload: Type.Object({ recordId: Type.Integer({ minimum: 1 }) }),
  retryLimit: 3,
});
beforeAll(async () => {
  t = await createTestApp();
  // A queue of its own on the test database, as a second instance would be.
  queue = createJobQueue(t.platform.database, { pollSeconds: 0.5 });
  queue.define({
    ...typed,
    handler: async (data) => {
      handled.push(data);
    },
  });
  await queue.start();
});
afterAll(async () => {
  await queue?.stop();
  await t?.close();
});

async function jobRow(id: string): Promise<{ state: string; retry_count: number; output: any }> {
  const { rows } = await t.platform.database.sql.executeSql(
    'select state, retry_count, output from pgboss.job where id = $1',
    [id],
  );
  return rows[0] as any;
}

async function until(probe: () => Promise<boolean>, what: string) {
  const deadline = Date.now() + 10_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('job payloads', () => {
  it('refuses to enqueue a payload that does not match the schema, and the transaction enqueues nothing', async () => {
    await expect(
      // @ts-expect-error the payload's type refuses it at compile time; this checks the run-time check behind it
      t.platform.db.transaction((tx) => queue.send(tx, typed, { recordId: 'seven' })),
    ).rejects.toThrow(/job test\.typed: invalid payload .*recordId/);
    // @ts-expect-error as above
    await expect(queue.send(null, typed, {})).rejects.toThrow(/job test\.typed: invalid payload/);
    expect(await queue.isLive(typed, {})).toBe(false);
  });

  it('fails a queued job whose payload no longer matches at once, without running it or retrying', async () => {
    // Not yet due, so the worker cannot take it before its payload is broken.
    const id = (await queue.send(null, typed, { recordId: 4 }, { startAfter: new Date(Date.now() + 3_600_000) }))!;
    await t.platform.database.sql.executeSql(
      `update pgboss.job set data = '{"recordId": -1}', start_after = now() where id = $1`,
      [id],
    );
    queue.notify(typed);
    await until(async () => (await jobRow(id)).state === 'failed', 'the invalid job to fail');
    const row = await jobRow(id);
    expect(row.retry_count).toBe(0);
    expect(row.output.message).toMatch(/invalid payload.*recordId/);
    expect(handled).toEqual([]);
  });

  it('isLive: a job for a record is live while queued, and no longer once it has run', async () => {
    expect(await queue.isLive(typed, { recordId: 9 })).toBe(false);
    const id = (await t.platform.db.transaction((tx) =>
      queue.send(tx, typed, { recordId: 9 }, { startAfter: new Date(Date.now() + 3_600_000) }),
    ))!;
    expect(await queue.isLive(typed, { recordId: 9 })).toBe(true);
    // Another record's job is not this one's.
    expect(await queue.isLive(typed, { recordId: 10 })).toBe(false);
    await t.platform.database.sql.executeSql('update pgboss.job set start_after = now() where id = $1', [id]);
    queue.notify(typed);
    await until(async () => (await jobRow(id)).state === 'completed', 'the job to run');
    expect(handled).toEqual([{ recordId: 9 }]);
    expect(await queue.isLive(typed, { recordId: 9 })).toBe(false);
  });
});
