import { Type } from 'typebox';
import type { Db } from '../../platform/db/client.ts';
import type { SecretBox } from '../../platform/crypto/secrets.ts';
import { defineJob, NoPayload, type Job, type JobQueue } from '../../platform/jobs/queue.ts';
import type { Log } from '../../platform/logger.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import type { Outbound } from '../../platform/outbound/outbound.ts';
import {
  clearCallbackFailing,
  claimDeliveriesToQueue,
  findDeliveriesForAttempt,
  markQueued,
  recordAttempts,
  type AttemptRecord,
  type DeliveryRow,
} from './webhooks.repo.ts';
import { webhookSignature } from './webhook-signature.ts';
import { settleCallbacks, type CallbackOutcome } from './callback-pause.ts';

/** Deliveries attempted together (one app's, at most JOB_DELIVERIES): one job, one read, attempts in parallel. */
export const WebhookDeliveryPayload = Type.Object({
  deliveryIds: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 50 }),
});
const JOB_DELIVERIES = 20;

/** RUNTIME.md: a non-2xx answer is retried for at least 24 hours, counted from the event (or the replay). */
export const RETRY_WINDOW_MS = 24 * 3600 * 1000;
const FIRST_RETRY_MS = 10_000;
const MAX_RETRY_MS = 3600 * 1000;
/** Connect to response head; a receiver slower than this fails the attempt (and is retried), it never holds a worker long. */
export const ATTEMPT_TIMEOUT_MS = 5_000;
/** The answer is not used; this much of it is read and dropped so the connection ends cleanly. */
const RESPONSE_MAX_BYTES = 64 * 1024;
/**
 * Jobs one process runs at once (each up to JOB_DELIVERIES attempts in parallel). An attempt holds no database
 * connection while it waits on the receiver, so this bounds sockets, not the pool; a dead receiver at 5 s holds
 * only the jobs of its own app's deliveries.
 */
const DELIVERY_CONCURRENCY = 16;

/** Delay before the retry that follows the n-th failed attempt: 10 s doubling to at most 1 hour (about 31 attempts in 24 hours). */
export function retryDelayMs(failedAttempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, failedAttempts - 1), MAX_RETRY_MS);
}

export type WebhookDeliveryDeps = {
  db: Db;
  outbound: Outbound;
  secrets: SecretBox;
  /** The owner's mail when a dead callback is paused; `publicUrl` makes its link to the business apps screen. */
  outbox: Outbox;
  publicUrl: string;
  onOutcome?: (outcome: 'delivered' | 'failed' | 'dead') => void;
};

export const WEBHOOK_DELIVER_JOB = defineJob({
  name: 'webhook.deliver',
  payload: WebhookDeliveryPayload,
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 300,
  expireInSeconds: 60,
  concurrency: DELIVERY_CONCURRENCY,
});

/**
 * One attempt of each of the job's deliveries. The HTTP outcome is recorded, never thrown: the retry schedule
 * lives on the row (next_attempt_at), which the dispatcher turns into the next job when it is due. A throw (the
 * database failing) leaves the rows not yet recorded as they were, and pg-boss retries the job; a delivery whose
 * attempt was recorded is skipped then.
 */
export function webhookDeliveryJob(deps: WebhookDeliveryDeps): Job<typeof WebhookDeliveryPayload> {
  return {
    ...WEBHOOK_DELIVER_JOB,
    async handler({ deliveryIds }) {
      const targets = await findDeliveriesForAttempt(deps.db, deliveryIds);
      // Recording an attempt clears queued_at: a delivery ended, or already attempted by an earlier run of this job, is skipped.
      const due = targets.filter((target) => target.delivery.status === 'PENDING' && target.delivery.queuedAt !== null);
      // A delivery of a paused app (one that raced the pause) is not attempted: it is held with the app's others.
      const held = due
        .filter((target) => target.app.pausedAt !== null)
        .map((target) => ({ id: target.delivery.id, appId: target.app.id }));
      const attempted = due.filter((target) => target.app.pausedAt === null);
      const tries = await Promise.all(attempted.map((target) => attempt(deps, target.delivery, target.app)));
      const results = tries.map((tried) => tried.record);
      const outcomes = callbackOutcomes(attempted.map((target, index) => ({ appId: target.app.id, ...tries[index] })));
      const failingApps = new Map(attempted.map((target) => [target.app.id, target.app.failingSince !== null]));
      if (held.length === 0 && outcomes.every((outcome) => !outcome.firstFailureAt || outcome.delivered)) {
        // The usual case, every callback answering: one statement for the job's outcomes. When it ends a run of
        // failures, the clearing goes in the same transaction, so no one sees the delivery without its effect on the
        // app. A crash before it leaves the rows queued: they are attempted again (at least once).
        const recovered = outcomes
          .filter((outcome) => outcome.delivered && failingApps.get(outcome.appId))
          .map((outcome) => outcome.appId);
        if (recovered.length === 0) await recordAttempts(deps.db, results);
        else {
          await deps.db.transaction(async (tx) => {
            await recordAttempts(tx, results);
            await clearCallbackFailing(tx, recovered);
          });
        }
      } else {
        const mailed = await deps.db.transaction(async (tx) => {
          await recordAttempts(tx, results);
          return settleCallbacks(tx, deps, outcomes, held, new Date());
        });
        if (mailed) deps.outbox.notify();
      }
      for (const result of results)
        deps.onOutcome?.(result.status === 'DELIVERED' ? 'delivered' : result.status === 'DEAD' ? 'dead' : 'failed');
    },
  };
}

