import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signIn, signUp } from '../helpers/auth.ts';
import { createUser, guestToken, type TestUser } from '../helpers/factories.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { organizations, packages } from '../../src/platform/db/schema/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    cloudImportKeys: {
      boxAppKey: 'box-app-key',
      drive: { clientId: 'drive-client.apps.example', apiKey: 'drive-api-key' },
    },
  });
});
afterAll(async () => {
  await t?.close();
});

/** Moves the user's organization onto a plan of its own that grants `providers`. */
async function grant(user: TestUser, providers: string[]) {
  const [plan] = await t.platform.db
    .insert(packages)
    .values({
      name: `Plan ${providers.join('+') || 'none'} ${user.userId}`,
      credits: 10,
      duration: 30,
      servicePlan: 'STANDARD',
      preset: false,
      cloudProviders: providers,
    })
    .returning();
  await t.platform.db
    .update(organizations)
    .set({ packageId: plan.id })
    .where(eq(organizations.id, user.organizationId));
}

async function cloudFields(user: TestUser) {
  const res = await t.request('GET', '/user/v1/settings/profile', { token: user.token });
  expect(res.status).toBe(200);
  const { driveClientId, driveApiKey, boxAppKey } = res.body;
  return { driveClientId, driveApiKey, boxAppKey };
}

describe('GET /user/v1/settings/profile', () => {
  it("answers the caller's profile; the cloud-import fields are null on a plan that grants no provider", async () => {
    const account = await signUp(t, { name: 'Paula Profile', email: 'Paula@Example.com' });
    const { accessToken } = await signIn(t, account.email, account.password);
    const res = await t.request('GET', '/user/v1/settings/profile', { token: accessToken });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: account.userId,
      name: 'Paula Profile',
      email: 'paula@example.com',
      organizationId: account.organizationId,
      twoFactorEnabled: false,
      emailVerified: false,
      locale: 'en',
      driveClientId: null,
      driveApiKey: null,
      boxAppKey: null,
    });
    // Nothing secret leaks.
    expect(res.raw).not.toMatch(/password|totp/i);
  });

  it("shows each provider's keys only when the organization's plan grants it, Drive's pair together", async () => {
    const drive = { driveClientId: 'drive-client.apps.example', driveApiKey: 'drive-api-key' };
    const none = { driveClientId: null, driveApiKey: null };
    const cases: [string[], object][] = [
      [[], { ...none, boxAppKey: null }],
      [['BOX'], { ...none, boxAppKey: 'box-app-key' }],
      [['DRIVE'], { ...drive, boxAppKey: null }],
      [['DRIVE', 'BOX'], { ...drive, boxAppKey: 'box-app-key' }],
    ];
    for (const [providers, expected] of cases) {
      const user = await createUser(t);
      await grant(user, providers);
      expect(await cloudFields(user), providers.join('+')).toEqual(expected);
    }
  });

  it('leaves a granted provider null when the service has no key for it', async () => {
    const bare = await createTestApp({ cloudImportKeys: { boxAppKey: undefined, drive: undefined } });
    try {
      const user = await createUser(bare);
      const [plan] = await bare.platform.db
        .insert(packages)
        .values({
          name: 'All',
          credits: 1,
          duration: 30,
          servicePlan: 'STANDARD',
          preset: false,
          cloudProviders: ['DRIVE', 'BOX'],
        })
        .returning();
      await bare.platform.db
        .update(organizations)
        .set({ packageId: plan.id })
        .where(eq(organizations.id, user.organizationId));
      const res = await bare.request('GET', '/user/v1/settings/profile', { token: user.token });
      expect(res.body).toMatchObject({ driveClientId: null, driveApiKey: null, boxAppKey: null });
    } finally {
      await bare.close();
    }
  });

  it('refuses anonymous callers (401); a guest token without a recipient row is 404 (with one: test/conformance/guest-profile.test.ts)', async () => {
    const user = await createUser(t);
    expect((await t.request('GET', '/user/v1/settings/profile')).status).toBe(401);
    expect(
      (
        await t.request('GET', '/user/v1/settings/profile', {
          token: await guestToken(t, { id: 999999, userId: user.userId, workflowId: 999999 }),
        })
      ).status,
    ).toBe(404);
  });
});

describe('the Drive keys in the configuration', () => {
  it('are set together or not at all', () => {
    expect(() => loadConfig({ DRIVE_CLIENT_ID: 'id' })).toThrow(ConfigError);
    expect(() => loadConfig({ DRIVE_API_KEY: 'key' })).toThrow(/DRIVE_CLIENT_ID/);
    expect(loadConfig({ DRIVE_CLIENT_ID: 'id', DRIVE_API_KEY: 'key', BOX_APP_KEY: 'box' }).cloudImportKeys).toEqual({
      boxAppKey: 'box',
      drive: { clientId: 'id', apiKey: 'key' },
    });
    expect(loadConfig({}).cloudImportKeys).toEqual({ boxAppKey: undefined, drive: undefined });
  });
});
