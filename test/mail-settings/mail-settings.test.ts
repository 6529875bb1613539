import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, organizations } from '../../src/platform/db/schema/index.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  PROVIDERS,
  VALID_CONFIGURATIONS,
  createMailOwner,
  createPowerMember,
  guestTokenFor,
  setCustomMailPlan,
  type Provider,
} from './helpers.ts';

const SETTINGS = '/organization/v1/email-settings';
const TEST = '/organization/v1/email-settings/test';
const DELIVERIES = '/organization/v1/email-deliveries';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function storedSettings(organizationId: number) {
  const [row] = await t.platform.db
    .select({ emailSettings: organizations.emailSettings })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row.emailSettings as { emailMode: string; provider?: string; configurations?: Record<string, string> } | null;
}

function put(owner: TestUser, body: unknown) {
  return t.request('PUT', SETTINGS, { token: owner.token, body });
}

describe('reading and saving the email settings', () => {
  it('reads GLOBAL with nothing configured, and whether the plan allows custom mail', async () => {
    const owner = await createUser(t);
    const res = await t.request('GET', SETTINGS, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      licenseSmtpEnabled: true,
      planAllowCustomSmtp: false,
      isOwner: true,
      emailMode: 'GLOBAL',
      source: null,
      provider: null,
      configurations: {},
      allowedConnectors: [],
    });
    await setCustomMailPlan(t, owner.organizationId, true);
    expect((await t.request('GET', SETTINGS, { token: owner.token })).body.planAllowCustomSmtp).toBe(true);
  });

  it.each(PROVIDERS)(
    'saves %s settings with the credentials encrypted at rest and masked on read',
    async (provider) => {
      const owner = await createMailOwner(t);
      const configurations = VALID_CONFIGURATIONS[provider];
      const res = await put(owner, { emailMode: 'ORG_MANAGED', source: 'CUSTOM', provider, configurations });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const secretKeys = Object.keys(configurations).filter((key) =>
        ['PASSWORD', 'CLIENT_SECRET', 'API_KEY', 'SECRET_KEY'].includes(key),
      );
      expect(secretKeys.length).toBeGreaterThan(0);
      const expected = Object.fromEntries(
        Object.entries(configurations).map(([key, value]) => [key, secretKeys.includes(key) ? '********' : value]),
      );
      expect(res.body).toMatchObject({
        emailMode: 'ORG_MANAGED',
        source: 'CUSTOM',
        provider,
        configurations: expected,
        planAllowCustomSmtp: true,
      });
      expect((await t.request('GET', SETTINGS, { token: owner.token })).body.configurations).toEqual(expected);

      const stored = await storedSettings(owner.organizationId);
      expect(stored).toMatchObject({ emailMode: 'ORG_MANAGED', provider });
      for (const [key, value] of Object.entries(configurations)) {
        const saved = stored!.configurations![key];
        if (secretKeys.includes(key)) {
          expect(saved).not.toContain(value);
          expect(saved).toMatch(/^v1\./);
          expect(t.platform.secrets.decrypt(saved)).toBe(value);
        } else {
          expect(saved).toBe(value);
        }
      }
    },
  );

  it('stores the mask as the credential when a PUT sends the masked values back, as SPEC.md warns', async () => {
    const owner = await createMailOwner(t);
    await put(owner, { emailMode: 'ORG_MANAGED', provider: 'SMTP', configurations: VALID_CONFIGURATIONS.SMTP });
    const read = await t.request('GET', SETTINGS, { token: owner.token });
    expect(read.body.configurations.PASSWORD).toBe('********');
    const again = await put(owner, {
      emailMode: 'ORG_MANAGED',
      provider: 'SMTP',
      configurations: read.body.configurations,
    });
    expect(again.status).toBe(200);
    const stored = await storedSettings(owner.organizationId);
    expect(t.platform.secrets.decrypt(stored!.configurations!.PASSWORD)).toBe('********');
  });

  it('GLOBAL forgets the custom configuration and its credentials, on any plan', async () => {
    const owner = await createMailOwner(t);
    await put(owner, {
      emailMode: 'ORG_MANAGED',
      provider: 'EMAIL_API',
      configurations: VALID_CONFIGURATIONS.EMAIL_API,
    });
    await setCustomMailPlan(t, owner.organizationId, false);
    const res = await put(owner, {
      emailMode: 'GLOBAL',
      provider: 'EMAIL_API',
      configurations: VALID_CONFIGURATIONS.EMAIL_API,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ emailMode: 'GLOBAL', source: null, provider: null, configurations: {} });
    expect(await storedSettings(owner.organizationId)).toEqual({ emailMode: 'GLOBAL' });
  });

  it('lets USER_ID and PASSWORD be blank when SMTP AUTHENTICATION is off', async () => {
    const owner = await createMailOwner(t);
    const res = await put(owner, {
      emailMode: 'ORG_MANAGED',
      provider: 'SMTP',
      configurations: { ...VALID_CONFIGURATIONS.SMTP, AUTHENTICATION: 'FALSE', USER_ID: '', PASSWORD: '' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('refused settings', () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await createMailOwner(t);
  });

  const missingCases = PROVIDERS.flatMap((provider) =>
    Object.keys(VALID_CONFIGURATIONS[provider]).map((key) => [provider, key] as [Provider, string]),
  );
  it.each(missingCases)(
    '%s without %s is 400 MAIL_SETTINGS_KEY_MISSING naming the key (absent or blank)',
    async (provider, key) => {
      for (const configurations of [
        Object.fromEntries(Object.entries(VALID_CONFIGURATIONS[provider]).filter(([k]) => k !== key)),
        { ...VALID_CONFIGURATIONS[provider], [key]: '   ' },
      ]) {
        const res = await put(owner, { emailMode: 'ORG_MANAGED', provider, configurations });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          errorCode: 18001,
          message: 'MAIL_SETTINGS_KEY_MISSING',
          responseBody: { provider, missingKeys: [key] },
        });
        expect(res.body.errorDescription).toContain(key);
      }
      expect(await storedSettings(owner.organizationId)).toBeNull();
    },
  );

  it.each([
    ['SMTP', { SMTP_PORT: 'twenty-five' }, 'SMTP_PORT'],
    ['SMTP', { SMTP_PORT: '70000' }, 'SMTP_PORT'],
    ['SMTP', { SSL_TLS: 'MAYBE' }, 'SSL_TLS'],
    ['SMTP', { AUTHENTICATION: 'sometimes' }, 'AUTHENTICATION'],
    ['SMTP', { SMTP_SERVER: 'smtp://mail.example.com' }, 'SMTP_SERVER'],
    ['SMTP', { SMTP_SERVER: '127.0.0.1' }, 'SMTP_SERVER'],
    ['SMTP', { SMTP_SERVER: '169.254.169.254' }, 'SMTP_SERVER'],
    ['EMAIL_API', { EMAIL_FROM: 'not an address' }, 'EMAIL_FROM'],
    ['CLOUD_MAIL', { REGION: 'mars-1' }, 'REGION'],
    ['CLOUD_MAIL', { ACCESS_KEY: 'AKIA/../x' }, 'ACCESS_KEY'],
    ['OAUTH2_MAIL', { TENANT_ID: '../common' }, 'TENANT_ID'],
  ] as [Provider, Record<string, string>, string][])(
    '%s with %j is 400 MAIL_SETTINGS_INVALID naming %s',
    async (provider, change, key) => {
      const res = await put(owner, {
        emailMode: 'ORG_MANAGED',
        provider,
        configurations: { ...VALID_CONFIGURATIONS[provider], ...change },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        errorCode: 18002,
        message: 'MAIL_SETTINGS_INVALID',
        responseBody: { provider, keys: [key] },
      });
    },
  );

  it('ORG_MANAGED needs a provider; a plan connector is not available', async () => {
    const noProvider = await put(owner, { emailMode: 'ORG_MANAGED', configurations: VALID_CONFIGURATIONS.SMTP });
    expect(noProvider.status).toBe(400);
    expect(noProvider.body.errorCode).toBe(18002);
    const connector = await put(owner, {
      emailMode: 'ORG_MANAGED',
      source: 'PLAN_CONNECTOR',
      provider: 'SMTP',
      configurations: VALID_CONFIGURATIONS.SMTP,
    });
    expect(connector.status).toBe(400);
    expect(connector.body.errorCode).toBe(18005);
  });

  it.each([
    ['an unknown mode', { emailMode: 'LOCAL' }],
    ['an unknown provider', { emailMode: 'ORG_MANAGED', provider: 'FAX', configurations: {} }],
    [
      'a number as a value',
      {
        emailMode: 'ORG_MANAGED',
        provider: 'EMAIL_API',
        configurations: { API_KEY: 12345, EMAIL_FROM: 'a@b.example' },
      },
    ],
    [
      'a value over 4096 characters',
      {
        emailMode: 'ORG_MANAGED',
        provider: 'EMAIL_API',
        configurations: { API_KEY: 'k'.repeat(4097), EMAIL_FROM: 'a@b.example' },
      },
    ],
    [
      'more than 20 keys',
      {
        emailMode: 'ORG_MANAGED',
        provider: 'EMAIL_API',
        configurations: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`K${i}`, 'v'])),
      },
    ],
    ['configurations as a list', { emailMode: 'ORG_MANAGED', provider: 'EMAIL_API', configurations: ['API_KEY'] }],
    ['no body', undefined],
  ])('a malformed body (%s) is 400 BAD_REQUEST_BODY', async (_name, body) => {
    const res = await put(owner, body);
    expect(res.status).toBe(400);
    expect(res.body.errorCode).toBe(10001);
  });

  it('is 400 CUSTOM_MAIL_NOT_ALLOWED on a plan without custom mail, for saving and testing alike, and nothing is stored', async () => {
    const starter = await createUser(t);
    const res = await put(starter, {
      emailMode: 'ORG_MANAGED',
      provider: 'EMAIL_API',
      configurations: VALID_CONFIGURATIONS.EMAIL_API,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      errorCode: 18003,
      message: 'CUSTOM_MAIL_NOT_ALLOWED',
      errorDescription: 'Your plan does not allow custom email routing',
    });
    expect(await storedSettings(starter.organizationId)).toBeNull();
    const test = await t.request('POST', TEST, {
      token: starter.token,
      body: { provider: 'EMAIL_API', configurations: VALID_CONFIGURATIONS.EMAIL_API, testRecipient: 'ann@example.com' },
    });
    expect(test.status).toBe(400);
    expect(test.body.errorCode).toBe(18003);
  });
});

