import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { commence, draftWithRecipients } from '../helpers/ceremony.ts';
import { startHttpsServer, type HttpsTestServer } from '../helpers/https-server.ts';
import { createOutbound } from '../../src/platform/outbound/outbound.ts';
import { businessApps, webhookDeliveries } from '../../src/platform/db/schema/index.ts';
import { expectError, registerApp } from '../business-apps/helpers.ts';

/**
 * Trust issue item 11: a callback that has failed for 24 hours in a row is paused, so an organization cannot keep the
 * delivery queue busy with dead endpoints. Its pending deliveries are held (PAUSED, in the delivery log and on the
 * app), new events are recorded but not attempted, the owner is mailed once, and a replay or an edit of the app
 * resumes it. A real https receiver on loopback answers 500 for the dead paths; the 24 hours are simulated by moving
 * callback_failing_since back in the database.
 */
let t: TestApp;
let server: HttpsTestServer;
let owner: TestUser;
const hits = new Map<string, number>();
const failing = new Set<string>();

function answer(req: IncomingMessage, res: ServerResponse) {
  req.resume();
  req.on('end', () => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    res.writeHead(failing.has(path) ? 500 : 204).end();
  });
}

beforeAll(async () => {
  server = await startHttpsServer(['hooks.example.test'], answer);
  t = await createTestApp(
    { outboundAllowPrivate: true },
    {
      outbound: createOutbound({
        allowPrivate: true,
        ca: [server.certificate],
        resolve: async (host) => (host === 'hooks.example.test' ? ['127.0.0.1'] : []),
      }),
    },
  );
  owner = await createUser(t, { name: 'Petra Paused' });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await server?.close();
});

const hook = (path: string) => `https://hooks.example.test:${server.port}${path}`;
const DAY_MS = 24 * 3600 * 1000;

async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false>,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const appRow = async (id: number) =>
  (await t.platform.db.select().from(businessApps).where(eq(businessApps.id, id)))[0];
const deliveryRow = async (id: number) =>
  (await t.platform.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0];
const deliveriesOfApp = (appId: number) =>
  t.platform.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.appId, appId))
    .orderBy(webhookDeliveries.id);

/** A sent workflow of the owner: one workflow.sent event for each of the organization's apps. */
async function sendOne(name: string) {
  const draft = await draftWithRecipients(t, owner, {
    sequence: 'UNORDERED',
    recipients: [{ name, fields: [{ fieldType: 'SIGNATURE' }] }],
  });
  await commence(t, owner, draft.workflow.id);
  return draft.workflow.id;
}

/** Registers an app whose receiver answers 500, lets one event fail once, and makes the run of failures a day old: the next failure pauses it. */
async function appFailingForADay(path: string) {
  failing.add(path);
  const app = await registerApp(t, owner.token, { callbackUrl: hook(path) });
  const workflowId = await sendOne('Fay Failing');
  const [row] = (await deliveriesOfApp(app.id)).filter((r) => r.workflowId === workflowId);
  await waitFor(async () => (await deliveryRow(row.id)).attempts === 1, 'the first failed attempt');
  const failingSince = (await appRow(app.id)).callbackFailingSince;
  expect(failingSince, 'a failed delivery starts the run of failures').toBeInstanceOf(Date);
  expect((await appRow(app.id)).callbackPausedAt).toBeNull();
  await t.platform.db
    .update(businessApps)
    .set({ callbackFailingSince: new Date(Date.now() - DAY_MS - 60_000) })
    .where(eq(businessApps.id, app.id));
  return { app, row };
}

