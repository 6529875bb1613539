import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/platform/db/schema/index.ts';
import type { TestUser } from '../helpers/factories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createMailOwner, setCustomMailPlan, type Provider } from './helpers.ts';
import { REJECTED_DOMAIN, startGraphPeer, startSendGridPeer, startSesPeer, startSmtpPeer } from './provider-servers.ts';

const TEST = '/organization/v1/email-settings/test';
const FROM = 'contracts@acme.example';
const SENDGRID_KEY = 'SG.live-key-0123456789';
const AWS = {
  accessKeyId: 'AKIAMAILTEST00000001',
  secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'eu-west-1',
};
const GRAPH = {
  tenantId: 'acme.onmicrosoft.com',
  clientId: '6731de76-14a6-49ae-97bc-6eba6914391e',
  clientSecret: 'graph~secret.value',
  mailboxes: [FROM],
};

let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let platformSmtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let sendGrid: Awaited<ReturnType<typeof startSendGridPeer>>;
let ses: Awaited<ReturnType<typeof startSesPeer>>;
let graph: Awaited<ReturnType<typeof startGraphPeer>>;
let t: TestApp;

beforeAll(async () => {
  [smtp, platformSmtp, sendGrid, ses, graph] = await Promise.all([
    startSmtpPeer({ user: 'mailer', password: 'smtp pass 1' }),
    startSmtpPeer({ user: 'platform', password: 'platform pass' }),
    startSendGridPeer(SENDGRID_KEY),
    startSesPeer({ [AWS.accessKeyId]: AWS.secret }, AWS.region),
    startGraphPeer(GRAPH),
  ]);
  t = await createTestApp({
    smtpUrl: `smtp://platform:${encodeURIComponent('platform pass')}@127.0.0.1:${platformSmtp.port}`,
    mailFrom: 'platform@example.com',
    // The organization's SMTP server and the providers' stand-ins live on loopback.
    outboundAllowPrivate: true,
    mailProviders: {
      emailApiUrl: sendGrid.url,
      cloudMailEndpoint: ses.url,
      oauth2LoginUrl: graph.url,
      oauth2ApiUrl: graph.url,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await Promise.all([smtp, platformSmtp, sendGrid, ses, graph].map((peer) => peer?.close()));
});

function configurationsOf(provider: Provider, change: Record<string, string> = {}): Record<string, string> {
  const base: Record<Provider, Record<string, string>> = {
    SMTP: {
      SMTP_SERVER: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      SSL_TLS: 'NONE',
      AUTHENTICATION: 'TRUE',
      USER_ID: 'mailer',
      PASSWORD: 'smtp pass 1',
      EMAIL_FROM: FROM,
    },
    EMAIL_API: { API_KEY: SENDGRID_KEY, EMAIL_FROM: FROM },
    CLOUD_MAIL: { API_KEY: AWS.secret, ACCESS_KEY: AWS.accessKeyId, REGION: AWS.region, EMAIL_FROM: FROM },
    OAUTH2_MAIL: {
      TENANT_ID: GRAPH.tenantId,
      CLIENT_ID: GRAPH.clientId,
      CLIENT_SECRET: GRAPH.clientSecret,
      OAUTH_SCOPE: 'https://graph.microsoft.com/.default',
      EMAIL_FROM: FROM,
    },
  };
  return { ...base[provider], ...change };
}

/** A raw MIME message or an HTML body as plain characters: quoted-printable soft breaks and escapes undone, &#39; as '. */
function readable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#39;/g, "'");
}

/** What the provider's stand-in received for `to`, as subject and (readable) text; undefined when nothing came. */
function receivedBy(provider: Provider, to: string): { subject: string; text: string; from: string } | undefined {
  switch (provider) {
    case 'SMTP': {
      const mail = smtp.received.find((m) => m.to.includes(to));
      return mail && { subject: /^Subject: (.*)$/m.exec(mail.raw)![1], text: readable(mail.raw), from: mail.from };
    }
    case 'EMAIL_API': {
      const mail = sendGrid.received.find((m) => m.personalizations[0].to[0].email === to);
      return (
        mail && { subject: mail.subject, text: mail.content.map((c) => c.value).join('\n'), from: mail.from.email }
      );
    }
    case 'CLOUD_MAIL': {
      const mail = ses.received.find((m) => m.to.includes(to));
      return mail && { subject: /^Subject: (.*)$/m.exec(mail.raw)![1], text: readable(mail.raw), from: mail.from };
    }
    case 'OAUTH2_MAIL': {
      const mail = graph.received.find((m) => m.message.toRecipients[0].emailAddress.address === to);
      return mail && { subject: mail.message.subject, text: readable(mail.message.body.content), from: mail.mailbox };
    }
  }
}

let recipientCounter = 0;
const nextRecipient = (label: string) =>
  `${label.toLowerCase().replace(/_/g, '-')}-${(recipientCounter += 1)}@example.com`;

function runTest(owner: TestUser, provider: Provider, configurations: Record<string, string>, testRecipient: string) {
  return t.request('POST', TEST, { token: owner.token, body: { provider, configurations, testRecipient } });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the settings test speaks each provider's protocol", () => {
  // A fresh owner per test: an organization may run only 20 tests an hour.
  let owner: TestUser;
  beforeEach(async () => {
    owner = await createMailOwner(t);
  });

  it.each(['SMTP', 'EMAIL_API', 'CLOUD_MAIL', 'OAUTH2_MAIL'] as Provider[])(
    '%s: the test mail reaches the provider, which accepts it',
    async (provider) => {
      const to = nextRecipient(provider);
      const res = await runTest(owner, provider, configurationsOf(provider), to);
      expect(res.status).toBe(200);
      expect(res.body, JSON.stringify(res.body)).toEqual({
        success: true,
        provider,
        step: null,
        message: expect.stringContaining(to),
      });
      const mail = receivedBy(provider, to);
      expect(mail).toMatchObject({ from: FROM, subject: "Test of your organization's email settings" });
      expect(mail!.text).toContain(`through your organization's ${provider} settings`);
      if (provider === 'SMTP') expect(smtp.received.find((m) => m.to.includes(to))?.user).toBe('mailer');
    },
  );

  const failures: [
    Provider,
    string,
    () => Promise<Record<string, string>> | Record<string, string>,
    RegExp,
    (() => void)?,
  ][] = [
    ['SMTP', 'CONFIG', () => configurationsOf('SMTP', { SSL_TLS: '' }), /SSL_TLS/],
    [
      'SMTP',
      'CONNECT',
      async () => configurationsOf('SMTP', { SMTP_PORT: String(await closedPort()) }),
      /could not be reached/,
    ],
    ['SMTP', 'AUTH', () => configurationsOf('SMTP', { PASSWORD: 'wrong' }), /Invalid username or password/],
    ['SMTP', 'SEND', () => configurationsOf('SMTP'), /User unknown/],
    ['EMAIL_API', 'CONFIG', () => configurationsOf('EMAIL_API', { EMAIL_FROM: 'nobody' }), /EMAIL_FROM/],
    [
      'EMAIL_API',
      'CONNECT',
      () => {
        sendGrid.setDown(true);
        return configurationsOf('EMAIL_API');
      },
      /could not be reached/,
      () => sendGrid.setDown(false),
    ],
    [
      'EMAIL_API',
      'AUTH',
      () => configurationsOf('EMAIL_API', { API_KEY: 'SG.revoked' }),
      /401 The provided authorization grant is invalid/,
    ],
    [
      'EMAIL_API',
      'SEND',
      () => configurationsOf('EMAIL_API'),
      /personalizations\.0\.to\.0\.email: Does not contain a valid address/,
    ],
    ['CLOUD_MAIL', 'CONFIG', () => configurationsOf('CLOUD_MAIL', { REGION: 'moon' }), /REGION/],
    [
      'CLOUD_MAIL',
      'CONNECT',
      () => {
        ses.setDown(true);
        return configurationsOf('CLOUD_MAIL');
      },
      /could not be reached/,
      () => ses.setDown(false),
    ],
    [
      'CLOUD_MAIL',
      'AUTH',
      () => configurationsOf('CLOUD_MAIL', { ACCESS_KEY: 'AKIAUNKNOWN000000000' }),
      /UnrecognizedClientException/,
    ],
    [
      'CLOUD_MAIL',
      'AUTH',
      () => configurationsOf('CLOUD_MAIL', { API_KEY: 'not-the-secret' }),
      /SignatureDoesNotMatch/,
    ],
    ['CLOUD_MAIL', 'SEND', () => configurationsOf('CLOUD_MAIL'), /MessageRejected.*Email address is not verified/],
    ['OAUTH2_MAIL', 'CONFIG', () => configurationsOf('OAUTH2_MAIL', { OAUTH_SCOPE: '' }), /OAUTH_SCOPE/],
    [
      'OAUTH2_MAIL',
      'CONNECT',
      () => {
        graph.setDown(true);
        return configurationsOf('OAUTH2_MAIL');
      },
      /could not be reached/,
      () => graph.setDown(false),
    ],
    [
      'OAUTH2_MAIL',
      'TOKEN',
      () => configurationsOf('OAUTH2_MAIL', { CLIENT_SECRET: 'expired secret' }),
      /invalid_client: AADSTS7000215/,
    ],
    ['OAUTH2_MAIL', 'TOKEN', () => configurationsOf('OAUTH2_MAIL', { OAUTH_SCOPE: 'Mail.Send' }), /invalid_scope/],
    [
      'OAUTH2_MAIL',
      'AUTH',
      () => configurationsOf('OAUTH2_MAIL', { EMAIL_FROM: 'ceo@acme.example' }),
      /403 ErrorAccessDenied/,
    ],
    ['OAUTH2_MAIL', 'SEND', () => configurationsOf('OAUTH2_MAIL'), /ErrorInvalidRecipients/],
  ];
  it.each(failures)(
    "%s: a failure at %s says so, in the provider's words, and nothing is delivered",
    async (provider, step, configure, words, restore) => {
      const to =
        step === 'SEND'
          ? `${nextRecipient(provider)}`.replace('@example.com', `@${REJECTED_DOMAIN}`)
          : nextRecipient(provider);
      try {
        const res = await runTest(owner, provider, await configure(), to);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ success: false, provider, step });
        expect(res.body.message).toMatch(words);
      } finally {
        restore?.();
      }
      expect(receivedBy(provider, to)).toBeUndefined();
    },
  );
});