/**
 * Per app, what its attempts said of its callback: delivered when any attempt got a 2xx (the receiver answers),
 * else the time of the first failed attempt. Deliveries dead-lettered without an attempt (a disabled app) say nothing.
 */
function callbackOutcomes(tries: ({ appId: number } & Tried)[]): CallbackOutcome[] {
  const outcomes = new Map<number, CallbackOutcome>();
  for (const { appId, record, attemptedAt } of tries) {
    const outcome = outcomes.get(appId) ?? { appId, delivered: false, firstFailureAt: null };
    if (record.status === 'DELIVERED') outcome.delivered = true;
    else if (attemptedAt && (!outcome.firstFailureAt || attemptedAt < outcome.firstFailureAt))
      outcome.firstFailureAt = attemptedAt;
    outcomes.set(appId, outcome);
  }
  return [...outcomes.values()];
}

type Outcome = { ok: boolean; statusCode: number | null; error: string | null };
type AppForAttempt = { callbackUrl: string; webhookSecret: string | null; status: boolean };
/** What to record, and when the request was made (null: none was, the app being disabled). */
type Tried = { record: AttemptRecord; attemptedAt: Date | null };

/** Makes one attempt (none for a disabled app) and answers what to record. */
async function attempt(deps: WebhookDeliveryDeps, delivery: DeliveryRow, app: AppForAttempt): Promise<Tried> {
  if (!app.status || !app.webhookSecret) {
    return {
      attemptedAt: null,
      record: {
        id: delivery.id,
        status: 'DEAD',
        attempts: delivery.attempts,
        lastAttemptAt: delivery.lastAttemptAt,
        lastStatusCode: delivery.lastStatusCode,
        lastError: app.status ? 'the business app has no webhook secret' : 'the business app is disabled',
        deliveredAt: null,
        deadAt: new Date(),
        nextAttemptAt: null,
      },
    };
  }
  const attemptedAt = new Date();
  const outcome = await post(deps, delivery, app.callbackUrl, app.webhookSecret);
  const common = {
    id: delivery.id,
    attempts: delivery.attempts + 1,
    lastAttemptAt: attemptedAt,
    lastStatusCode: outcome.statusCode,
  };
  if (outcome.ok)
    return {
      attemptedAt,
      record: {
        ...common,
        status: 'DELIVERED',
        lastError: null,
        deliveredAt: new Date(),
        deadAt: null,
        nextAttemptAt: null,
      },
    };
  if (Date.now() - delivery.createdAt.getTime() >= RETRY_WINDOW_MS) {
    return {
      attemptedAt,
      record: {
        ...common,
        status: 'DEAD',
        lastError: outcome.error,
        deliveredAt: null,
        deadAt: new Date(),
        nextAttemptAt: null,
      },
    };
  }
  return {
    attemptedAt,
    record: {
      ...common,
      status: 'PENDING',
      lastError: outcome.error,
      deliveredAt: null,
      deadAt: null,
      nextAttemptAt: new Date(Date.now() + retryDelayMs(common.attempts)),
    },
  };
}

