import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNUPS_PER_ADDRESS } from '../../src/platform/limits/attempts.ts';
import { users } from '../../src/platform/db/schema/index.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/*
 * The attack: POST /auth/v1/signup is public, and each one costs an argon2id hash, a user, an organization with the
 * default package's credits and a platform mail to an address the caller picks. Nothing limited them: one client
 * could create accounts (and mail strangers) as fast as the service answered. Now one client address gets
 * SIGNUPS_PER_ADDRESS.max sign-ups an hour; beyond, 429 SIGNUP_LIMIT_REACHED with Retry-After, nothing created or
 * mailed. Other addresses are not affected.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function signupFrom(remoteAddress: string, email: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/v1/signup',
    remoteAddress,
    payload: { name: 'Flood Account', email, password: 'a long enough password' },
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers, raw: res.body };
}

describe('sign-ups from one client address are limited', () => {
  it(`sign-up number ${SIGNUPS_PER_ADDRESS.max + 1} within an hour is 429 SIGNUP_LIMIT_REACHED with Retry-After, and creates nothing`, async () => {
    const flooder = '203.0.113.7';
    for (let i = 0; i < SIGNUPS_PER_ADDRESS.max; i++) {
      const res = await signupFrom(flooder, `flood-${i}@example.com`);
      expect(res.status, res.raw).toBe(201);
    }
    const beyond = await signupFrom(flooder, 'flood-beyond@example.com');
    expect(beyond.status, beyond.raw).toBe(429);
    expect(beyond.body.message).toBe('SIGNUP_LIMIT_REACHED');
    expect(Number(beyond.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.platform.db.select().from(users).where(eq(users.email, 'flood-beyond@example.com'))).toEqual([]);
    expect(await t.mails({ to: 'flood-beyond@example.com' })).toEqual([]);

    // Someone else, from another address, signs up as usual.
    expect((await signupFrom('198.51.100.20', 'someone-else@example.com')).status).toBe(201);
  }, 120_000);

  it('a sign-up refused before the hash (an email already registered) does not use up the allowance', async () => {
    const address = '203.0.113.8';
    expect((await signupFrom(address, 'taken@example.com')).status).toBe(201);
    for (let i = 0; i < SIGNUPS_PER_ADDRESS.max + 5; i++)
      expect((await signupFrom(address, 'taken@example.com')).status).toBe(409);
    expect((await signupFrom(address, 'still-fine@example.com')).status).toBe(201);
  }, 120_000);
});
