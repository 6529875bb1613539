// Job latency: time from the commit of a transaction that enqueued a job to the start of its handler,
// with and without the in-process wake-up, on the embedded database or on DATABASE_URL.
// Run: npm run bench:jobs  (DATABASE_URL=postgres://... npm run bench:jobs)
import { openDatabase } from '../src/platform/db/client.ts';
import { Type } from 'typebox';
import { createJobQueue } from '../src/platform/jobs/queue.ts';

const databaseUrl = process.env.DATABASE_URL;
const database = await openDatabase({ databaseUrl });
const queue = createJobQueue(database, { pollSeconds: 0.5 });
let resolveNext: ((at: number) => void) | null = null;
queue.define({
  name: 'bench.latency',
  payload: Type.Object({ n: Type.Integer() }),
  retryLimit: 0,
  handler: async () => {
    resolveNext?.(performance.now());
  },
});
await queue.start();

async function measure(wake: boolean, runs: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < runs; i++) {
    const handled = new Promise<number>((resolve) => {
      resolveNext = resolve;
    });
    await database.db.transaction(async (tx) => {
      await queue.send(tx, 'bench.latency', { n: i });
    });
    const committedAt = performance.now();
    if (wake) queue.notify('bench.latency');
    latencies.push((await handled) - committedAt);
  }
  return latencies.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
for (const [label, wake, runs] of [
  ['polling only (0.5 s)', false, 20],
  ['with wake-up after commit', true, 200],
] as const) {
  const l = await measure(wake, runs);
  console.log(
    `${databaseUrl ? 'postgres' : 'pglite'} ${label}: n=${runs} median ${pct(l, 0.5).toFixed(1)} ms, p99 ${pct(l, 0.99).toFixed(1)} ms`,
  );
}
await queue.stop();
await database.close();
