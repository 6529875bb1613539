import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizations } from '../../src/platform/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { VALID_CONFIGURATIONS, createMailOwner } from '../mail-settings/helpers.ts';

/*
 * RUNTIME.md "Request shapes SPEC.md leaves loose": email settings store the configuration keys a client sends beyond
 * the provider's required ones, and mask any whose name ends in PASSWORD, SECRET, SECRET_KEY or API_KEY on read (SPEC.md
 * masks SECRET_KEY, which no provider requires). Masked keys are encrypted at rest like the required credentials.
 */

const SETTINGS = '/organization/v1/email-settings';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const put = (owner: TestUser, body: unknown) => t.request('PUT', SETTINGS, { token: owner.token, body });

async function stored(organizationId: number) {
  const [row] = await t.platform.db
    .select({ emailSettings: organizations.emailSettings })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row.emailSettings as { configurations?: Record<string, string> } | null;
}

const EXTRA_SECRETS = {
  SECRET_KEY: 'extra-secret-key-1',
  WEBHOOK_SECRET: 'extra-webhook-secret',
  BACKUP_API_KEY: 'extra-api-key',
  RELAY_PASSWORD: 'extra-relay-password',
  relay_password: 'lower-case-password',
};
const EXTRA_PLAIN = {
  REPLY_TO: 'replies@acme.example',
  SMTP_TIMEOUT: '30',
  'X-Mailer.Tag': 'contracts',
  SECRETARY: 'not a credential',
};

describe("configuration keys beyond the provider's required ones", () => {
  it('are stored; those named like credentials are masked on read and encrypted at rest', async () => {
    const owner = await createMailOwner(t);
    const configurations = { ...VALID_CONFIGURATIONS.SMTP, ...EXTRA_SECRETS, ...EXTRA_PLAIN };
    const res = await put(owner, { emailMode: 'ORG_MANAGED', provider: 'SMTP', configurations });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const masked = Object.fromEntries(Object.keys(EXTRA_SECRETS).map((key) => [key, '********']));
    const expected = { ...VALID_CONFIGURATIONS.SMTP, PASSWORD: '********', ...masked, ...EXTRA_PLAIN };
    expect(res.body.configurations).toEqual(expected);
    expect((await t.request('GET', SETTINGS, { token: owner.token })).body.configurations).toEqual(expected);
    for (const value of Object.values(EXTRA_SECRETS)) expect(res.raw).not.toContain(value);

    const saved = (await stored(owner.organizationId))!.configurations!;
    for (const [key, value] of Object.entries(EXTRA_SECRETS)) {
      expect(saved[key]).toMatch(/^v1\./);
      expect(saved[key]).not.toContain(value);
      expect(t.platform.secrets.decrypt(saved[key])).toBe(value);
    }
    for (const [key, value] of Object.entries(EXTRA_PLAIN)) expect(saved[key]).toBe(value);
  });

  it('are accepted by the settings test too, which names only the missing required keys', async () => {
    const owner = await createMailOwner(t);
    const { API_KEY: _left, ...withoutKey } = VALID_CONFIGURATIONS.EMAIL_API;
    const res = await t.request('POST', `${SETTINGS}/test`, {
      token: owner.token,
      body: {
        provider: 'EMAIL_API',
        configurations: { ...withoutKey, SECRET_KEY: 's', REPLY_TO: 'r@acme.example' },
        testRecipient: 'ann@example.com',
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ success: false, step: 'CONFIG' });
    expect(res.body.message).toContain('API_KEY');
    expect(res.body.message).not.toMatch(/SECRET_KEY|REPLY_TO/);
  });

  it.each([
    ['a value that is not a string', { SECRET_KEY: 12345 }],
    ['a value over 4096 characters', { SECRET_KEY: 's'.repeat(4097) }],
    ['a key name over 64 characters', { [`K${'E'.repeat(64)}`]: 'v' }],
    ['a key name with a space', { 'REPLY TO': 'v' }],
    ['an empty key name', { '': 'v' }],
    ['more than 20 keys in all', Object.fromEntries(Array.from({ length: 14 }, (_, i) => [`EXTRA_${i}`, 'v']))],
  ])('are still refused with 400 BAD_REQUEST_BODY for %s, and nothing is stored', async (_label, extra) => {
    const owner = await createMailOwner(t);
    const res = await put(owner, {
      emailMode: 'ORG_MANAGED',
      provider: 'SMTP',
      configurations: { ...VALID_CONFIGURATIONS.SMTP, ...extra },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toBe('BAD_REQUEST_BODY');
    expect(await stored(owner.organizationId)).toBeNull();
  });

  it('up to 20 keys in all are taken (the 7 SMTP keys and 13 more)', async () => {
    const owner = await createMailOwner(t);
    const extra = Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`EXTRA_${i}`, 'v']));
    const res = await put(owner, {
      emailMode: 'ORG_MANAGED',
      provider: 'SMTP',
      configurations: { ...VALID_CONFIGURATIONS.SMTP, ...extra },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(Object.keys(res.body.configurations)).toHaveLength(20);
  });
});
