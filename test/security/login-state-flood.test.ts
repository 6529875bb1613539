import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_STATES_PER_ADDRESS } from '../../src/platform/limits/attempts.ts';
import { loginStates } from '../../src/platform/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/*
 * The attack: GET /auth/v1/signin and GET /bff/auth/authorize are public, and each stores a login_states row that
 * is kept a day; nothing limited them, so one client could fill the table as fast as the service answered. Now one
 * client address starts at most LOGIN_STATES_PER_ADDRESS.max sign-ins within 15 minutes, on both endpoints together;
 * beyond, 429 LOGIN_STATE_LIMIT_REACHED with Retry-After and no row. Other addresses are not affected.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const ssoStart = (remoteAddress: string) =>
  t.app.inject({
    method: 'GET',
    url: `/auth/v1/signin?redirectUri=${encodeURIComponent(`${t.config.publicUrl}/auth/sso/callback`)}`,
    remoteAddress,
  });
const bffAuthorize = (remoteAddress: string) =>
  t.app.inject({ method: 'GET', url: '/bff/auth/authorize', remoteAddress });
const stateCount = async () => (await t.platform.db.select({ id: loginStates.id }).from(loginStates)).length;

function expectLimited(res: Awaited<ReturnType<typeof ssoStart>>) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json().message).toBe('LOGIN_STATE_LIMIT_REACHED');
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('sign-ins started from one client address are limited', () => {
  it(`after ${LOGIN_STATES_PER_ADDRESS.max} started sign-ins (either endpoint), both answer 429 and store nothing`, async () => {
    const flooder = '203.0.113.9';
    for (let i = 0; i < LOGIN_STATES_PER_ADDRESS.max; i++) {
      const res = i % 2 === 0 ? await ssoStart(flooder) : await bffAuthorize(flooder);
      expect(res.statusCode, res.body).toBe(i % 2 === 0 ? 200 : 302);
    }
    const stored = await stateCount();
    expectLimited(await ssoStart(flooder));
    expectLimited(await bffAuthorize(flooder));
    expect(await stateCount()).toBe(stored);

    // Another address starts a sign-in as usual.
    expect((await bffAuthorize('198.51.100.21')).statusCode).toBe(302);
    expect((await ssoStart('198.51.100.21')).statusCode).toBe(200);
  }, 120_000);
});