/** Queues one mail of the organization, as a workflow would, and waits for its delivery attempt(s) to match `until`. */
async function queueMail(organizationId: number, to: string, subject: string) {
  const id = (await t.platform.db.transaction((tx) =>
    t.platform.outbox.enqueue(tx, { organizationId, to, subject, text: `Body of ${subject}`, kind: 'TEST' }),
  )) as number; // kind TEST is never optional: always queued
  t.platform.outbox.notify();
  return id;
}

async function waitForMail(id: number, until: (row: typeof mailOutbox.$inferSelect) => boolean, timeoutMs = 40_000) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    const [row] = await t.platform.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    if (until(row)) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
  const [row] = await t.platform.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
  throw new Error(`mail ${id} did not get there in time: ${JSON.stringify(row)}`);
}

describe("an organization's mail goes through its own provider", () => {
  it.each(['SMTP', 'EMAIL_API', 'CLOUD_MAIL', 'OAUTH2_MAIL'] as Provider[])(
    '%s carries it, and the delivery log shows it SENT',
    async (provider) => {
      const owner = await createMailOwner(t);
      const saved = await t.request('PUT', '/organization/v1/email-settings', {
        token: owner.token,
        body: { emailMode: 'ORG_MANAGED', provider, configurations: configurationsOf(provider) },
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const to = nextRecipient(`routed-${provider}`);
      const id = await queueMail(owner.organizationId, to, `Contract via ${provider}`);
      const row = await waitForMail(id, (r) => r.status !== 'PENDING');
      expect(row).toMatchObject({ status: 'SENT', route: provider, attempts: 1, lastError: null });
      expect(receivedBy(provider, to)).toMatchObject({ from: FROM, subject: `Contract via ${provider}` });
      expect(receivedBy(provider, to)!.text).toContain(`Body of Contract via ${provider}`);
      expect(platformSmtp.received.some((m) => m.to.includes(to))).toBe(false);
      const log = await t.request('GET', `/organization/v1/email-deliveries/${id}`, { token: owner.token });
      expect(log.body).toMatchObject({
        id,
        to,
        subject: `Contract via ${provider}`,
        provider,
        status: 'SENT',
        attempts: 1,
        lastError: null,
      });
    },
  );

  it('OAUTH2_MAIL reuses its access token until it nears expiry', async () => {
    const owner = await createMailOwner(t);
    await t.request('PUT', '/organization/v1/email-settings', {
      token: owner.token,
      body: { emailMode: 'ORG_MANAGED', provider: 'OAUTH2_MAIL', configurations: configurationsOf('OAUTH2_MAIL') },
    });
    const before = graph.tokenRequests();
    for (const n of [1, 2, 3])
      await waitForMail(
        await queueMail(owner.organizationId, nextRecipient('token'), `Token reuse ${n}`),
        (r) => r.status === 'SENT',
      );
    expect(graph.tokenRequests() - before).toBe(1);
  });

  it('a failing provider is retried by the outbox; the owner sees the attempt and its error in the log until a fix lets it through', async () => {
    const owner = await createMailOwner(t);
    const put = (apiKey: string) =>
      t.request('PUT', '/organization/v1/email-settings', {
        token: owner.token,
        body: {
          emailMode: 'ORG_MANAGED',
          provider: 'EMAIL_API',
          configurations: configurationsOf('EMAIL_API', { API_KEY: apiKey }),
        },
      });
    expect((await put('SG.revoked-key')).status).toBe(200);
    const to = nextRecipient('retry');
    const id = await queueMail(owner.organizationId, to, 'Needs a retry');
    const failed = await waitForMail(id, (r) => r.attempts >= 1);
    expect(failed).toMatchObject({ status: 'PENDING', route: 'EMAIL_API' });
    const log = await t.request('GET', '/organization/v1/email-deliveries?status=PENDING', { token: owner.token });
    expect(log.body.content).toEqual([
      expect.objectContaining({
        id,
        to,
        subject: 'Needs a retry',
        provider: 'EMAIL_API',
        status: 'PENDING',
        attempts: expect.any(Number),
        lastError: expect.stringMatching(
          /^\[AUTH\] SendGrid refused the API key: 401 The provided authorization grant is invalid/,
        ),
      }),
    ]);
    expect(receivedBy('EMAIL_API', to)).toBeUndefined();

    expect((await put(SENDGRID_KEY)).status).toBe(200);
    const sent = await waitForMail(id, (r) => r.status === 'SENT');
    expect(sent.attempts).toBeGreaterThanOrEqual(2);
    expect(sent.lastError).toBeNull();
    expect(receivedBy('EMAIL_API', to)).toMatchObject({ subject: 'Needs a retry' });
    const after = await t.request('GET', `/organization/v1/email-deliveries/${id}`, { token: owner.token });
    expect(after.body).toMatchObject({ status: 'SENT', lastError: null, sentAt: expect.any(String) });
  });

  it('a plan without custom mail sends through the platform, whatever the stored settings say', async () => {
    const owner = await createMailOwner(t);
    await t.request('PUT', '/organization/v1/email-settings', {
      token: owner.token,
      body: { emailMode: 'ORG_MANAGED', provider: 'SMTP', configurations: configurationsOf('SMTP') },
    });
    await setCustomMailPlan(t, owner.organizationId, false);
    const to = nextRecipient('downgraded');
    const row = await waitForMail(
      await queueMail(owner.organizationId, to, 'After the downgrade'),
      (r) => r.status !== 'PENDING',
    );
    expect(row).toMatchObject({ status: 'SENT', route: 'PLATFORM' });
    expect(platformSmtp.received.find((m) => m.to.includes(to))).toMatchObject({
      from: 'platform@example.com',
      user: 'platform',
    });
    expect(smtp.received.some((m) => m.to.includes(to))).toBe(false);
    expect(
      (await t.request('GET', '/organization/v1/email-deliveries', { token: owner.token })).body.totalElements,
    ).toBe(0);

    // Allowed again: the stored settings take over once more.
    await setCustomMailPlan(t, owner.organizationId, true);
    const back = nextRecipient('upgraded');
    expect(
      await waitForMail(
        await queueMail(owner.organizationId, back, 'After the upgrade'),
        (r) => r.status !== 'PENDING',
      ),
    ).toMatchObject({ status: 'SENT', route: 'SMTP' });
    expect(smtp.received.some((m) => m.to.includes(back))).toBe(true);
  });
});