/** POSTs the stored body, signed with the app's current webhook secret, under the outbound rules (https, public addresses). */
async function post(
  deps: WebhookDeliveryDeps,
  delivery: DeliveryRow,
  callbackUrl: string,
  sealedSecret: string,
): Promise<Outcome> {
  let secret: string;
  try {
    secret = deps.secrets.decrypt(sealedSecret);
  } catch (error) {
    return {
      ok: false,
      statusCode: null,
      error: `the webhook secret cannot be decrypted: ${(error as Error).message}`,
    };
  }
  try {
    const response = await deps.outbound.request({
      url: callbackUrl,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-signature-256': webhookSignature(delivery.body, secret),
        'x-event-id': delivery.eventId,
        'x-event-type': delivery.eventType,
        'x-delivery-id': String(delivery.id),
        'x-delivery-attempt': String(delivery.attempts + 1),
      },
      body: delivery.body,
      policy: { requireHttps: true },
      maxRedirects: 0,
      maxBytes: RESPONSE_MAX_BYTES,
      timeoutMs: ATTEMPT_TIMEOUT_MS,
    });
    response.body.on('error', () => {});
    response.body.resume();
    const ok = response.status >= 200 && response.status < 300;
    return { ok, statusCode: response.status, error: ok ? null : `the receiver answered HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, statusCode: null, error: (error as Error).message || 'the request failed' };
  }
}

/** Deliveries queued per transaction; a full batch is followed at once by the next. */
const DISPATCH_BATCH = 500;
/** A queued delivery not reported back after this long lost its job (failed past pg-boss's retries): queued again. */
const STALE_QUEUED_MS = 15 * 60 * 1000;

/** Deliveries grouped by app, at most JOB_DELIVERIES a job, so one app's slow receiver holds only its own jobs. */
export function jobBatches(rows: { id: number; appId: number }[]): number[][] {
  const byApp = new Map<number, number[]>();
  for (const row of rows) byApp.set(row.appId, [...(byApp.get(row.appId) ?? []), row.id]);
  return [...byApp.values()].flatMap((ids) =>
    Array.from({ length: Math.ceil(ids.length / JOB_DELIVERIES) }, (_, i) =>
      ids.slice(i * JOB_DELIVERIES, (i + 1) * JOB_DELIVERIES),
    ),
  );
}

/**
 * The dispatcher's tick, a job of the queue: recordActivity writes delivery rows inside the transactions of other
 * modules, which hold no job queue, so the rows are the outbox and each tick sends a delivery job per due row (first
 * attempts, and retries whose next_attempt_at has come), then queues the next tick one poll interval later. One
 * instance runs a tick at a time; `oneWaiting` keeps a single next tick however many instances (or the cron backstop)
 * ask for one. The cron restarts the chain within a minute should a tick be lost on its last attempt.
 */
export const WEBHOOK_DISPATCH_JOB = defineJob({
  name: 'webhook.dispatch',
  payload: NoPayload,
  cron: '* * * * *',
  oneWaiting: true,
  perpetual: true,
  // A tick every poll interval: finished ticks are not worth pg-boss's 7 days of history.
  keepSeconds: 300,
  retryLimit: 3,
  retryDelay: 1,
  expireInSeconds: 300,
});

export function webhookDispatchJob({
  db,
  jobs,
  pollMs,
  log,
}: {
  db: Db;
  jobs: JobQueue;
  pollMs: number;
  log: Log;
}): Job<typeof NoPayload> {
  async function queueDue(): Promise<number> {
    const ids = await db.transaction(async (tx) => {
      const claimed = await claimDeliveriesToQueue(tx, DISPATCH_BATCH, new Date(Date.now() - STALE_QUEUED_MS));
      for (const deliveryIds of jobBatches(claimed)) await jobs.send(tx, WEBHOOK_DELIVER_JOB, { deliveryIds });
      await markQueued(
        tx,
        claimed.map((row) => row.id),
        new Date(),
      );
      return claimed;
    });
    if (ids.length > 0) jobs.notify(WEBHOOK_DELIVER_JOB);
    return ids.length;
  }

  return {
    ...WEBHOOK_DISPATCH_JOB,
    async handler() {
      try {
        // A full batch is followed at once by the next.
        while ((await queueDue()) === DISPATCH_BATCH);
      } catch (error) {
        log('webhook dispatcher: could not queue deliveries', error);
      }
      // The next tick is queued whatever this one found; a tick already waiting (another instance's) makes this a no-op.
      await jobs.send(null, WEBHOOK_DISPATCH_JOB, {}, { startAfter: new Date(Date.now() + pollMs) });
    },
  };
}

/** Starts the dispatcher's chain of ticks (after `jobs.start()`); a no-op when a tick is already waiting. */
export async function startWebhookDispatch(jobs: JobQueue): Promise<void> {
  await jobs.send(null, WEBHOOK_DISPATCH_JOB, {});
  jobs.notify(WEBHOOK_DISPATCH_JOB);
}
