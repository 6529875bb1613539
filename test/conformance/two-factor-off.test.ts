import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP, URI } from 'otpauth';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signIn, signUp } from '../helpers/auth.ts';
import { users } from '../../src/platform/db/schema/index.ts';

/*
 * RUNTIME.md "Request shapes SPEC.md leaves loose": PUT /user/v1/settings/security {twoFactorEnabled: false, tOtp} turns
 * two-factor sign-in off on a current code; a password, when sent, must be right too.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
afterEach(() => {
  vi.useRealTimers();
});

const STEP_MS = 30_000;
const atStep = (step: number) => vi.setSystemTime(step * STEP_MS + 10_000);
const codeAt = (secret: string, step: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: step * STEP_MS + 10_000 });
const security = (token: string, body: unknown) => t.request('PUT', '/user/v1/settings/security', { token, body });

/** A signed-up user with two-factor sign-in on (enabled at step s); answers its token and secret. */
async function withTwoFactor(name: string, s: number) {
  const person = await signUp(t, { name });
  atStep(s);
  const { accessToken } = await signIn(t, person.email, person.password);
  const enrollment = await t.request('GET', '/user/v1/settings/generateQR', {
    token: accessToken,
    headers: { accept: 'application/json' },
  });
  const secret = (URI.parse(enrollment.body.otpauthUrl) as TOTP).secret.base32;
  expect((await security(accessToken, { twoFactorEnabled: true, tOtp: codeAt(secret, s) })).status).toBe(200);
  return { person, token: accessToken, secret };
}

async function twoFactorOf(userId: number) {
  const [row] = await t.platform.db
    .select({ on: users.twoFactorEnabled, secret: users.totpSecret })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

describe('turning two-factor sign-in off', () => {
  it('takes a current code alone, without a password', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const s = Math.floor(Date.now() / STEP_MS) + 1;
    const { person, token, secret } = await withTwoFactor('Olga Off', s);
    atStep(s + 1);
    const off = await security(token, { twoFactorEnabled: false, tOtp: codeAt(secret, s + 1) });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toEqual({ twoFactorEnabled: false });
    expect(await twoFactorOf(person.userId)).toEqual({ on: false, secret: null });
    // The password alone signs in again.
    expect(
      (
        await t.request('POST', '/auth/v1/signin', {
          body: { grant_type: 'PASSWORD', username: person.email, password: person.password },
        })
      ).status,
    ).toBe(200);
  });

  it('still needs a current code: a wrong or reused one is 400 INVALID_TOTP_SETUP and two-factor stays on', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const s = Math.floor(Date.now() / STEP_MS) + 1;
    const { person, token, secret } = await withTwoFactor('Carl Code', s);
    // The step that turned it on is used up.
    const reused = await security(token, { twoFactorEnabled: false, tOtp: codeAt(secret, s) });
    expect(reused.status).toBe(400);
    expect(reused.body.message).toBe('INVALID_TOTP_SETUP');
    atStep(s + 1);
    const wrong = codeAt(secret, s + 1) === '000000' ? '111111' : '000000';
    const refused = await security(token, { twoFactorEnabled: false, tOtp: wrong });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('INVALID_TOTP_SETUP');
    expect((await twoFactorOf(person.userId)).on).toBe(true);
  });

  it('checks a password that is sent: wrong is 400 WRONG_PASSWORD (the code is not used up), right turns it off', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const s = Math.floor(Date.now() / STEP_MS) + 1;
    const { person, token, secret } = await withTwoFactor('Paul Password', s);
    atStep(s + 1);
    const wrong = await security(token, {
      twoFactorEnabled: false,
      tOtp: codeAt(secret, s + 1),
      password: 'not the password',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('WRONG_PASSWORD');
    expect((await twoFactorOf(person.userId)).on).toBe(true);
    const right = await security(token, {
      twoFactorEnabled: false,
      tOtp: codeAt(secret, s + 1),
      password: person.password,
    });
    expect(right.status, JSON.stringify(right.body)).toBe(200);
    expect((await twoFactorOf(person.userId)).on).toBe(false);
  });
});
