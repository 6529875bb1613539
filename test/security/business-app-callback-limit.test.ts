import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { businessApps } from '../../src/platform/db/schema/index.ts';
import { BUSINESS_APP_CALLBACK_LIMIT } from '../../src/modules/business-apps/business-apps.service.ts';
import { appBody, expectError, registerApp } from '../business-apps/helpers.ts';

/**
 * Trust issue item 11: an organization keeps at most 10 business apps that receive callbacks (enabled apps: a
 * disabled one receives none), so one organization cannot fill the delivery queue with endpoints of its own.
 * The 11th registration, or enabling an 11th app, answers 400 BUSINESS_APP_LIMIT_REACHED; concurrent requests
 * cannot pass the limit together.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const register = (owner: TestUser, overrides: Record<string, unknown> = {}) =>
  t.request('POST', '/organization/v1/apps', { token: owner.token, body: appBody(overrides) });
const setStatus = (owner: TestUser, appId: number, status: boolean) =>
  t.request('PUT', `/organization/v1/apps/${appId}/status`, { token: owner.token, body: { status } });
const enabledApps = async (owner: TestUser) =>
  (
    await t.platform.db
      .select()
      .from(businessApps)
      .where(and(eq(businessApps.organizationId, owner.organizationId), eq(businessApps.status, true)))
  ).length;

describe('at most 10 apps with a callback per organization', () => {
  it('the 11th registration is refused with a clear error; disabled apps do not count, and enabling one past the limit is refused', async () => {
    const owner = await createUser(t, { name: 'Fiona Full' });
    const apps = [];
    for (let i = 0; i < 10; i++) apps.push(await registerApp(t, owner.token));
    const refused = await register(owner);
    expectError(refused, 400, 'BUSINESS_APP_LIMIT_REACHED');
    expect(refused.body.errorCode).toBe(18106);
    expect(refused.body.responseBody).toMatchObject({ limit: 10 });
    expect(refused.body.errorDescription).toMatch(/10 business apps/);
    expect(BUSINESS_APP_CALLBACK_LIMIT).toBe(10);
    expect(await enabledApps(owner)).toBe(10);

    // A disabled app receives no callbacks: it may be registered, but not enabled while 10 others are.
    const parked = await registerApp(t, owner.token, { status: false });
    expectError(await setStatus(owner, parked.id, true), 400, 'BUSINESS_APP_LIMIT_REACHED');
    expect(await enabledApps(owner)).toBe(10);

    // Disabling one frees its place.
    expect((await setStatus(owner, apps[0].id, false)).status).toBe(200);
    expect((await setStatus(owner, parked.id, true)).status).toBe(200);
    expectError(await setStatus(owner, apps[0].id, true), 400, 'BUSINESS_APP_LIMIT_REACHED');
    // Setting an enabled app enabled again changes nothing and is not refused.
    expect((await setStatus(owner, parked.id, true)).status).toBe(200);

    // Another organization is not affected.
    const other = await createUser(t, { name: 'Otto Other' });
    await registerApp(t, other.token);
  });

  it('concurrent registrations cannot pass the limit together', async () => {
    const owner = await createUser(t, { name: 'Rachel Race' });
    for (let i = 0; i < 8; i++) await registerApp(t, owner.token);
    const answers = await Promise.all(Array.from({ length: 8 }, () => register(owner)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 400, 400, 400, 400, 400, 400]);
    for (const refused of answers.filter((a) => a.status !== 200))
      expect(refused.body.message).toBe('BUSINESS_APP_LIMIT_REACHED');
    expect(await enabledApps(owner)).toBe(10);
  });

  it('concurrent enables cannot pass the limit together either', async () => {
    const owner = await createUser(t, { name: 'Eric Enable' });
    for (let i = 0; i < 9; i++) await registerApp(t, owner.token);
    const parked = await Promise.all(Array.from({ length: 4 }, () => registerApp(t, owner.token, { status: false })));
    const answers = await Promise.all(parked.map((app) => setStatus(owner, app.id, true)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((a) => a.status !== 200))
      expectError(refused, 400, 'BUSINESS_APP_LIMIT_REACHED');
    expect(await enabledApps(owner)).toBe(10);
  });
});