describe('a callback failing for 24 hours in a row', () => {
  it('is paused at its next failure: deliveries held, the log and the app say so, the owner is mailed once', async () => {
    const { app, row } = await appFailingForADay('/dead');
    await t.platform.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, row.id));
    const held = await waitFor(async () => {
      const r = await deliveryRow(row.id);
      return r.status === 'PAUSED' ? r : null;
    }, 'the delivery held');
    expect(held).toMatchObject({ attempts: 2, lastStatusCode: 500, queuedAt: null, deadAt: null });
    const stored = await appRow(app.id);
    expect(stored.callbackPausedAt).toBeInstanceOf(Date);
    expect(stored.callbackFailingSince).toBeInstanceOf(Date);

    // The app read and the delivery log show it.
    const read = await t.request('GET', `/organization/v1/apps/${app.id}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      id: app.id,
      callbackPausedAt: stored.callbackPausedAt!.toISOString(),
      callbackFailingSince: stored.callbackFailingSince!.toISOString(),
    });
    const log = await t.request('GET', `/organization/v1/webhook-deliveries?appId=${app.id}&status=PAUSED`, {
      token: owner.token,
    });
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    expect(log.body.content.map((d: { id: number }) => d.id)).toEqual([row.id]);
    expect(log.body.content[0]).toMatchObject({ status: 'PAUSED', nextAttemptAt: null, lastStatusCode: 500 });

    // One mail to the owner, in the organization's mail, saying what happened and how to resume.
    const mails = await t.mails({ to: owner.email, kind: 'WEBHOOK_PAUSED' });
    expect(mails).toHaveLength(1);
    expect(mails[0].organizationId).toBe(owner.organizationId);
    expect(mails[0].textBody).toContain(app.appName);
    expect(mails[0].textBody).toContain(hook('/dead'));
    expect(mails[0].textBody).toMatch(/resume/i);
    expect(mails[0].htmlBody).toContain(app.appName);

    // New events are recorded (nothing is lost) but not attempted: the dispatcher never hands them to a job.
    const before = hits.get('/dead') ?? 0;
    const later = await sendOne('Lou Later');
    const [recorded] = (await deliveriesOfApp(app.id)).filter((r) => r.workflowId === later);
    expect(recorded).toMatchObject({ status: 'PAUSED', attempts: 0, queuedAt: null });
    // A held delivery made due again (or a PENDING one that raced the pause) is held by the job, not sent.
    await t.platform.db
      .update(webhookDeliveries)
      .set({ status: 'PENDING', nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, recorded.id));
    await waitFor(async () => (await deliveryRow(recorded.id)).status === 'PAUSED', 'the racing delivery held');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await t.drainJobs();
    expect(hits.get('/dead') ?? 0).toBe(before);
    expect(await deliveryRow(recorded.id)).toMatchObject({ status: 'PAUSED', attempts: 0 });
    expect(await t.mails({ to: owner.email, kind: 'WEBHOOK_PAUSED' })).toHaveLength(1);
  }, 60_000);

  it('an edit of the app resumes it: held deliveries go to the fixed URL, and a delivered one ends the run of failures', async () => {
    const { app, row } = await appFailingForADay('/broken');
    await t.platform.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, row.id));
    await waitFor(async () => (await appRow(app.id)).callbackPausedAt !== null, 'the pause');
    const held = await sendOne('Hal Held');

    const edited = await t.request('PUT', `/organization/v1/apps/${app.id}`, {
      token: owner.token,
      body: { callbackUrl: hook('/fixed') },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({
      callbackUrl: hook('/fixed'),
      callbackPausedAt: null,
      callbackFailingSince: null,
    });
    const rows = await waitFor(async () => {
      const all = await deliveriesOfApp(app.id);
      return all.every((r) => r.status === 'DELIVERED') ? all : null;
    }, 'the held deliveries delivered');
    expect(rows.map((r) => r.workflowId)).toContain(held);
    expect(hits.get('/fixed')).toBe(rows.length);
    expect(await appRow(app.id)).toMatchObject({ callbackPausedAt: null, callbackFailingSince: null });
  }, 60_000);

  it('a replay resumes it too, and releases the other held deliveries', async () => {
    const { app, row } = await appFailingForADay('/flaky');
    await t.platform.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, row.id));
    await waitFor(async () => (await appRow(app.id)).callbackPausedAt !== null, 'the pause');
    const other = await sendOne('Rex Released');
    failing.delete('/flaky');

    const replay = await t.request('POST', `/organization/v1/webhook-deliveries/${row.id}/replay`, {
      token: owner.token,
    });
    expect(replay.status, JSON.stringify(replay.body)).toBe(200);
    expect(replay.body).toMatchObject({ id: row.id, status: 'PENDING' });
    expect(await appRow(app.id)).toMatchObject({ callbackPausedAt: null, callbackFailingSince: null });
    const rows = await waitFor(async () => {
      const all = await deliveriesOfApp(app.id);
      return all.every((r) => r.status === 'DELIVERED') ? all : null;
    }, 'every delivery of the app delivered');
    expect(rows.map((r) => r.workflowId)).toContain(other);
  }, 60_000);

  it('an app that answers again before 24 hours is never paused', async () => {
    failing.add('/wobbly');
    const app = await registerApp(t, owner.token, { callbackUrl: hook('/wobbly') });
    const workflowId = await sendOne('Wanda Wobbly');
    const [row] = (await deliveriesOfApp(app.id)).filter((r) => r.workflowId === workflowId);
    await waitFor(async () => (await deliveryRow(row.id)).attempts === 1, 'the failed attempt');
    expect((await appRow(app.id)).callbackFailingSince).toBeInstanceOf(Date);
    failing.delete('/wobbly');
    await t.platform.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, row.id));
    await waitFor(async () => (await deliveryRow(row.id)).status === 'DELIVERED', 'the retry delivered');
    expect(await appRow(app.id)).toMatchObject({ callbackFailingSince: null, callbackPausedAt: null });
  });

  it('a replay refused for a disabled app leaves it paused', async () => {
    const { app, row } = await appFailingForADay('/gone');
    await t.platform.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, row.id));
    await waitFor(async () => (await appRow(app.id)).callbackPausedAt !== null, 'the pause');
    await t.platform.db.update(businessApps).set({ status: false }).where(eq(businessApps.id, app.id));
    expectError(
      await t.request('POST', `/organization/v1/webhook-deliveries/${row.id}/replay`, { token: owner.token }),
      400,
      'BUSINESS_APP_DISABLED',
    );
    expect((await appRow(app.id)).callbackPausedAt).toBeInstanceOf(Date);
    expect((await deliveryRow(row.id)).status).toBe('PAUSED');
  });
});