describe('the settings test, before anything is sent', () => {
  it('answers step CONFIG naming a missing key, and refuses a connector id and a bad recipient', async () => {
    const owner = await createMailOwner(t);
    const { API_KEY: _omitted, ...withoutKey } = VALID_CONFIGURATIONS.EMAIL_API;
    const res = await t.request('POST', TEST, {
      token: owner.token,
      body: { connectorId: null, provider: 'EMAIL_API', configurations: withoutKey, testRecipient: 'ann@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      provider: 'EMAIL_API',
      step: 'CONFIG',
      message: expect.stringContaining('API_KEY'),
    });
    const connector = await t.request('POST', TEST, {
      token: owner.token,
      body: {
        connectorId: 7,
        provider: 'EMAIL_API',
        configurations: VALID_CONFIGURATIONS.EMAIL_API,
        testRecipient: 'ann@example.com',
      },
    });
    expect(connector.status).toBe(400);
    expect(connector.body.errorCode).toBe(18005);
    for (const testRecipient of ['not-an-address', `${'a'.repeat(250)}@example.com`]) {
      const bad = await t.request('POST', TEST, {
        token: owner.token,
        body: { provider: 'EMAIL_API', configurations: VALID_CONFIGURATIONS.EMAIL_API, testRecipient },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errorCode).toBe(10001);
    }
  });

  it('will not connect to an SMTP server whose name leads to a loopback or private address (step CONFIG), so owners cannot probe the network', async () => {
    const owner = await createMailOwner(t);
    for (const server of ['localhost', '127.0.0.1', '10.1.2.3']) {
      const res = await t.request('POST', TEST, {
        token: owner.token,
        body: {
          provider: 'SMTP',
          configurations: { ...VALID_CONFIGURATIONS.SMTP, SMTP_SERVER: server },
          testRecipient: 'ann@example.com',
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: false,
        step: 'CONFIG',
        message: expect.stringMatching(/refused address/),
      });
    }
  });

  it('allows 20 tests per organization per hour, then 429 MAIL_SETTINGS_TEST_LIMITED with Retry-After', async () => {
    const owner = await createMailOwner(t);
    const other = await createMailOwner(t);
    const body = {
      provider: 'SMTP',
      configurations: { EMAIL_FROM: 'x@acme.example' },
      testRecipient: 'ann@example.com',
    };
    for (let i = 0; i < 20; i += 1) {
      const res = await t.request('POST', TEST, { token: owner.token, body });
      expect(res.status).toBe(200);
      expect(res.body.step).toBe('CONFIG');
    }
    const limited = await t.request('POST', TEST, { token: owner.token, body });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ errorCode: 18004, message: 'MAIL_SETTINGS_TEST_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
    expect((await t.request('POST', TEST, { token: other.token, body })).status).toBe(200);
  });
});

describe('who may call', () => {
  const routes: [string, string, unknown?][] = [
    ['GET', SETTINGS],
    [
      'PUT',
      SETTINGS,
      { emailMode: 'ORG_MANAGED', provider: 'EMAIL_API', configurations: VALID_CONFIGURATIONS.EMAIL_API },
    ],
    [
      'POST',
      TEST,
      { provider: 'EMAIL_API', configurations: { EMAIL_FROM: 'x@acme.example' }, testRecipient: 'ann@example.com' },
    ],
    ['GET', DELIVERIES],
    ['GET', `${DELIVERIES}/1`],
  ];

  it('no token is 401; a guest token and a member holding every module right are 403; nothing changes', async () => {
    const owner = await createMailOwner(t);
    const member = await createPowerMember(t, owner);
    const guest = await guestTokenFor(t, member.userId);
    for (const [method, url, body] of routes) {
      expect((await t.request(method, url, { body })).status, `${method} ${url}`).toBe(401);
      const asGuest = await t.request(method, url, { token: guest, body });
      expect(asGuest.status, `${method} ${url}`).toBe(403);
      const asMember = await t.request(method, url, { token: member.token, body });
      expect(asMember.status, `${method} ${url}`).toBe(403);
      expect(asMember.body.message).toBe('USER_NOT_HAVE_ACCESS');
    }
    expect(await storedSettings(owner.organizationId)).toBeNull();
  });

  it("another organization's owner sees only its own settings and gets 404 for this organization's deliveries", async () => {
    const owner = await createMailOwner(t);
    const outsider = await createMailOwner(t);
    await put(owner, {
      emailMode: 'ORG_MANAGED',
      provider: 'EMAIL_API',
      configurations: VALID_CONFIGURATIONS.EMAIL_API,
    });
    const [mail] = await t.platform.db
      .insert(mailOutbox)
      .values({
        organizationId: owner.organizationId,
        toAddress: 'ann@example.com',
        subject: 'Contract',
        textBody: 'secret link',
        kind: 'COMMENCE',
        route: 'EMAIL_API',
        status: 'SENT',
        attempts: 1,
        sentAt: new Date(),
      })
      .returning();
    expect((await t.request('GET', `${DELIVERIES}/${mail.id}`, { token: owner.token })).status).toBe(200);
    const theirs = await t.request('GET', `${DELIVERIES}/${mail.id}`, { token: outsider.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe('NOT_FOUND');
    expect((await t.request('GET', DELIVERIES, { token: outsider.token })).body.totalElements).toBe(0);
    const settings = await t.request('GET', SETTINGS, { token: outsider.token });
    expect(settings.body).toMatchObject({ emailMode: 'GLOBAL', provider: null, configurations: {} });
    // The outsider's PUT changes its own organization only.
    await put(outsider, { emailMode: 'ORG_MANAGED', provider: 'SMTP', configurations: VALID_CONFIGURATIONS.SMTP });
    expect((await storedSettings(owner.organizationId))?.provider).toBe('EMAIL_API');
  });
});

describe('the delivery log', () => {
  it("pages the mails the organization's own provider carried, newest first, with status filter and no body", async () => {
    const owner = await createMailOwner(t);
    const other = await createMailOwner(t);
    const rows = [
      {
        organizationId: owner.organizationId,
        toAddress: 'a@example.com',
        subject: 'Platform sent',
        kind: 'COMMENCE',
        route: 'PLATFORM',
        status: 'SENT',
      },
      {
        organizationId: owner.organizationId,
        toAddress: 'b@example.com',
        subject: 'Sent by SES',
        kind: 'COMMENCE',
        route: 'CLOUD_MAIL',
        status: 'SENT',
        attempts: 1,
        sentAt: new Date(),
      },
      {
        organizationId: owner.organizationId,
        toAddress: 'c@example.com',
        subject: 'Failing SMTP',
        kind: 'REMINDER',
        route: 'SMTP',
        status: 'FAILED',
        attempts: 9,
        lastError: '[AUTH] mail.acme.example refused the login',
      },
      {
        organizationId: owner.organizationId,
        toAddress: 'd@example.com',
        subject: 'Not tried yet',
        kind: 'OTP',
        route: null,
        status: 'PENDING',
      },
      {
        organizationId: other.organizationId,
        toAddress: 'e@example.com',
        subject: 'Other org',
        kind: 'COMMENCE',
        route: 'SMTP',
        status: 'SENT',
      },
    ];
    const inserted = await t.platform.db
      .insert(mailOutbox)
      .values(rows.map((r) => ({ textBody: 'the signing link', htmlBody: '<p>link</p>', ...r })))
      .returning();
    const page = await t.request('GET', DELIVERIES, { token: owner.token });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ totalElements: 2, totalPages: 1, number: 0, size: 20 });
    expect(page.body.content).toEqual([
      {
        id: inserted[2].id,
        kind: 'REMINDER',
        to: 'c@example.com',
        subject: 'Failing SMTP',
        workflowId: null,
        provider: 'SMTP',
        status: 'FAILED',
        attempts: 9,
        lastError: '[AUTH] mail.acme.example refused the login',
        createdAt: expect.any(String),
        sentAt: null,
      },
      {
        id: inserted[1].id,
        kind: 'COMMENCE',
        to: 'b@example.com',
        subject: 'Sent by SES',
        workflowId: null,
        provider: 'CLOUD_MAIL',
        status: 'SENT',
        attempts: 1,
        lastError: null,
        createdAt: expect.any(String),
        sentAt: expect.any(String),
      },
    ]);
    expect(page.raw).not.toContain('signing link');
    const failed = await t.request('GET', `${DELIVERIES}?status=FAILED`, { token: owner.token });
    expect(failed.body.content.map((d: { id: number }) => d.id)).toEqual([inserted[2].id]);
    const second = await t.request('GET', `${DELIVERIES}?page=1&size=1`, { token: owner.token });
    expect(second.body).toMatchObject({ totalElements: 2, totalPages: 2, number: 1, size: 1 });
    expect(second.body.content.map((d: { id: number }) => d.id)).toEqual([inserted[1].id]);
    for (const row of [inserted[0], inserted[3], inserted[4]]) {
      expect((await t.request('GET', `${DELIVERIES}/${row.id}`, { token: owner.token })).status).toBe(404);
    }
    for (const query of ['size=0', 'size=201', 'page=-1', 'status=LOST']) {
      const bad = await t.request('GET', `${DELIVERIES}?${query}`, { token: owner.token });
      expect(bad.status, query).toBe(400);
    }
    expect((await t.request('GET', `${DELIVERIES}/0`, { token: owner.token })).status).toBe(400);
  });
});
