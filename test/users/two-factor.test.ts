import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP, URI } from 'otpauth';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signIn, signUp, type SignedUpUser } from '../helpers/auth.ts';
import { users } from '../../src/platform/db/schema/index.ts';

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
/** Freezes the server's clock 10 seconds into the given 30-second step, so step boundaries cannot race the test. */
function atStep(step: number): void {
  vi.setSystemTime(step * STEP_MS + 10_000);
}
function codeAt(secret: string, step: number): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: step * STEP_MS + 10_000 });
}

const signin = (body: unknown) => t.request('POST', '/auth/v1/signin', { body });
const security = (token: string | undefined, body: unknown) =>
  t.request('PUT', '/user/v1/settings/security', { token, body });

function expectError(res: { status: number; body: any }, status: number, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ httpStatusCode: status, success: false, message });
}

async function enrollJson(token: string): Promise<{ secret: string; otpauthUrl: string; qrCodeDataUrl: string }> {
  const res = await t.request('GET', '/user/v1/settings/generateQR', {
    token,
    headers: { accept: 'application/json' },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const otp = URI.parse(res.body.otpauthUrl) as TOTP;
  return { secret: otp.secret.base32, ...res.body };
}

describe('two-factor enrollment and sign-in', () => {
  let user: SignedUpUser;
  beforeAll(async () => {
    user = await signUp(t, { name: 'Tess Totp' });
  });

  it('generateQR answers a PNG by default, and JSON {otpauthUrl, qrCodeDataUrl} on Accept: application/json', async () => {
    const { accessToken } = await signIn(t, user.email, user.password);
    for (const accept of [undefined, '*/*', 'image/png', 'image/png, application/json']) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/user/v1/settings/generateQR',
        headers: { authorization: `Bearer ${accessToken}`, ...(accept ? { accept } : {}) },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/png');
      expect(res.rawPayload.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    }
    const enrollment = await enrollJson(accessToken);
    expect(enrollment.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    expect(enrollment.otpauthUrl).toContain(encodeURIComponent(user.email));
    expect(enrollment.qrCodeDataUrl).toMatch(/^data:image\/png;base64,/);
    const otp = URI.parse(enrollment.otpauthUrl) as TOTP;
    expect({ digits: otp.digits, period: otp.period, algorithm: otp.algorithm }).toEqual({
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    });

    // Stored, not active yet: a PASSWORD sign-in still answers tokens.
    const [row] = await t.platform.db.select().from(users).where(eq(users.id, user.userId));
    expect(row).toMatchObject({ totpSecret: enrollment.secret, twoFactorEnabled: false });
    expect((await signin({ grant_type: 'PASSWORD', username: user.email, password: user.password })).status).toBe(200);

    // Each call replaces the pending secret.
    const again = await enrollJson(accessToken);
    expect(again.secret).not.toBe(enrollment.secret);
  });

  it('end to end: enable with a code, 202 on PASSWORD, G_AUTHENTICATOR once per step, disable', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const s = Math.floor(Date.now() / STEP_MS) + 1;
    atStep(s);
    const { accessToken } = await signIn(t, user.email, user.password);
    const old = await enrollJson(accessToken);
    const { secret } = await enrollJson(accessToken);

    // Wrong code, and a code of the replaced secret: 400, still off.
    const wrong = codeAt(secret, s) === '000000' ? '111111' : '000000';
    expectError(await security(accessToken, { twoFactorEnabled: true, tOtp: wrong }), 400, 'INVALID_TOTP_SETUP');
    if (codeAt(old.secret, s) !== codeAt(secret, s)) {
      expectError(
        await security(accessToken, { twoFactorEnabled: true, tOtp: codeAt(old.secret, s) }),
        400,
        'INVALID_TOTP_SETUP',
      );
    }
    expect((await t.request('GET', '/user/v1/settings/profile', { token: accessToken })).body.twoFactorEnabled).toBe(
      false,
    );

    // The right code turns it on.
    const enabled = await security(accessToken, { twoFactorEnabled: true, tOtp: codeAt(secret, s) });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(enabled.body).toEqual({ twoFactorEnabled: true });
    expect((await t.request('GET', '/user/v1/settings/profile', { token: accessToken })).body.twoFactorEnabled).toBe(
      true,
    );
    expectError(
      await t.request('GET', '/user/v1/settings/generateQR', { token: accessToken }),
      400,
      'OPERATION_IS_NOT_ALLOWED',
    );

    // PASSWORD: 202 with the challenge and no token; a wrong password still 401 (no hint that 2FA is on).
    const challenge = await signin({ grant_type: 'PASSWORD', username: user.email, password: user.password });
    expect(challenge.status).toBe(202);
    expect(challenge.body).toEqual({ tOtpRequired: true, grantType: 'G_AUTHENTICATOR', message: expect.any(String) });
    expect(challenge.body.accessToken).toBeUndefined();
    expectError(
      await signin({ grant_type: 'PASSWORD', username: user.email, password: 'wrong password' }),
      401,
      'INVALID_CREDENTIALS',
    );

    const g = (tOtp: unknown, password = user.password) =>
      signin({ grant_type: 'G_AUTHENTICATOR', username: user.email, password, tOtp });

    // The code that enabled 2FA used up step s.
    expectError(await g(codeAt(secret, s)), 401, 'INVALID_TOTP');

    // Next step: accepted once.
    atStep(s + 1);
    expectError(await g(codeAt(secret, s + 1), 'wrong password'), 401, 'INVALID_CREDENTIALS');
    expectError(await g(wrong === codeAt(secret, s + 1) ? '222222' : wrong), 401, 'INVALID_TOTP');
    const ok = await g(codeAt(secret, s + 1));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(await t.platform.tokens.verify(ok.body.accessToken)).toMatchObject({
      sub: String(user.userId),
      type: 'USER',
      organizationId: user.organizationId,
    });
    const replay = await g(codeAt(secret, s + 1));
    expectError(replay, 401, 'INVALID_TOTP');
    expect(replay.body.errorDescription).toMatch(/already used/);
    // The previous step is inside the drift window but older than the last accepted one.
    expectError(await g(codeAt(secret, s)), 401, 'INVALID_TOTP');

    // One step of clock drift ahead is accepted; two are not.
    expectError(await g(codeAt(secret, s + 3)), 401, 'INVALID_TOTP');
    expect((await g(codeAt(secret, s + 2))).status).toBe(200);
    atStep(s + 2);
    expectError(await g(codeAt(secret, s + 2)), 401, 'INVALID_TOTP');

    // Refresh tokens from a two-factor sign-in rotate like any other.
    const refreshed = await signin({ grant_type: 'REFRESH_TOKEN', refreshToken: ok.body.refreshToken });
    expect(refreshed.status).toBe(200);

    // Turning off needs a current code of the active secret (a password, when sent, must be right); a used step does not count.
    // Without a password it works too: test/conformance/two-factor-off.test.ts.
    atStep(s + 3);
    expectError(
      await security(accessToken, { twoFactorEnabled: false, tOtp: codeAt(secret, s + 3), password: 'wrong password' }),
      400,
      'WRONG_PASSWORD',
    );
    expectError(
      await security(accessToken, { twoFactorEnabled: false, tOtp: codeAt(secret, s + 2), password: user.password }),
      400,
      'INVALID_TOTP_SETUP',
    );
    // A refused password did not use up the code's step.
    const off = await security(accessToken, {
      twoFactorEnabled: false,
      tOtp: codeAt(secret, s + 3),
      password: user.password,
    });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body).toEqual({ twoFactorEnabled: false });
    const [row] = await t.platform.db.select().from(users).where(eq(users.id, user.userId));
    expect(row).toMatchObject({ twoFactorEnabled: false, totpSecret: null });

    // Off: PASSWORD gives tokens again, G_AUTHENTICATOR is refused, and turning on needs a new enrollment.
    expect((await signin({ grant_type: 'PASSWORD', username: user.email, password: user.password })).status).toBe(200);
    atStep(s + 4);
    expectError(await g(codeAt(secret, s + 4)), 400, 'OPERATION_IS_NOT_ALLOWED');
    expectError(
      await security(accessToken, { twoFactorEnabled: true, tOtp: codeAt(secret, s + 4) }),
      400,
      'OPERATION_IS_NOT_ALLOWED',
    );
    // Asking for "off" while off changes nothing.
    expect((await security(accessToken, { twoFactorEnabled: false, tOtp: '123456' })).body).toEqual({
      twoFactorEnabled: false,
    });
  });

  it('tOtp as a number is left-padded: a code with a leading zero works as a number', async () => {
    const person = await signUp(t, { name: 'Nina Number' });
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = Math.floor(Date.now() / STEP_MS) + 1;
    atStep(start);
    const { accessToken } = await signIn(t, person.email, person.password);
    const { secret } = await enrollJson(accessToken);
    // Turn it on with the string form.
    expect((await security(accessToken, { twoFactorEnabled: true, tOtp: codeAt(secret, start) })).status).toBe(200);
    // Find a later step whose code starts with 0 (one in ten does).
    let step = start + 1;
    while (!codeAt(secret, step).startsWith('0')) step += 1;
    atStep(step);
    const code = codeAt(secret, step);
    const res = await signin({
      grant_type: 'G_AUTHENTICATOR',
      username: person.email,
      password: person.password,
      tOtp: Number(code),
    });
    expect(res.status, `code ${code}: ${JSON.stringify(res.body)}`).toBe(200);
    // A plain number without a leading zero works too.
    atStep(step + 1);
    const next = await signin({
      grant_type: 'G_AUTHENTICATOR',
      username: person.email,
      password: person.password,
      tOtp: Number(codeAt(secret, step + 1)),
    });
    expect(next.status).toBe(200);
  });

  it('a concurrent replay of one code signs in once', async () => {
    const person = await signUp(t, { name: 'Rita Race' });
    vi.useFakeTimers({ toFake: ['Date'] });
    const s = Math.floor(Date.now() / STEP_MS) + 1;
    atStep(s);
    const { accessToken } = await signIn(t, person.email, person.password);
    const { secret } = await enrollJson(accessToken);
    expect((await security(accessToken, { twoFactorEnabled: true, tOtp: codeAt(secret, s) })).status).toBe(200);
    atStep(s + 1);
    const body = {
      grant_type: 'G_AUTHENTICATOR',
      username: person.email,
      password: person.password,
      tOtp: codeAt(secret, s + 1),
    };
    const results = await Promise.all([signin(body), signin(body), signin(body)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
  });
});

describe('two-factor endpoints refuse bad callers and bad input', () => {
  let user: SignedUpUser;
  let token: string;
  beforeAll(async () => {
    user = await signUp(t, { name: 'Bad Input' });
    token = (await signIn(t, user.email, user.password)).accessToken;
  });

  it("no token, a garbage token, an expired token: 401; a guest token: 403 (the profile: its recipient row's, 404 without one)", async () => {
    const expired = await t.platform.tokens.sign(
      { sub: String(user.userId), type: 'USER', organizationId: user.organizationId },
      -60,
    );
    const guest = await t.platform.tokens.sign(
      { sub: String(user.userId), type: 'GUEST', recipientId: 999999, workflowId: 999999 },
      600,
    );
    for (const [method, url] of [
      ['GET', '/user/v1/settings/generateQR'],
      ['PUT', '/user/v1/settings/security'],
      ['GET', '/user/v1/settings/profile'],
    ]) {
      const body = method === 'PUT' ? { twoFactorEnabled: true, tOtp: '123456' } : undefined;
      expectError(await t.request(method, url, { body }), 401, 'UNAUTHORIZED');
      expectError(await t.request(method, url, { body, token: 'garbage.token.value' }), 401, 'UNAUTHORIZED');
      expectError(await t.request(method, url, { body, token: expired }), 401, 'UNAUTHORIZED');
      // A guest reads the profile as its recipient row (test/conformance/guest-profile.test.ts); this token's row does not exist.
      if (url.endsWith('/profile')) expectError(await t.request(method, url, { body, token: guest }), 404, 'NOT_FOUND');
      else expectError(await t.request(method, url, { body, token: guest }), 403, 'USER_NOT_HAVE_ACCESS');
    }
  });

  const cases: [string, unknown][] = [
    ['a malformed JSON body', '{"a":'],
    ['an empty object', {}],
    ['a missing tOtp', { twoFactorEnabled: true }],
    ['a missing twoFactorEnabled', { tOtp: '123456' }],
    ['a string for twoFactorEnabled', { twoFactorEnabled: 'true', tOtp: '123456' }],
    ['a boolean tOtp', { twoFactorEnabled: true, tOtp: true }],
    ['a 7-digit string tOtp', { twoFactorEnabled: true, tOtp: '1234567' }],
    ['a 7-digit number tOtp', { twoFactorEnabled: true, tOtp: 1234567 }],
    ['a tOtp of 10000 characters', { twoFactorEnabled: true, tOtp: '1'.repeat(10_000) }],
  ];
  for (const [label, body] of cases) {
    it(`PUT security: ${label} → 400 BAD_REQUEST_BODY`, async () => {
      expectError(await security(token, body), 400, 'BAD_REQUEST_BODY');
    });
  }

  it('turning on without an enrollment answers 400 OPERATION_IS_NOT_ALLOWED', async () => {
    expectError(await security(token, { twoFactorEnabled: true, tOtp: '123456' }), 400, 'OPERATION_IS_NOT_ALLOWED');
  });

  it('a valid token of a user that no longer exists answers 401', async () => {
    const ghost = await t.platform.tokens.sign(
      { sub: '999999', type: 'USER', organizationId: user.organizationId },
      600,
    );
    expectError(await t.request('GET', '/user/v1/settings/generateQR', { token: ghost }), 401, 'UNAUTHORIZED');
    expectError(await t.request('GET', '/user/v1/settings/profile', { token: ghost }), 401, 'UNAUTHORIZED');
  });
});
