import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { Type } from 'typebox';
import { createJobQueue, type Job, type JobQueue } from '../../src/platform/jobs/queue.ts';

/** What every test job carries (sendMany). */
const Numbered = Type.Object({ n: Type.Integer() });
/** The definition a test job of `name` is sent by. */
const numbered = (name: string) => ({ name, payload: Numbered });

const onPostgres = Boolean(process.env.DATABASE_URL);
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** A queue of its own on the test database (as a second instance would be), stopped after the test. */
const queues: JobQueue[] = [];
async function startQueue(definitions: Job<any>[], options: { lease?: { seconds: number; heartbeatMs: number } } = {}) {
  const queue = createJobQueue(t.platform.database, { pollSeconds: 0.5, ...options });
  for (const definition of definitions) queue.define(definition);
  await queue.start();
  queues.push(queue);
  return queue;
}
afterAll(async () => {
  for (const queue of queues) await queue.stop();
});

async function sendMany(queue: JobQueue, name: string, count: number) {
  await t.platform.db.transaction(async (tx) => {
    for (let n = 0; n < count; n++) await queue.send(tx, numbered(name), { n });
  });
  queue.notify(numbered(name));
}

async function jobRows(name: string): Promise<{ id: string; state: string; retryCount: number }[]> {
  const { rows } = await t.platform.database.sql.executeSql(
    'select id, state, retry_count from pgboss.job where name = $1 order by created_on',
    [name],
  );
  return rows.map((r) => ({ id: r.id, state: r.state, retryCount: r.retry_count }));
}

async function until(probe: () => boolean | Promise<boolean>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('job queue throughput', () => {
  it('drains a burst back to back instead of one job per poll interval', async () => {
    const done: number[] = [];
    const queue = await startQueue([
      {
        name: 'test.burst',
        payload: Numbered,
        retryLimit: 0,
        handler: async ({ n }: { n: number }) => {
          done.push(n);
        },
      },
    ]);
    const started = Date.now();
    await sendMany(queue, 'test.burst', 60);
    await until(() => done.length === 60, 20_000, '60 jobs');
    // One job per 0.5 s poll took 30 s; back to back it is well under a second of work.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(new Set(done).size).toBe(60);
  });

  it('runs up to `concurrency` handlers of a queue at once, never more', async () => {
    let running = 0;
    let peak = 0;
    let finished = 0;
    const queue = await startQueue([
      {
        name: 'test.parallel',
        payload: Numbered,
        retryLimit: 0,
        concurrency: 4,
        async handler() {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 150));
          running -= 1;
          finished += 1;
        },
      },
    ]);
    const started = Date.now();
    await sendMany(queue, 'test.parallel', 12);
    await until(() => finished === 12, 20_000, '12 jobs');
    expect(peak).toBe(4);
    // Three rounds of 150 ms, not twelve.
    expect(Date.now() - started).toBeLessThan(12 * 150);
    await until(
      async () => (await jobRows('test.parallel')).every((j) => j.state === 'completed'),
      5_000,
      'completions recorded',
    );
  });

  it('a failing job is retried on its own; the jobs that ran beside it complete', async () => {
    const queue = await startQueue([
      {
        name: 'test.mixed',
        payload: Numbered,
        retryLimit: 1,
        retryDelay: 60,
        concurrency: 4,
        async handler({ n }: { n: number }) {
          if (n === 2) throw new Error('refused by the peer');
        },
      },
    ]);
    await sendMany(queue, 'test.mixed', 4);
    await until(
      async () => (await jobRows('test.mixed')).every((j) => j.state === 'completed' || j.state === 'retry'),
      10_000,
      'outcomes',
    );
    const states = (await jobRows('test.mixed')).map((j) => j.state).sort();
    expect(states).toEqual(['completed', 'completed', 'completed', 'retry']);
  });
});

describe('jobs whose worker died', () => {
  /** A job as a killed process leaves it: active, fetched an hour ago, its lease long lapsed. */
  async function orphanedJob(name: string): Promise<string> {
    const sender = await startQueue([{ name, payload: Numbered, retryLimit: 3, handler: async () => {} }]);
    // Not yet due, so no worker fetches it before it is made to look taken.
    const id = await t.platform.db.transaction((tx) =>
      sender.send(tx, numbered(name), { n: 1 }, { startAfter: new Date(Date.now() + 3_600_000) }),
    );
    await sender.stop();
    await t.platform.database.sql.executeSql(
      "update pgboss.job set state = 'active', started_on = now() - interval '1 hour', start_after = now() - interval '1 hour' where id = $1",
      [id],
    );
    return id!;
  }

  it('a restarted instance runs a job left active by a killed one at once, counting the lost run as an attempt', async () => {
    const id = await orphanedJob('test.orphan');
    const ran: number[] = [];
    const started = Date.now();
    await startQueue([
      {
        name: 'test.orphan',
        payload: Numbered,
        retryLimit: 3,
        handler: async () => {
          ran.push(Date.now());
        },
      },
    ]);
    await until(() => ran.length === 1, 10_000, 'the orphaned job');
    // Before this, pg-boss expired it only after expireInSeconds (10 minutes), then waited out its retry delay.
    expect(ran[0] - started).toBeLessThan(3_000);
    await until(
      async () => (await jobRows('test.orphan')).some((j) => j.id === id && j.state === 'completed'),
      5_000,
      'completion',
    );
    expect((await jobRows('test.orphan')).find((j) => j.id === id)!.retryCount).toBe(1);
  });

  it.runIf(onPostgres)(
    'a live worker renews its lease through a long handler, and another instance reclaims a lapsed one while running',
    async () => {
      const lease = { seconds: 1, heartbeatMs: 200 };
      let runs = 0;
      await startQueue(
        [
          {
            name: 'test.long',
            payload: Numbered,
            retryLimit: 3,
            handler: async () => {
              runs += 1;
              await new Promise((resolve) => setTimeout(resolve, 2_500));
            },
          },
        ],
        { lease },
      );
      const other = await startQueue(
        [
          {
            name: 'test.long',
            payload: Numbered,
            retryLimit: 3,
            handler: async () => {
              runs += 1;
              await new Promise((resolve) => setTimeout(resolve, 2_500));
            },
          },
        ],
        { lease },
      );
      await sendMany(other, 'test.long', 1);
      await until(
        async () => (await jobRows('test.long')).some((j) => j.state === 'completed'),
        10_000,
        'the long job',
      );
      // Two instances, a 2.5 s handler and a 1 s lease: it ran once, its lease renewed by the worker holding it.
      expect(runs).toBe(1);

      // An instance already running notices a job whose holder stopped renewing (killed), without a restart.
      const ran: number[] = [];
      await startQueue(
        [
          {
            name: 'test.lapsed',
            payload: Numbered,
            retryLimit: 3,
            handler: async () => {
              ran.push(Date.now());
            },
          },
        ],
        { lease },
      );
      const id = await orphanedJob('test.lapsed');
      const orphanedAt = Date.now();
      await until(() => ran.length === 1, 10_000, 'the lapsed job');
      expect(ran[0] - orphanedAt).toBeLessThan(3_000);
      await until(
        async () => (await jobRows('test.lapsed')).some((j) => j.id === id && j.state === 'completed'),
        5_000,
        'completion',
      );
    },
  );
});
