import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, guestToken, type TestUser } from '../helpers/factories.ts';
import { commence, draftWithRecipients, saveAll, tokenFromMail } from '../helpers/ceremony.ts';
import { startHttpsServer, type HttpsTestServer } from '../helpers/https-server.ts';
import { createOutbound } from '../../src/platform/outbound/outbound.ts';
import { webhookDeliveries } from '../../src/platform/db/schema/index.ts';
import { retryDelayMs } from '../../src/modules/webhooks/webhooks.jobs.ts';
import { appBody, clientSignin, expectError, memberOf, registerApp } from '../business-apps/helpers.ts';

/**
 * Webhooks against a real https receiver on loopback. Callback host names resolve through the test's resolver
 * (hooks.example.test and other.example.test to 127.0.0.1, meta.example.test to a cloud metadata address), so
 * the delivery path runs the outbound client's real checks; OUTBOUND_ALLOW_PRIVATE lets it reach 127.0.0.1.
 */
type Received = { path: string; headers: IncomingMessage['headers']; body: string };
type Mode = 'ok' | '500' | 'hang';

let t: TestApp;
let server: HttpsTestServer;
const received: Received[] = [];
const modes = new Map<string, Mode>();
let owner: TestUser;
let outsider: TestUser;
let app: Awaited<ReturnType<typeof registerApp>>;
let otherApp: Awaited<ReturnType<typeof registerApp>>;

function answer(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const path = req.url ?? '/';
    const mode = modes.get(path) ?? 'ok';
    if (mode === 'hang') return; // never answers; the client's timeout ends it
    received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
    res.writeHead(mode === 'ok' ? 204 : 500).end();
  });
}

beforeAll(async () => {
  server = await startHttpsServer(['hooks.example.test', 'other.example.test', 'meta.example.test'], answer);
  const addresses: Record<string, string[]> = {
    'hooks.example.test': ['127.0.0.1'],
    'other.example.test': ['127.0.0.1'],
    'meta.example.test': ['169.254.169.254'],
  };
  t = await createTestApp(
    { outboundAllowPrivate: true },
    {
      outbound: createOutbound({
        allowPrivate: true,
        ca: [server.certificate],
        resolve: async (host) => addresses[host] ?? [],
      }),
    },
  );
  owner = await createUser(t, { name: 'Olga Owner' });
  outsider = await createUser(t, { name: 'Otto Outsider' });
  app = await registerApp(t, owner.token, { callbackUrl: hook('hooks', '/a') });
  otherApp = await registerApp(t, outsider.token, { callbackUrl: hook('other', '/other') });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await server?.close();
});

function hook(host: string, path: string) {
  return `https://${host}.example.test:${server.port}${path}`;
}

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

const deliveriesOf = (workflowId: number) =>
  t.platform.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.workflowId, workflowId))
    .orderBy(webhookDeliveries.id);
const deliveryRow = async (id: number) =>
  (await t.platform.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0];
/** What `path` received about the workflow, in the order the events happened (deliveries run in parallel and may arrive in any order). */
const receivedFor = (workflowId: number, path = '/a') =>
  received
    .filter((r) => r.path === path && JSON.parse(r.body).data.workflowId === workflowId)
    .sort((a, b) => Number(a.headers['x-delivery-id']) - Number(b.headers['x-delivery-id']));
