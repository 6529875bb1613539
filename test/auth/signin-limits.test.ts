import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP, URI } from 'otpauth';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signIn, signUp, type SignedUpUser } from '../helpers/auth.ts';
import { attemptEvents } from '../../src/platform/db/schema/index.ts';
import { SIGNIN_FAILURES_PER_ACCOUNT } from '../../src/platform/limits/attempts.ts';

/** Issue 7 item 4: sign-in limits of RUNTIME.md "Accounts", kept in the database, with one mail per lock. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

let addressCounter = 0;
/** A fresh client address per test, so the per-address count of one test does not reach another. */
function newAddress(): string {
  addressCounter += 1;
  return `198.51.100.${addressCounter}`;
}

async function signin(body: Record<string, unknown>, address: string) {
  const res = await t.app.inject({ method: 'POST', url: '/auth/v1/signin', payload: body, remoteAddress: address });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

const password = (user: SignedUpUser, pw: string, address: string) =>
  signin({ grant_type: 'PASSWORD', username: user.email, password: pw }, address);

function expectLocked(res: { status: number; body: any; headers: Record<string, unknown> }, maxSeconds = 900) {
  expect(res.status, JSON.stringify(res.body)).toBe(401);
  expect(res.body.message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
  return retryAfter;
}

async function seedFailures(subject: string, ages: number[]) {
  await t.platform.db.insert(attemptEvents).values(
    ages.map((secondsAgo) => ({
      scope: SIGNIN_FAILURES_PER_ACCOUNT.scope,
      subject,
      occurredAt: new Date(Date.now() - secondsAgo * 1000),
    })),
  );
}

describe('per account', () => {
  it('10 wrong passwords lock the account, even for the right password, with Retry-After; the owner gets one mail', async () => {
    const user = await signUp(t, { name: 'Locked Out' });
    const address = newAddress();
    for (let i = 0; i < 10; i++) {
      const res = await password(user, `wrong password ${i}`, address);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('INVALID_CREDENTIALS');
    }
    const retryAfter = expectLocked(await password(user, user.password, address));
    expect(retryAfter).toBeGreaterThan(880);
    // From another address too: the lock is the account's.
    expectLocked(await password(user, user.password, newAddress()));
    for (let i = 0; i < 3; i++) expectLocked(await password(user, 'still guessing', address));

    const mails = await t.mails({ to: user.email, kind: 'ACCOUNT_LOCKED' });
    expect(mails).toHaveLength(1);
    expect(mails[0].textBody).toContain('10 failed sign-in attempts');
    expect(mails[0].organizationId).toBeNull();

    // Another account from the same address is not affected.
    const other = await signUp(t, { name: 'Not Locked' });
    expect((await password(other, other.password, address)).status).toBe(200);
  });

  it('an unknown email locks the same way (the lock does not tell registered addresses apart), and nobody is mailed', async () => {
    const address = newAddress();
    const nobody = { email: `nobody-${Date.now()}@example.com` } as SignedUpUser;
    for (let i = 0; i < 10; i++)
      expect((await password(nobody, 'guess', address)).body.message).toBe('INVALID_CREDENTIALS');
    expectLocked(await password(nobody, 'guess', address));
    expect(await t.mails({ to: nobody.email })).toHaveLength(0);
  });

  it('concurrent failures crossing the limit mail the owner exactly once', async () => {
    const user = await signUp(t, { name: 'Race Target' });
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 14 }, (_, i) => password(user, `parallel guess ${i}`, address)),
    );
    for (const res of answers) expect(res.status).toBe(401);
    expectLocked(await password(user, user.password, address));
    expect(await t.mails({ to: user.email, kind: 'ACCOUNT_LOCKED' })).toHaveLength(1);
  });

  it('stays locked until 15 minutes after the last failure, even when the first failures are older than 15 minutes by then', async () => {
    const user = await signUp(t, { name: 'Slow Burst' });
    // Ten failures within 15 minutes, the last 5 minutes ago: one 16 minutes ago, nine 5 minutes ago.
    await seedFailures(user.email, [16 * 60, ...Array.from({ length: 9 }, () => 5 * 60)]);
    const retryAfter = expectLocked(await password(user, user.password, newAddress()));
    expect(retryAfter).toBeGreaterThan(9 * 60);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
  });

  it('a lock ends 15 minutes after the last failure', async () => {
    const user = await signUp(t, { name: 'Old Burst' });
    await seedFailures(
      user.email,
      Array.from({ length: 10 }, () => 15 * 60 + 5),
    );
    expect((await password(user, user.password, newAddress())).status).toBe(200);
  });

  it("a completed sign-in clears the account's count", async () => {
    const user = await signUp(t, { name: 'Typo Prone' });
    const address = newAddress();
    for (let i = 0; i < 9; i++) await password(user, 'typo', address);
    expect((await password(user, user.password, address)).status).toBe(200);
    for (let i = 0; i < 9; i++) await password(user, 'typo', address);
    expect((await password(user, user.password, address)).status).toBe(200);
  });
});

