import { PgBoss } from 'pg-boss';
import type { Database, Tx } from '../db/client.ts';

/**
 * A durable job: a name, its retry policy and a handler. Handlers must be safe to run twice (a crash after
 * the work but before the completion is recorded runs it again).
 */
export type JobDefinition<T extends object> = {
  name: string;
  retryLimit?: number;
  /** First retry delay in seconds; doubled each retry when retryBackoff. */
  retryDelay?: number;
  retryBackoff?: boolean;
  retryDelayMax?: number;
  expireInSeconds?: number;
  /** Also run on this cron schedule (UTC); pg-boss's cron makes one job per tick across all instances. */
  cron?: string;
  handler(data: T, meta: { id: string; retryCount: number; retryLimit: number }): Promise<void>;
};

export type SendOptions = { startAfter?: Date | number; singletonKey?: string };

export type JobQueue = {
  define<T extends object>(definition: JobDefinition<T>): void;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Enqueues inside `tx` so the job commits (or rolls back) with the state change that caused it. */
  send<T extends object>(tx: Tx | null, name: string, data: T, options?: SendOptions): Promise<string | null>;
  /** Wakes this process's worker for `name` now instead of at its next poll; call after the commit. */
  notify(name: string): void;
  /** Resolves when no job of these queues is queued or active (tests, shutdown). */
  drain(names?: string[], timeoutMs?: number): Promise<void>;
};

export function createJobQueue(database: Database, options: { pollSeconds: number; log?: (msg: string, err?: unknown) => void }): JobQueue {
  const definitions = new Map<string, JobDefinition<any>>();
  const workerIds = new Map<string, string>();
  const boss = new PgBoss({ db: database.sql, schema: 'pgboss', supervise: true, schedule: true, superviseIntervalSeconds: 60 });
  boss.on('error', (error) => options.log?.('job queue error', error));
  let started = false;

  return {
    define(definition) {
      if (started) throw new Error(`job ${definition.name} defined after start`);
      definitions.set(definition.name, definition);
    },

    async start() {
      await boss.start();
      for (const definition of definitions.values()) {
        const queueOptions = {
          retryLimit: definition.retryLimit ?? 5,
          retryDelay: definition.retryDelay ?? 5,
          retryBackoff: definition.retryBackoff ?? true,
          retryDelayMax: definition.retryDelayMax ?? 3600,
          expireInSeconds: definition.expireInSeconds ?? 600,
        };
        if (await boss.getQueue(definition.name)) await boss.updateQueue(definition.name, queueOptions);
        else await boss.createQueue(definition.name, queueOptions);
        const workerId = await boss.work(definition.name, { pollingIntervalSeconds: Math.max(0.5, options.pollSeconds), includeMetadata: true, batchSize: 1 }, async (jobs) => {
          for (const job of jobs) {
            await definition.handler(job.data, { id: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit });
          }
        });
        workerIds.set(definition.name, workerId);
        if (definition.cron) await boss.schedule(definition.name, definition.cron);
      }
      started = true;
    },

    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 5000 });
    },

    async send(tx, name, data, sendOptions = {}) {
      if (!definitions.has(name)) throw new Error(`unknown job ${name}`);
      return boss.send(name, data, {
        ...(sendOptions.startAfter !== undefined ? { startAfter: sendOptions.startAfter } : {}),
        ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
        ...(tx ? { db: database.sqlInTx(tx) } : {}),
      });
    },

    notify(name) {
      const workerId = workerIds.get(name);
      if (workerId) boss.notifyWorker(workerId);
    },

    async drain(names = [...definitions.keys()], timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        // Live count: pg-boss's queue statistics are refreshed by its maintenance loop, not per job.
        const { rows } = await database.sql.executeSql(
          "select count(*)::int as busy from pgboss.job where name = any($1::text[]) and state in ('created', 'retry', 'active')",
          [names],
        );
        if (rows[0].busy === 0) return;
        if (Date.now() > deadline) throw new Error('job queue did not drain in time');
        for (const name of names) this.notify(name);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}
