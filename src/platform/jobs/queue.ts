import { PgBoss } from 'pg-boss';
import { Type, type Static, type TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { pino } from 'pino';
import type { Database, Tx } from '../db/client.ts';
import { withLogger, type Logger } from '../logger.ts';
import { batchPerTurn } from '../db/batch-per-turn.ts';

/**
 * What a durable job is: its name, its payload schema and its run policy, without the code that runs it. The module
 * that owns a job exports its definition as a const (`defineJob`); senders pass it to `send`, so the payload's type
 * comes from the schema at compile time. The name is what pg-boss stores: renaming a job strands the jobs already
 * queued under the old name.
 */
export type JobDefinition<S extends TSchema = TSchema> = {
  name: string;
  /** Checked when a job is sent (a mismatch is a programming error and throws) and before it runs. */
  payload: S;
  retryLimit?: number;
  /** First retry delay in seconds; doubled each retry when retryBackoff. */
  retryDelay?: number;
  retryBackoff?: boolean;
  retryDelayMax?: number;
  /** One attempt running longer than this (seconds, default 600) is abandoned and counts as failed. */
  expireInSeconds?: number;
  /** How many jobs of this queue one process runs at once (default 1). */
  concurrency?: number;
  /** Also run on this cron schedule (UTC); pg-boss's cron makes one job per tick across all instances. */
  cron?: string;
  /**
   * At most one job waiting to run (pg-boss's `short` policy: a send while one waits adds nothing). Set when the
   * queue is created; pg-boss cannot change a queue's policy afterwards.
   */
  oneWaiting?: boolean;
  /** Finished jobs kept this long (pg-boss's deleteAfterSeconds; default 7 days). */
  keepSeconds?: number;
  /** The queue always holds its next run (a scheduler's tick): `drain()` does not wait for it by default. */
  perpetual?: boolean;
};

/**
 * A definition with the code that runs it: what the registry (`src/job-registry.ts`) gives the queue. Handlers must
 * be safe to run twice (a crash after the work but before the completion is recorded runs it again) and, with
 * `concurrency` above 1 or several instances, safe to run alongside other jobs of the same queue.
 */
export type Job<S extends TSchema = TSchema> = JobDefinition<S> & {
  handler(data: Static<S>, meta: JobMeta): Promise<void>;
};

/** Declares a job's definition; `const` keeps the payload schema's exact type for `send`. */
export function defineJob<const S extends TSchema>(definition: JobDefinition<S>): JobDefinition<S> {
  return Object.freeze(definition);
}

/** The payload of a job that carries none, such as one made by a cron schedule. */
export const NoPayload = Type.Object({});

export type JobMeta = {
  id: string;
  retryCount: number;
  retryLimit: number;
  /** The service's logger, its lines tagged with this job's name and id. */
  log: Logger;
};

export type SendOptions = { startAfter?: Date | number; singletonKey?: string };

export type JobQueue = {
  define<S extends TSchema>(job: Job<S>): void;
  start(): Promise<void>;
  /**
   * Stops fetching at once, gives the handlers already running up to `graceMs` (default 5 s) to finish, and puts
   * the jobs of those still running back in the queue (run again at once, here after a restart or by another
   * instance; handlers are safe to run twice). The queue can still `send` until the database closes.
   */
  stop(options?: { graceMs?: number }): Promise<void>;
  /**
   * Enqueues a job of `job` (its exported definition) inside `tx`, so the job commits (or rolls back) with the state
   * change that caused it. `data` is typed by the definition's payload schema; it is checked again at run time and
   * a mismatch throws. Null when pg-boss added nothing (a `oneWaiting` queue that already holds a waiting job).
   */
  send<S extends TSchema>(
    tx: Tx | null,
    job: JobDefinition<S>,
    data: Static<S>,
    options?: SendOptions,
  ): Promise<string | null>;
  /**
   * `send` for many jobs of one queue in one statement (pg-boss insert, the queue's retry policy), inside `tx`:
   * what a batch (a survey dispatch's mails) uses instead of a round trip per job. Throws, enqueuing nothing, when
   * any payload does not match the schema.
   */
  sendMany<S extends TSchema>(tx: Tx | null, job: JobDefinition<S>, data: Static<S>[]): Promise<void>;
  /**
   * Whether a job of `job` whose payload contains `match` (JSON containment: `{ workflowId: 7 }`) is still
   * waiting or running: the question "is a job for this record still live", without modules reading pg-boss's tables.
   */
  isLive<S extends TSchema>(job: JobDefinition<S>, match: Partial<Static<S>>): Promise<boolean>;
  /** Wakes this process's worker for `job` now instead of at its next poll; call after the commit. */
  notify(job: JobDefinition): void;
  /**
   * Resolves when no job of these queues is queued or active (tests, shutdown); by default every queue but the
   * `perpetual` ones, which always hold their next run.
   */
  drain(jobs?: JobDefinition[], timeoutMs?: number): Promise<void>;
  /** Jobs waiting (created, retry) or running (active), per queue and state, counted now (metrics). */
  depths(): Promise<{ queue: string; state: string; count: number }[]>;
  /** Every defined queue's depth and its oldest waiting job, counted now (the operator's GET /admin/v1/queues). */
  stats(): Promise<QueueStats[]>;
};

export type QueueStats = {
  queue: string;
  /** Jobs not yet active (created and retry), active, every job kept. */
  queued: number;
  active: number;
  total: number;
  /** Of the queued, those held until a later time (a retry's back-off, a delayed job). */
  deferred: number;
  /** By state: waiting for a first run, waiting for a retry, failed (kept until pg-boss deletes them). */
  created: number;
  retry: number;
  failed: number;
  /** The waiting (created or retry) job created first, if any. */
  oldestWaitingCreatedAt: Date | null;
};

export type JobQueueOptions = {
  pollSeconds: number;
  /** Unset: silent. */
  logger?: Logger;
  /** Overrides of the lease timing (tests); see LEASE_SECONDS. */
  lease?: { seconds: number; heartbeatMs: number };
  /** Told of every finished attempt: its queue, outcome and seconds from due to done (metrics). */
  onAttempt?: (queue: string, outcome: 'completed' | 'failed', seconds: number) => void;
};

/**
 * Crash safety on PostgreSQL, where several instances share the queue: a fetched job is held on a lease of
 * LEASE_SECONDS (pg-boss's per-job expire_seconds), which the running process renews every HEARTBEAT_MS
 * while the handler runs, however long it takes. A process killed mid-job stops renewing; within
 * LEASE_SECONDS + HEARTBEAT_MS any live instance (or the restarted one) puts the job back, to run at once.
 * The lease tolerates a heartbeat delayed by some 7 s (a stalled event loop or pool); a job reclaimed from a
 * worker that was merely slow runs twice, which handlers allow. The lease, the reclaim, isLive, stats() and the
 * refusal of a broken payload read or write pg-boss's job table, which its API does not offer in 12.5.4: pinned
 * exactly, guarded by test/platform/pg-boss-contract.test.ts (docs/operations.md, "Library private parts: verdicts").
 */
const LEASE_SECONDS = 10;
const HEARTBEAT_MS = 3_000;
const DEFAULT_ATTEMPT_SECONDS = 600;
const STOP_GRACE_MS = 5_000;

type FetchedJob = {
  id: string;
  name: string;
  data: unknown;
  retryCount: number;
  retryLimit: number;
  startAfter?: Date;
};

/** A definition with its payload schema compiled once. */
type Registered = { definition: Job<TSchema>; payload: Validator<{}, TSchema> };

function payloadProblems(registered: Registered, data: unknown): string {
  return registered.payload
    .Errors(data)
    .map((error) => `${error.instancePath || '/'} ${error.message}`)
    .join('; ');
}

export function createJobQueue(database: Database, options: JobQueueOptions): JobQueue {
  const definitions = new Map<string, Registered>();
  const workers = new Map<string, QueueWorker>();
  const pollMs = Math.max(0.5, options.pollSeconds) * 1000;
  const logger = options.logger ?? pino({ level: 'silent' });
  const log = (message: string, error?: unknown) => logger.error({ err: error }, message);
  // The embedded database belongs to this one process: every job found active at start was left by a
  // previous run of it, and no other process can hold one, so there leases would only add risk.
  const shared = database.kind === 'postgres';
  const lease = options.lease ?? { seconds: LEASE_SECONDS, heartbeatMs: HEARTBEAT_MS };
  // supervise: pg-boss's own expiry of active jobs (a fallback behind the lease reclaim below) and archiving.
  const boss = new PgBoss({
    db: database.sql,
    schema: 'pgboss',
    supervise: true,
    schedule: true,
    superviseIntervalSeconds: 60,
  });
  boss.on('error', (error) => log('job queue error', error));
  let started = false;
  let leaseTimer: NodeJS.Timeout | undefined;
  /** The lease tick under way, if any: stop() waits for it so no query runs after the database closes. */
  let pendingTick: Promise<void> = Promise.resolve();

  /** Shared database only: renews the lease of every job this process is running and reclaims lapsed ones. */
  async function leaseTick(): Promise<void> {
    const running = [...workers.values()].flatMap((w) => w.runningIds());
    if (running.length > 0) {
      // Rows locked by something else are skipped, never waited for: a batch of jobs being completed (pg-boss's
      // complete, one statement for many rows) locks the same rows in another order, and waiting made the two
      // deadlock (seen in a 10,000-mail burst: the completion failed, the mail job ran again after its lease). A job
      // skipped here is being completed or failed; one still running is renewed on the next tick, well inside its lease.
      await database.sql.executeSql(
        `update pgboss.job set expire_seconds = ceil(extract(epoch from now() - started_on))::int + $3
         where name = any($1::text[]) and id in (
           select id from pgboss.job where name = any($1::text[]) and id = any($2::uuid[]) and state = 'active' for update skip locked)`,
        [[...definitions.keys()], running, lease.seconds],
      );
    }
    await reclaim(false);
  }

  /**
   * Puts active jobs whose worker is gone back in the queue, to run at once: the crash was not the job's
   * fault, so pg-boss's retry back-off does not apply, but the lost run counts as an attempt (the next fetch
   * increments retry_count), so a job that kills its process cannot loop for ever. A job lost on its last
   * attempt is failed as pg-boss would. `all`: every active job (the embedded database at start).
   */
  async function reclaim(all: boolean): Promise<void> {
    const names = [...definitions.keys()];
    const lapsed = all ? 'true' : "started_on + expire_seconds * interval '1 second' < now()";
    // A renewed lease may have grown long; the next holder starts from a fresh one.
    const { rows: requeued } = await database.sql.executeSql(
      `update pgboss.job set state = 'retry', start_after = now()${shared ? `, expire_seconds = ${Math.ceil(lease.seconds)}` : ''},
         output = jsonb_build_object('message', 'worker lost while the job was active; run again')
       where name = any($1::text[]) and id in (
         select id from pgboss.job where name = any($1::text[]) and state = 'active' and retry_count < retry_limit and ${lapsed} for update skip locked)
       returning id, name`,
      [names],
    );
    const { rows: exhausted } = await database.sql.executeSql(
      `select id, name from pgboss.job where name = any($1::text[]) and state = 'active' and retry_count >= retry_limit and ${lapsed}`,
      [names],
    );
    for (const job of exhausted) await boss.fail(job.name, job.id, { message: 'worker lost during the last attempt' });
    for (const job of [...requeued, ...exhausted])
      logger.warn(
        { job: job.name, jobId: job.id },
        `job worker lost; ${requeued.includes(job) ? 'queued again' : 'failed'}`,
      );
    for (const name of new Set(requeued.map((job) => job.name as string))) workers.get(name)?.wake();
  }

  const queue: JobQueue = {
    define(job) {
      if (started) throw new Error(`job ${job.name} defined after start`);
      definitions.set(job.name, { definition: job as unknown as Job<TSchema>, payload: Compile(job.payload) });
    },

    async start() {
      await boss.start();
      for (const { definition } of definitions.values()) {
        const queueOptions = {
          retryLimit: definition.retryLimit ?? 5,
          retryDelay: definition.retryDelay ?? 5,
          retryBackoff: definition.retryBackoff ?? true,
          retryDelayMax: definition.retryDelayMax ?? 3600,
          // What a job holds when fetched: the lease on a shared database, else the whole attempt.
          expireInSeconds: shared ? lease.seconds : attemptSeconds(definition),
          ...(definition.keepSeconds ? { deleteAfterSeconds: definition.keepSeconds } : {}),
        };
        if (await boss.getQueue(definition.name)) await boss.updateQueue(definition.name, queueOptions);
        else
          await boss.createQueue(definition.name, {
            ...queueOptions,
            ...(definition.oneWaiting ? { policy: 'short' } : {}),
          });
        if (definition.cron) await boss.schedule(definition.name, definition.cron);
      }
      await reclaim(!shared);
      for (const registered of definitions.values()) {
        const worker = new QueueWorker(boss, database, registered, pollMs, logger, options.onAttempt);
        const { definition } = registered;
        workers.set(definition.name, worker);
        worker.start();
      }
      if (shared) {
        leaseTimer = setInterval(() => {
          pendingTick = leaseTick().catch((error) => log('job lease renewal failed', error));
        }, lease.heartbeatMs);
        leaseTimer.unref();
      }
      started = true;
    },

    async stop(options = {}) {
      if (!started) return;
      started = false;
      const graceMs = Math.max(0, options.graceMs ?? STOP_GRACE_MS);
      // The lease keeps being renewed while handlers finish (on a shared database another instance would
      // otherwise reclaim a job that is still running here); it stops with them.
      const unfinished = (await Promise.all([...workers.values()].map((w) => w.stop(graceMs)))).flat();
      clearInterval(leaseTimer);
      await pendingTick;
      // Handlers still running after the grace period: their jobs go back to the queue for the next start (or
      // another instance, now). Their late outcome is ignored: the job is no longer theirs.
      if (unfinished.length > 0) {
        for (const worker of workers.values()) worker.abandon();
        await database.sql
          .executeSql(
            `update pgboss.job set state = 'retry', start_after = now() where name = any($1::text[]) and id = any($2::uuid[]) and state = 'active'`,
            [[...definitions.keys()], unfinished],
          )
          .then(
            () =>
              logger.warn(
                { jobIds: unfinished },
                `${unfinished.length} job(s) still running at stop were put back in the queue`,
              ),
            (error) => log('could not requeue unfinished jobs at stop', error),
          );
      }
      workers.clear();
      await boss.stop({ graceful: true, timeout: 1000 });
    },

    async send(tx, job, data, sendOptions = {}) {
      const { name } = job;
      const registered = definitions.get(name);
      if (!registered) throw new Error(`unknown job ${name}`);
      if (!registered.payload.Check(data))
        throw new Error(`job ${name}: invalid payload ${JSON.stringify(data)}: ${payloadProblems(registered, data)}`);
      return boss.send(name, data, {
        ...(sendOptions.startAfter !== undefined ? { startAfter: sendOptions.startAfter } : {}),
        ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
        ...(tx ? { db: database.sqlInTx(tx) } : {}),
      });
    },

    async sendMany(tx, job, data) {
      const { name } = job;
      const registered = definitions.get(name);
      if (!registered) throw new Error(`unknown job ${name}`);
      for (const item of data) {
        if (!registered.payload.Check(item))
          throw new Error(`job ${name}: invalid payload ${JSON.stringify(item)}: ${payloadProblems(registered, item)}`);
      }
      if (data.length === 0) return;
      await boss.insert(
        name,
        data.map((item) => ({ data: item })),
        tx ? { db: database.sqlInTx(tx) } : {},
      );
    },

    notify(job) {
      workers.get(job.name)?.wake();
    },

    async isLive({ name }, match) {
      const { rows } = await database.sql.executeSql(
        "select 1 from pgboss.job where name = $1 and state in ('created', 'retry', 'active') and data @> $2::jsonb limit 1",
        [name, JSON.stringify(match)],
      );
      return rows.length > 0;
    },

    async depths() {
      // Only the live states, which pg-boss's indexes find without reading the finished jobs it keeps for days: the
      // metrics ask on every scrape (stats() counts every job kept, for the operator's occasional look).
      const { rows } = await database.sql.executeSql(
        "select name, state, count(*)::int as count from pgboss.job where name = any($1::text[]) and state in ('created', 'retry', 'active') group by name, state",
        [[...definitions.keys()]],
      );
      return rows.map((row) => ({ queue: row.name as string, state: row.state as string, count: Number(row.count) }));
    },

    async stats() {
      const names = [...definitions.keys()].sort();
      // A private read (docs/operations.md, "Library private parts: verdicts — pg-boss"): pg-boss's getQueueStats
      // neither splits the waiting by state nor names the oldest, which the operator's view answers. One grouped
      // count over the job table answers all of it; test/platform/pg-boss-contract.test.ts guards the columns.
      const { rows } = await database.sql.executeSql(
        `select name,
           (count(*) filter (where state = 'created'))::int as created,
           (count(*) filter (where state = 'retry'))::int as retry,
           (count(*) filter (where state = 'active'))::int as active,
           (count(*) filter (where state = 'failed'))::int as failed,
           (count(*) filter (where state in ('created', 'retry') and start_after > now()))::int as deferred,
           count(*)::int as total,
           min(created_on) filter (where state in ('created', 'retry')) as oldest
         from pgboss.job where name = any($1::text[]) group by name`,
        [names],
      );
      const byName = new Map(rows.map((row) => [row.name as string, row]));
      return names.map((name) => {
        const own = byName.get(name);
        const count = (column: string) => Number(own?.[column] ?? 0);
        const oldest = own?.oldest;
        return {
          queue: name,
          queued: count('created') + count('retry'),
          deferred: count('deferred'),
          active: count('active'),
          total: count('total'),
          created: count('created'),
          retry: count('retry'),
          failed: count('failed'),
          oldestWaitingCreatedAt: oldest ? new Date(oldest as string | Date) : null,
        };
      });
    },

    async drain(jobs, timeoutMs = 30_000) {
      const names = (jobs ?? [...definitions.values()].map((r) => r.definition).filter((d) => !d.perpetual)).map(
        (d) => d.name,
      );
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        // pg-boss's public statistics, counted live from the job table: waiting (created, retry) and active.
        const counted = await Promise.all(names.map((name) => boss.getQueueStats(name)));
        if (counted.every((q) => Number(q.queuedCount) + Number(q.activeCount) === 0)) return;
        if (Date.now() > deadline) throw new Error('job queue did not drain in time');
        for (const name of names) workers.get(name)?.wake();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
  return queue;
}

function attemptSeconds(definition: JobDefinition): number {
  return definition.expireInSeconds ?? DEFAULT_ATTEMPT_SECONDS;
}

/**
 * One queue's worker in this process. It keeps fetching while the queue yields jobs, runs up to
 * `concurrency` of them at once, refills each free slot as a job ends, and only when a fetch finds nothing
 * does it sleep until woken (notify, after a commit) or until the poll interval (jobs sent by other
 * instances, retries coming due). pg-boss's own work() loop instead fetches one batch, runs it to the end
 * and then sleeps out the poll interval, so a queue drained one job per interval.
 */
class QueueWorker {
  private readonly running = new Map<string, Promise<void>>();
  private readonly concurrency: number;
  /** Free slots that make a worker working through a backlog fetch again (see begin()). */
  private readonly refillBatch: number;
  private stopping = false;
  /** Set once stop() handed the still-running jobs back to the queue: their outcomes are no longer recorded. */
  private abandoned = false;
  /** Something happened since the last fetch began (a wake-up, or a slot freed while more jobs wait). */
  private woken = false;
  private alarm: (() => void) | null = null;
  /** The last fetch filled every free slot, so more jobs may be waiting. */
  private backlog = false;
  private loop: Promise<void> | null = null;
  /**
   * Records a success. Jobs that end in the same turn of the event loop are completed by one statement: in a
   * burst that saves a query per job, which on the embedded database (one statement at a time) is most of
   * the queue's own cost.
   */
  private readonly complete = batchPerTurn<string, void>(async (ids) => {
    await this.boss.complete(this.definition.name, ids);
    return ids.map(() => undefined);
  });
  private readonly boss: PgBoss;
  private readonly database: Database;
  private readonly registered: Registered;
  private readonly definition: Job<TSchema>;
  private readonly pollMs: number;
  private readonly logger: Logger;
  private readonly onAttempt: JobQueueOptions['onAttempt'];

  constructor(
    boss: PgBoss,
    database: Database,
    registered: Registered,
    pollMs: number,
    logger: Logger,
    onAttempt?: JobQueueOptions['onAttempt'],
  ) {
    this.onAttempt = onAttempt;
    this.boss = boss;
    this.database = database;
    this.registered = registered;
    this.definition = registered.definition;
    this.pollMs = pollMs;
    this.logger = logger.child({ job: registered.definition.name });
    this.concurrency = Math.max(1, Math.floor(registered.definition.concurrency ?? 1));
    this.refillBatch = Math.max(1, Math.ceil(this.concurrency / 4));
  }

  start(): void {
    this.loop = this.run();
  }

  runningIds(): string[] {
    return [...this.running.keys()];
  }

  wake(): void {
    this.woken = true;
    this.alarm?.();
  }

  abandon(): void {
    this.abandoned = true;
  }

  /** Stops fetching and waits up to `graceMs` for running handlers; returns the ids still running. */
  async stop(graceMs: number): Promise<string[]> {
    this.stopping = true;
    this.alarm?.();
    await this.loop;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.running.values()]),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
    return this.runningIds();
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      this.woken = false;
      const free = this.concurrency - this.running.size;
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs = await this.boss.fetch(this.definition.name, { batchSize: free, includeMetadata: true });
          fetched = jobs.length;
          this.backlog = fetched === free;
          for (const job of jobs) this.begin(job as unknown as FetchedJob);
        } catch (error) {
          this.logger.error({ err: error }, 'job fetch failed');
        }
      }
      if (this.stopping) break;
      // Slots left and the last fetch found work: fetch again at once.
      if (fetched > 0 && this.running.size < this.concurrency) continue;
      if (this.woken) continue;
      // Full: sleep until a slot frees (begin() wakes us); idle: until notified or the next poll.
      await this.sleep(this.running.size >= this.concurrency ? null : this.pollMs);
    }
  }

  private sleep(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === null ? undefined : setTimeout(() => done(), ms);
      const done = () => {
        clearTimeout(timer);
        this.alarm = null;
        resolve();
      };
      this.alarm = done;
    });
  }

  private begin(job: FetchedJob): void {
    const run = this.attempt(job).finally(() => {
      this.running.delete(job.id);
      // A freed slot matters only when the queue may hold more (or the worker was full and asleep). Working through a
      // backlog, slots are refilled a quarter of the concurrency at a time: one fetch per few jobs rather than one per
      // job (a mail burst fetched 16 mails in 16 statements), at the cost of a few slots idling for a moment.
      const free = this.concurrency - this.running.size;
      if (this.backlog ? free >= this.refillBatch || this.running.size === 0 : free === 1) this.wake();
    });
    this.running.set(job.id, run);
  }

  /**
   * A payload that does not match the schema (a job sent by an older or broken version, or edited by hand)
   * would fail the same way on every retry: it fails at once, with pg-boss's own bookkeeping (its retry limit
   * is lowered to the attempts made, so the fail is final).
   */
  private async refuse(job: FetchedJob, log: Logger, data: unknown): Promise<void> {
    const problems = payloadProblems(this.registered, data);
    log.error({ payload: data, problems }, 'job payload does not match its schema; failed without retry');
    try {
      await this.database.sql.executeSql(
        "update pgboss.job set retry_limit = retry_count where name = $1 and id = $2 and state = 'active'",
        [this.definition.name, job.id],
      );
      await this.boss.fail(this.definition.name, job.id, { message: `invalid payload: ${problems}` });
    } catch (error) {
      log.error({ err: error }, 'could not record the refusal of an invalid payload');
    }
  }

  private async attempt(job: FetchedJob): Promise<void> {
    const { name } = this.definition;
    const log = this.logger.child({ jobId: job.id });
    // pg-boss's cron stores no payload for scheduled jobs; their schema is an empty object.
    const data = job.data ?? {};
    if (!this.registered.payload.Check(data)) return this.refuse(job, log, data);
    let outcome: { ok: true } | { ok: false; error: unknown };
    log.debug({ attempt: job.retryCount + 1 }, 'job started');
    try {
      // The handler's own lines (through the services' `Log`) carry this job's name and id.
      const run = withLogger(log, () =>
        this.definition.handler(data, { id: job.id, retryCount: job.retryCount, retryLimit: job.retryLimit, log }),
      );
      await withinSeconds(run, attemptSeconds(this.definition));
      outcome = { ok: true };
    } catch (error) {
      outcome = { ok: false, error };
      if (!this.abandoned)
        log.warn(
          { err: error, payload: data, attempt: job.retryCount + 1, attempts: job.retryLimit + 1 },
          'job attempt failed',
        );
    }
    // Handed back to the queue at stop while it ran: it runs again elsewhere, and the database may be gone.
    if (this.abandoned) {
      log.info({ ok: outcome.ok }, 'job ended after being handed back at stop; outcome not recorded');
      return;
    }
    if (job.startAfter)
      this.onAttempt?.(
        name,
        outcome.ok ? 'completed' : 'failed',
        Math.max(0, Date.now() - new Date(job.startAfter).getTime()) / 1000,
      );
    try {
      if (outcome.ok) await this.complete(job.id);
      else await this.boss.fail(name, job.id, { message: errorText(outcome.error) });
    } catch (error) {
      // The job stays active; its lease (or pg-boss's expiry) puts it back and it runs again.
      log.error({ err: error }, 'could not record the job outcome');
    }
  }
}

function withinSeconds<T>(work: Promise<T>, seconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`handler ran longer than ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

function errorText(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)) || 'unknown error';
}