describe('per address', () => {
  it('100 failures from one address lock every account from that address, not from others', async () => {
    const address = newAddress();
    // Spread over 20 names, 5 each, so that no account reaches its own limit.
    for (let i = 0; i < 100; i++) {
      const res = await password({ email: `spray-${i % 20}@example.com` } as SignedUpUser, 'password123', address);
      expect(res.body.message).toBe('INVALID_CREDENTIALS');
    }
    const user = await signUp(t, { name: 'Same Cafe' });
    expectLocked(await password(user, user.password, address));
    expect((await password(user, user.password, newAddress())).status).toBe(200);
  });
});

describe('TOTP checks count too', () => {
  async function withTwoFactor(name: string): Promise<{ user: SignedUpUser; secret: string; token: string }> {
    const user = await signUp(t, { name });
    const { accessToken } = await signIn(t, user.email, user.password);
    const res = await t.request('GET', '/user/v1/settings/generateQR', {
      token: accessToken,
      headers: { accept: 'application/json' },
    });
    const secret = (URI.parse(res.body.otpauthUrl) as TOTP).secret.base32;
    const enabled = await t.request('PUT', '/user/v1/settings/security', {
      token: accessToken,
      body: { twoFactorEnabled: true, tOtp: currentCode(secret) },
    });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    return { user, secret, token: accessToken };
  }
  const currentCode = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret) }).generate();
  const wrongCode = (secret: string) => (currentCode(secret) === '000000' ? '111111' : '000000');

  it('G_AUTHENTICATOR: 10 wrong codes (right password) lock sign-in', async () => {
    const { user, secret } = await withTwoFactor('Totp Guessed');
    const address = newAddress();
    for (let i = 0; i < 10; i++) {
      const res = await signin(
        { grant_type: 'G_AUTHENTICATOR', username: user.email, password: user.password, tOtp: wrongCode(secret) },
        address,
      );
      expect(res.body.message).toBe('INVALID_TOTP');
    }
    expectLocked(
      await signin(
        { grant_type: 'G_AUTHENTICATOR', username: user.email, password: user.password, tOtp: currentCode(secret) },
        address,
      ),
    );
    expectLocked(await password(user, user.password, address));
    expect(await t.mails({ to: user.email, kind: 'ACCOUNT_LOCKED' })).toHaveLength(1);
  });

  it('settings: wrong codes and passwords when turning 2FA off count, then lock the settings and sign-in', async () => {
    const { user, secret, token } = await withTwoFactor('Stolen Token');
    const off = (body: Record<string, unknown>) =>
      t.request('PUT', '/user/v1/settings/security', { token, body: { twoFactorEnabled: false, ...body } });
    for (let i = 0; i < 5; i++)
      expect((await off({ tOtp: currentCode(secret), password: `not the password ${i}` })).body.message).toBe(
        'WRONG_PASSWORD',
      );
    for (let i = 0; i < 5; i++)
      expect((await off({ tOtp: wrongCode(secret), password: user.password })).body.message).toBe('INVALID_TOTP_SETUP');
    const locked = await off({ tOtp: currentCode(secret), password: user.password });
    expect(locked.status).toBe(401);
    expect(locked.body.message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expectLocked(await password(user, user.password, newAddress()));
    // Still on: the lock refused the right code and password.
    const profile = await t.request('GET', '/user/v1/settings/profile', { token });
    expect(profile.body.twoFactorEnabled).toBe(true);
  });
});
