// Job latency: time from the commit of a transaction that enqueued a job to the start of its handler,
// with and without the in-process wake-up, on the embedded database or on DATABASE_URL. On PostgreSQL also the
// crash path: a worker process is killed (SIGKILL) while its job runs, and the time until another instance runs the
// job again is measured (the lease of platform/jobs/queue.ts; docs/operations.md, "Library private parts: verdicts").
// Run: npm run bench:jobs  (DATABASE_URL=postgres://... npm run bench:jobs)
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/platform/db/client.ts';
import { Type } from 'typebox';
import { createJobQueue, defineJob } from '../src/platform/jobs/queue.ts';

const databaseUrl = process.env.DATABASE_URL;
const latency = defineJob({ name: 'bench.latency', payload: Type.Object({ n: Type.Integer() }), retryLimit: 0 });
/** A job whose first run never ends: its worker is killed during it. */
const lost = defineJob({ name: 'bench.lost', payload: Type.Object({ sentAt: Type.Number() }), retryLimit: 2 });

if (process.argv[2] === '--worker-to-kill') {
  // The child: sends a `lost` job and runs it until it is killed, telling the parent when it started.
  const database = await openDatabase({ databaseUrl });
  const queue = createJobQueue(database, { pollSeconds: 0.5 });
  queue.define({
    ...lost,
    handler: async () => {
      process.send?.('running');
      await new Promise(() => {});
    },
  });
  await queue.start();
  await database.db.transaction((tx) => queue.send(tx, lost, { sentAt: Date.now() }));
  queue.notify(lost);
  await new Promise(() => {});
}

const database = await openDatabase({ databaseUrl });
const queue = createJobQueue(database, { pollSeconds: 0.5 });
let resolveNext: ((at: number) => void) | null = null;
queue.define({
  ...latency,
  handler: async () => {
    resolveNext?.(performance.now());
  },
});
let resolveRerun: ((at: number) => void) | null = null;
queue.define({
  ...lost,
  handler: async () => {
    resolveRerun?.(performance.now());
  },
});

async function measure(wake: boolean, runs: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < runs; i++) {
    const handled = new Promise<number>((resolve) => {
      resolveNext = resolve;
    });
    await database.db.transaction(async (tx) => {
      await queue.send(tx, latency, { n: i });
    });
    const committedAt = performance.now();
    if (wake) queue.notify(latency);
    latencies.push((await handled) - committedAt);
  }
  return latencies.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const kind = databaseUrl ? 'postgres' : 'pglite';

if (databaseUrl) {
  // Before this process's workers start, so only the child can take the job first.
  const child = fork(fileURLToPath(import.meta.url), ['--worker-to-kill'], { stdio: 'inherit' });
  await new Promise<void>((resolve) => child.on('message', (message) => message === 'running' && resolve()));
  child.kill('SIGKILL');
  const killedAt = performance.now();
  const rerun = new Promise<number>((resolve) => {
    resolveRerun = resolve;
  });
  await queue.start();
  console.log(`${kind} job of a killed worker run again after ${((await rerun) - killedAt).toFixed(0)} ms`);
} else {
  await queue.start();
}

for (const [label, wake, runs] of [
  ['polling only (0.5 s)', false, 20],
  ['with wake-up after commit', true, 200],
] as const) {
  const l = await measure(wake, runs);
  console.log(`${kind} ${label}: n=${runs} median ${pct(l, 0.5).toFixed(1)} ms, p99 ${pct(l, 0.99).toFixed(1)} ms`);
}
await queue.stop();
await database.close();