const hmac = (body: string, secret: string) =>
  `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;

/** A sent one-signer workflow of `sender` (commence over HTTP), and the signer's guest token from the mailed link (an Opened event). */
async function sentAndOpened(sender: TestUser) {
  const draft = await draftWithRecipients(t, sender, {
    sequence: 'UNORDERED',
    recipients: [{ name: 'Alice Signer', fields: [{ fieldType: 'SIGNATURE' }] }],
  });
  await commence(t, sender, draft.workflow.id);
  const token = await tokenFromMail(t, draft.parties[0].user.email);
  return { ...draft, token };
}

describe('events', () => {
  it("a signing ceremony sends signed, at-least-once webhooks of each change to the organization's enabled apps only", async () => {
    const disabled = await registerApp(t, owner.token, { callbackUrl: hook('hooks', '/disabled'), status: false });
    const { workflow, document, fieldIds, token } = await sentAndOpened(owner);
    const saved = await saveAll(t, token, document.id, fieldIds[0]);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    const events = await waitFor(async () => {
      const got = receivedFor(workflow.id);
      return got.length >= 4 ? got : null;
    }, 'four webhooks');
    expect(events.map((e) => JSON.parse(e.body).type)).toEqual([
      'workflow.sent',
      'workflow.opened',
      'workflow.signed',
      'workflow.completed',
    ]);
    for (const event of events) {
      const body = JSON.parse(event.body);
      expect(Object.keys(body).sort()).toEqual(['createdAt', 'data', 'id', 'type']);
      expect(event.headers['x-signature-256']).toBe(hmac(event.body, app.webhookSecret));
      expect(event.headers['x-event-id']).toBe(body.id);
      expect(event.headers['x-event-type']).toBe(body.type);
      expect(event.headers['content-type']).toBe('application/json');
      expect(body.data).toMatchObject({ workflowId: workflow.id, workflowName: workflow.name });
    }
    const [sent, opened, signed, completed] = events.map((e) => JSON.parse(e.body).data);
    expect(sent).toMatchObject({ workflowStatus: 'SENT', recipientId: null, action: 'Sent' });
    expect(opened).toMatchObject({ recipientStatus: 'VIEWED', action: 'Opened' });
    expect(signed).toMatchObject({ recipientStatus: 'SIGNED', action: 'Signed' });
    expect(completed).toMatchObject({ workflowStatus: 'COMPLETED', action: 'Completed' });

    const rows = await waitFor(async () => {
      const all = await deliveriesOf(workflow.id);
      return all.every((r) => r.status === 'DELIVERED') ? all : null;
    }, 'deliveries recorded');
    expect(rows.map((r) => r.appId)).toEqual([app.id, app.id, app.id, app.id]);
    expect(rows.every((r) => r.attempts === 1 && r.lastStatusCode === 204)).toBe(true);
    // Neither the disabled app nor another organization's app heard of it.
    expect(received.filter((r) => r.path === '/disabled' || r.path === '/other')).toEqual([]);
    expect(rows.some((r) => r.appId === disabled.id || r.appId === otherApp.id)).toBe(false);
  });

  it("a decline is two events, declined then voided; workflows of members go to the organization's apps too", async () => {
    const member = await memberOf(t, owner, []);
    const draft = await draftWithRecipients(t, member, {
      sequence: 'UNORDERED',
      recipients: [{ name: 'Dora Decliner', fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    await commence(t, member, draft.workflow.id);
    const token = await guestToken(t, {
      id: draft.parties[0].row.id,
      userId: draft.parties[0].user.userId,
      workflowId: draft.workflow.id,
    });
    const declined = await t.request('POST', `/workflow/v1/${draft.workflow.id}/decline`, {
      token,
      body: { reason: 'Wrong amount' },
    });
    expect(declined.status, JSON.stringify(declined.body)).toBe(200);
    const events = await waitFor(async () => {
      const got = receivedFor(draft.workflow.id);
      return got.length >= 3 ? got : null;
    }, 'three webhooks');
    const bodies = events.map((e) => JSON.parse(e.body));
    expect(bodies.map((b) => b.type)).toEqual(['workflow.sent', 'workflow.declined', 'workflow.voided']);
    expect(bodies[1].data).toMatchObject({
      workflowStatus: 'VOID',
      recipientStatus: 'DECLINED',
      recipientId: draft.parties[0].row.id,
    });
    expect(bodies[1].data.sentence).toContain('Wrong amount');
    expect(bodies[2].id).not.toBe(bodies[1].id);
  });

  it("the owner's void is one event, voided, with the reason in its sentence", async () => {
    const draft = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [{ name: 'Vic Voided', fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    await commence(t, owner, draft.workflow.id);
    const voided = await t.request('POST', `/workflow/v1/${draft.workflow.id}/void`, {
      token: owner.token,
      body: { reason: 'Sent to the wrong person' },
    });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    const events = await waitFor(async () => {
      const got = receivedFor(draft.workflow.id);
      return got.length >= 2 ? got : null;
    }, 'two webhooks');
    const bodies = events.map((e) => JSON.parse(e.body));
    expect(bodies.map((b) => b.type)).toEqual(['workflow.sent', 'workflow.voided']);
    expect(bodies[1].data).toMatchObject({ workflowStatus: 'VOID', recipientId: null, action: 'Voided' });
    expect(bodies[1].data.sentence).toContain('Sent to the wrong person');
  });

  it('a slow receiver does not slow signing: the change commits at once and the attempt times out in the job', async () => {
    modes.set('/a', 'hang');
    try {
      const draft = await draftWithRecipients(t, owner, {
        sequence: 'UNORDERED',
        recipients: [{ name: 'Sam Slow', fields: [{ fieldType: 'SIGNATURE' }] }],
      });
      const started = performance.now();
      await commence(t, owner, draft.workflow.id);
      expect(performance.now() - started).toBeLessThan(2_000);
      const [row] = await deliveriesOf(draft.workflow.id);
      expect(row).toMatchObject({ eventType: 'workflow.sent', status: 'PENDING', attempts: 0 });
      const failed = await waitFor(
        async () => ((await deliveryRow(row.id)).attempts === 1 ? deliveryRow(row.id) : null),
        'a timed-out attempt',
        20_000,
      );
      expect(failed).toMatchObject({ status: 'PENDING', lastStatusCode: null });
      expect(failed.lastError).toMatch(/did not answer within 5000 ms/);
      const delay = failed.nextAttemptAt.getTime() - failed.lastAttemptAt!.getTime();
      expect(delay).toBeGreaterThanOrEqual(9_000);
      expect(delay).toBeLessThan(20_000);
    } finally {
      modes.delete('/a');
    }
  }, 40_000);
});

describe('retries, dead letters and replay', () => {
  it('a 500 is retried with backoff until the receiver recovers, with the same event id and a fresh signature under the current secret', async () => {
    modes.set('/a', '500');
    const draft = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [{ name: 'Rita Retry', fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    await commence(t, owner, draft.workflow.id);
    const [row] = await deliveriesOf(draft.workflow.id);
    const first = await waitFor(async () => {
      const r = await deliveryRow(row.id);
      return r.attempts === 1 ? r : null;
    }, 'the first attempt');
    expect(first).toMatchObject({
      status: 'PENDING',
      lastStatusCode: 500,
      lastError: 'the receiver answered HTTP 500',
    });
    expect(first.nextAttemptAt.getTime() - first.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(
      retryDelayMs(1) - 1000,
    );

    // The second failure doubles the delay (the schedule is moved forward rather than waited out).
    await t.platform.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, row.id));
    const second = await waitFor(async () => {
      const r = await deliveryRow(row.id);
      return r.attempts === 2 ? r : null;
    }, 'the second attempt');
    expect(second.nextAttemptAt.getTime() - second.lastAttemptAt!.getTime()).toBeGreaterThanOrEqual(
      retryDelayMs(2) - 1000,
    );
    expect(retryDelayMs(2)).toBe(2 * retryDelayMs(1));
    expect(retryDelayMs(40)).toBe(3600 * 1000);

    // Recovered, under a rotated webhook secret: the next attempt is signed with the new one.
    modes.delete('/a');
    const rotated = await t.request('POST', `/organization/v1/apps/${app.id}/secrets`, {
      token: owner.token,
      body: { secret: 'WEBHOOK' },
    });
    app.webhookSecret = rotated.body.webhookSecret;
    await t.platform.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, row.id));
    const delivered = await waitFor(async () => {
      const r = await deliveryRow(row.id);
      return r.status === 'DELIVERED' ? r : null;
    }, 'delivery');
    expect(delivered).toMatchObject({ attempts: 3, lastStatusCode: 204, lastError: null });
    const got = receivedFor(draft.workflow.id);
    expect(got.length).toBe(3);
    expect(new Set(got.map((g) => g.headers['x-event-id']))).toEqual(new Set([row.eventId]));
    expect(got.map((g) => g.headers['x-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(got[2].headers['x-signature-256']).toBe(hmac(got[2].body, app.webhookSecret));
    expect(got[2].body).toBe(row.body);
  });

  it('after 24 hours of failures a delivery is dead-lettered; the owner lists it and replays it once the receiver is back', async () => {
    modes.set('/a', '500');
    const draft = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [{ name: 'Dirk Dead', fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    await commence(t, owner, draft.workflow.id);
    const [row] = await deliveriesOf(draft.workflow.id);
    await waitFor(async () => (await deliveryRow(row.id)).attempts === 1, 'the first attempt');
    // Pretend the event is a day old: the next failure ends the retry window.
    await t.platform.db
      .update(webhookDeliveries)
      .set({ createdAt: new Date(Date.now() - 24 * 3600 * 1000 - 1000), nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, row.id));
    const dead = await waitFor(async () => {
      const r = await deliveryRow(row.id);
      return r.status === 'DEAD' ? r : null;
    }, 'dead letter');
    expect(dead).toMatchObject({ attempts: 2, lastStatusCode: 500 });
    expect(dead.deadAt).toBeInstanceOf(Date);

    const list = await t.request(
      'GET',
      `/organization/v1/webhook-deliveries?status=DEAD&workflowId=${draft.workflow.id}`,
      { token: owner.token },
    );
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ totalElements: 1, totalPages: 1, number: 0, size: 20 });
    expect(list.body.content[0]).toMatchObject({
      id: row.id,
      appId: app.id,
      workflowId: draft.workflow.id,
      eventId: row.eventId,
      eventType: 'workflow.sent',
      status: 'DEAD',
      attempts: 2,
      nextAttemptAt: null,
      lastStatusCode: 500,
      replayOfId: null,
    });
    const detail = await t.request('GET', `/organization/v1/webhook-deliveries/${row.id}`, { token: owner.token });
    expect(detail.body.payload).toEqual(JSON.parse(row.body));

    modes.delete('/a');
    const replay = await t.request('POST', `/organization/v1/webhook-deliveries/${row.id}/replay`, {
      token: owner.token,
    });
    expect(replay.status, JSON.stringify(replay.body)).toBe(200);
    expect(replay.body).toMatchObject({ replayOfId: row.id, eventId: row.eventId, status: 'PENDING', attempts: 0 });
    const delivered = await waitFor(async () => {
      const r = await deliveryRow(replay.body.id);
      return r.status === 'DELIVERED' ? r : null;
    }, 'replayed delivery');
    expect(delivered.attempts).toBe(1);
    const last = receivedFor(draft.workflow.id).at(-1)!;
    expect(last.body).toBe(row.body);
    expect(last.headers['x-event-id']).toBe(row.eventId);

    // A delivered one may be replayed too; one still PENDING may not.
    expect(
      (await t.request('POST', `/organization/v1/webhook-deliveries/${replay.body.id}/replay`, { token: owner.token }))
        .status,
    ).toBe(200);
    modes.set('/a', 'hang');
    try {
      const pending = await draftWithRecipients(t, owner, {
        sequence: 'UNORDERED',
        recipients: [{ name: 'Pia Pending', fields: [{ fieldType: 'SIGNATURE' }] }],
      });
      await commence(t, owner, pending.workflow.id);
      const [pendingRow] = await deliveriesOf(pending.workflow.id);
      const refused = await t.request('POST', `/organization/v1/webhook-deliveries/${pendingRow.id}/replay`, {
        token: owner.token,
      });
      expectError(refused, 400, 'WEBHOOK_DELIVERY_PENDING');
      expect(refused.body.errorCode).toBe(18104);
      await waitFor(
        async () => (await deliveryRow(pendingRow.id)).attempts === 1,
        'the hanging attempt to end',
        20_000,
      );
    } finally {
      modes.delete('/a');
    }
  }, 60_000);

  it('a disabled app gets no new events, its pending deliveries are dead-lettered, and replay is refused until it is enabled', async () => {
    const paused = await registerApp(t, owner.token, { callbackUrl: hook('hooks', '/paused') });
    modes.set('/paused', '500');
    const draft = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [{ name: 'Pete Paused', fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    await commence(t, owner, draft.workflow.id);
    const [row] = (await deliveriesOf(draft.workflow.id)).filter((r) => r.appId === paused.id);
    await waitFor(async () => (await deliveryRow(row.id)).attempts === 1, 'the first attempt');
    expect(
      (
        await t.request('PUT', `/organization/v1/apps/${paused.id}/status`, {
          token: owner.token,
          body: { status: false },
        })
      ).status,
    ).toBe(200);
    await t.platform.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: new Date() })
      .where(eq(webhookDeliveries.id, row.id));
    const dead = await waitFor(async () => {
      const r = await deliveryRow(row.id);
      return r.status === 'DEAD' ? r : null;
    }, 'dead letter of a disabled app');
    expect(dead).toMatchObject({ attempts: 1, lastError: 'the business app is disabled' });

    const later = await draftWithRecipients(t, owner, {
      sequence: 'UNORDERED',
      recipients: [{ name: 'Lars Later', fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    await commence(t, owner, later.workflow.id);
    expect((await deliveriesOf(later.workflow.id)).map((r) => r.appId)).toEqual([app.id]);

    const refused = await t.request('POST', `/organization/v1/webhook-deliveries/${row.id}/replay`, {
      token: owner.token,
    });
    expectError(refused, 400, 'BUSINESS_APP_DISABLED');
    modes.delete('/paused');
    await t.request('PUT', `/organization/v1/apps/${paused.id}/status`, { token: owner.token, body: { status: true } });
    const replay = await t.request('POST', `/organization/v1/webhook-deliveries/${row.id}/replay`, {
      token: owner.token,
    });
    expect(replay.status).toBe(200);
    await waitFor(async () => (await deliveryRow(replay.body.id)).status === 'DELIVERED', 'replay after enabling');
  });

  it('the outbound rules hold at delivery: a callback name that resolves to a metadata address fails every attempt', async () => {
    const sneaky = await registerApp(t, outsider.token, { callbackUrl: hook('meta', '/steal') });
    const draft = await draftWithRecipients(t, outsider, {
      sequence: 'UNORDERED',
      recipients: [{ name: 'Mona Meta', fields: [{ fieldType: 'SIGNATURE' }] }],
    });
    await commence(t, outsider, draft.workflow.id);
    const [row] = (await deliveriesOf(draft.workflow.id)).filter((r) => r.appId === sneaky.id);
    const failed = await waitFor(async () => {
      const r = await deliveryRow(row.id);
      return r.attempts === 1 ? r : null;
    }, 'a refused attempt');
    expect(failed).toMatchObject({ status: 'PENDING', lastStatusCode: null });
    expect(failed.lastError).toMatch(/metadata/);
    expect(received.some((r) => r.path === '/steal')).toBe(false);
  });
});

describe('callback URLs with OUTBOUND_ALLOW_PRIVATE', () => {
  it('accepts loopback and private targets but still refuses metadata addresses and http', async () => {
    expect(
      (
        await t.request('POST', '/organization/v1/apps', {
          token: owner.token,
          body: appBody({ callbackUrl: 'https://127.0.0.1:8443/hook' }),
        })
      ).status,
    ).toBe(200);
    for (const callbackUrl of [
      'https://169.254.169.254/latest/meta-data/',
      'https://[fd00:ec2::254]/',
      'http://127.0.0.1/hook',
    ]) {
      expectError(
        await t.request('POST', '/organization/v1/apps', { token: owner.token, body: appBody({ callbackUrl }) }),
        400,
        'BUSINESS_APP_CALLBACK_REFUSED',
      );
    }
  });
});

describe('who may read and replay deliveries', () => {
  it('owner only: 401 without a token, 403 for a guest, a member (even with BUSINESS_APPS) and a CLIENT token, 404 across organizations', async () => {
    const [row] = await t.platform.db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.appId, app.id), eq(webhookDeliveries.status, 'DELIVERED')))
      .limit(1);
    expect(row).toBeDefined();
    const member = await memberOf(t, owner, [{ moduleName: 'BUSINESS_APPS', accessRights: {} }]);
    const guest = await t.platform.tokens.sign(
      { sub: String(member.userId), type: 'GUEST', recipientId: 1, workflowId: row.workflowId },
      600,
    );
    const client = (await clientSignin(t, app, owner.email)).body.accessToken as string;
    const calls: [string, string][] = [
      ['GET', '/organization/v1/webhook-deliveries'],
      ['GET', `/organization/v1/webhook-deliveries/${row.id}`],
      ['POST', `/organization/v1/webhook-deliveries/${row.id}/replay`],
    ];
    for (const [method, url] of calls) {
      expectError(await t.request(method, url), 401, 'UNAUTHORIZED');
      expectError(await t.request(method, url, { token: guest }), 403, 'USER_NOT_HAVE_ACCESS');
      expectError(await t.request(method, url, { token: member.token }), 403, 'USER_NOT_HAVE_ACCESS');
      expectError(await t.request(method, url, { token: client }), 403, 'USER_NOT_HAVE_ACCESS');
    }
    expectError(
      await t.request('GET', `/organization/v1/webhook-deliveries/${row.id}`, { token: outsider.token }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.request('POST', `/organization/v1/webhook-deliveries/${row.id}/replay`, { token: outsider.token }),
      404,
      'NOT_FOUND',
    );
    const theirs = await t.request('GET', '/organization/v1/webhook-deliveries?size=200', { token: outsider.token });
    expect(theirs.status).toBe(200);
    expect(theirs.body.content.every((d: { appId: number }) => d.appId !== app.id)).toBe(true);
    const byApp = await t.request('GET', `/organization/v1/webhook-deliveries?appId=${otherApp.id}`, {
      token: owner.token,
    });
    expect(byApp.body.totalElements).toBe(0);
  });

  it('answers 400 for malformed list queries and ids', async () => {
    for (const query of [
      'size=0',
      'size=201',
      'page=-1',
      'status=LOST',
      'eventType=workflow.deleted',
      'appId=abc',
      'workflowId=0',
    ]) {
      expect(
        (await t.request('GET', `/organization/v1/webhook-deliveries?${query}`, { token: owner.token })).status,
        query,
      ).toBe(400);
    }
    expect((await t.request('GET', '/organization/v1/webhook-deliveries/abc', { token: owner.token })).status).toBe(
      400,
    );
    expectError(
      await t.request('POST', '/organization/v1/webhook-deliveries/999999/replay', { token: owner.token }),
      404,
      'NOT_FOUND',
    );
  });
});
