import type { Tx } from '../../platform/db/client.ts';
import type { Outbox } from '../../platform/mail/outbox.ts';
import { userContact } from '../users/users.directory.ts';
import {
  clearCallbackFailing,
  findOrganizationOwnerId,
  holdDeliveries,
  holdPendingDeliveries,
  lockAppCallback,
  lockCallbackApps,
  releaseHeldDeliveries,
  setCallbackState,
  unqueueDeliveries,
} from './webhooks.repo.ts';
import { webhookPausedMail } from './webhook-mails.ts';

/**
 * Dead endpoints (trust issue item 11): a callback whose deliveries have all failed for this long, counted from the
 * first failure of the unbroken run (business_apps.callback_failing_since; a delivered attempt clears it), is paused
 * at its next failure, so an organization cannot keep the delivery queue busy with receivers that never answer.
 */
export const CALLBACK_PAUSE_AFTER_MS = 24 * 3600 * 1000;

/** What one delivery job's attempts said about one app's callback. */
export type CallbackOutcome = { appId: number; delivered: boolean; firstFailureAt: Date | null };

/**
 * Settles the callback state of the job's apps, under their row locks and in the transaction that records the
 * attempts: a delivery clears the run of failures; a failure starts it, or, once it is CALLBACK_PAUSE_AFTER_MS old,
 * pauses the app (callback_paused_at), holds all its PENDING deliveries (this job's included) and mails the owner,
 * once: a second job of the same app waits for the lock and then finds it paused. `held` are deliveries this job
 * found PENDING for an app that was paused when it read them: held again if the app is still paused, handed back to
 * the dispatcher if it was resumed meanwhile. Answers whether a mail was queued.
 */
export async function settleCallbacks(
  tx: Tx,
  deps: { outbox: Outbox; publicUrl: string },
  outcomes: CallbackOutcome[],
  held: { id: number; appId: number }[],
  now: Date,
): Promise<boolean> {
  const apps = await lockCallbackApps(tx, [...new Set([...outcomes.map((o) => o.appId), ...held.map((h) => h.appId)])]);
  const byId = new Map(apps.map((app) => [app.id, app]));
  await holdDeliveries(
    tx,
    held.filter((h) => byId.get(h.appId)?.pausedAt).map((h) => h.id),
  );
  await unqueueDeliveries(
    tx,
    held.filter((h) => !byId.get(h.appId)?.pausedAt).map((h) => h.id),
  );
  await clearCallbackFailing(
    tx,
    outcomes.filter((o) => o.delivered).map((o) => o.appId),
  );
  let mailed = false;
  for (const outcome of outcomes) {
    const app = byId.get(outcome.appId);
    if (!app || outcome.delivered || !outcome.firstFailureAt || app.pausedAt) continue;
    const failingSince = app.failingSince ?? outcome.firstFailureAt;
    if (now.getTime() - failingSince.getTime() < CALLBACK_PAUSE_AFTER_MS) {
      if (!app.failingSince) await setCallbackState(tx, app.id, { failingSince });
      continue;
    }
    await setCallbackState(tx, app.id, { failingSince, pausedAt: now });
    const count = await holdPendingDeliveries(tx, app.id);
    const ownerId = await findOrganizationOwnerId(tx, app.organizationId);
    const owner = ownerId === null ? null : await userContact(tx, ownerId);
    if (owner?.email) {
      mailed =
        (await deps.outbox.enqueue(
          tx,
          webhookPausedMail({
            to: owner.email,
            name: owner.name,
            organizationId: app.organizationId,
            appName: app.appName,
            callbackUrl: app.callbackUrl,
            failingSince,
            held: count,
            appsUrl: `${deps.publicUrl}/organization/apps`,
          }),
        )) !== null || mailed;
    }
  }
  return mailed;
}

/**
 * Resumes the app's callback: clears the run of failures and the pause, and releases its held deliveries (PENDING,
 * due now). Called in the transaction of a replay or an edit of the app, which the owner makes once the receiver
 * answers again; on an app that is not paused it changes nothing, so a replay cannot be used to restart the 24 hours
 * of a callback that is still failing. Answers how many deliveries were released.
 */
export async function resumeCallback(tx: Tx, appId: number, now: Date): Promise<number> {
  const app = await lockAppCallback(tx, appId);
  if (!app) return 0;
  if (app.pausedAt) await setCallbackState(tx, appId, { failingSince: null, pausedAt: null });
  // Held rows of an app that is not paused (none, normally) are released as well: nothing stays held for ever.
  return releaseHeldDeliveries(tx, appId, now);
}
