import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signIn, signUp, type SignedUpUser } from '../helpers/auth.ts';
import { refreshTokens } from '../../src/platform/db/schema/index.ts';
import { findOrCreateGuestUser } from '../../src/modules/users/users.repo.ts';

let t: TestApp;
let alice: SignedUpUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signUp(t, { name: 'Alice Signin' });
});
afterAll(async () => {
  await t?.close();
});

const signin = (body: unknown, token?: string) => t.request('POST', '/auth/v1/signin', { body, token });

function expectError(res: { status: number; body: any }, status: number, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ httpStatusCode: status, success: false, message });
}

describe('grant_type PASSWORD', () => {
  it('answers the session pair; the access token carries sub, type USER, organizationId and exp', async () => {
    const res = await signin({ grant_type: 'PASSWORD', username: alice.email, password: alice.password });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiry: 900,
      refreshToken: expect.any(String),
      rememberMe: false,
    });
    const claims = await t.platform.tokens.verify(res.body.accessToken);
    expect(claims).toMatchObject({ sub: String(alice.userId), type: 'USER', organizationId: alice.organizationId });
    expect(claims!.exp - Math.floor(Date.now() / 1000)).toBeGreaterThan(850);
    expect(claims!.exp - Math.floor(Date.now() / 1000)).toBeLessThanOrEqual(900);

    // The token works on a user route.
    const profile = await t.request('GET', '/user/v1/settings/profile', { token: res.body.accessToken });
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(alice.userId);
  });

  it('rememberMe gives a 30-day session instead of a 12-hour one', async () => {
    const short = await signIn(t, alice.email, alice.password);
    const long = await signIn(t, alice.email, alice.password, { rememberMe: true });
    expect(long.rememberMe).toBe(true);
    const rows = await t.platform.db.select().from(refreshTokens).where(eq(refreshTokens.userId, alice.userId));
    const lifetimeHours = (rememberMe: boolean, column: 'expiresAt' | 'sessionExpiresAt') => {
      const row = rows.filter((r) => r.rememberMe === rememberMe).at(-1)!;
      return (row[column].getTime() - Date.now()) / 3_600_000;
    };
    // Without rememberMe the session (and so its refresh token) ends 12 hours after sign-in.
    for (const column of ['expiresAt', 'sessionExpiresAt'] as const) {
      expect(lifetimeHours(false, column)).toBeGreaterThan(11.99);
      expect(lifetimeHours(false, column)).toBeLessThanOrEqual(12);
      expect(lifetimeHours(true, column)).toBeGreaterThan(30 * 24 - 0.01);
      expect(lifetimeHours(true, column)).toBeLessThanOrEqual(30 * 24);
    }
    expect(short.refreshToken).not.toBe(long.refreshToken);
    // Only the hash is stored.
    expect(rows.some((r) => r.tokenHash === long.refreshToken)).toBe(false);
  });

  it('ignores an Authorization header (public route)', async () => {
    const res = await signin(
      { grant_type: 'PASSWORD', username: alice.email, password: alice.password },
      'garbage.token.value',
    );
    expect(res.status).toBe(200);
  });

  it('wrong password, unknown user and guest user all answer 401 INVALID_CREDENTIALS with the same description', async () => {
    const guest = await findOrCreateGuestUser(t.platform.db, 'only.a.guest@example.com', 'Only Guest');
    const answers = [
      await signin({ grant_type: 'PASSWORD', username: alice.email, password: 'wrong password' }),
      await signin({ grant_type: 'PASSWORD', username: 'nobody@example.com', password: alice.password }),
      await signin({ grant_type: 'PASSWORD', username: guest.email, password: alice.password }),
    ];
    for (const res of answers) expectError(res, 401, 'INVALID_CREDENTIALS');
    // Identical apart from the request's own id.
    expect(new Set(answers.map((r) => JSON.stringify({ ...r.body, requestId: undefined }))).size).toBe(1);
  });

  it('an unknown user costs a password check too (timing does not reveal registered emails)', async () => {
    const time = async (username: string) => {
      const start = performance.now();
      await signin({ grant_type: 'PASSWORD', username, password: 'wrong password' });
      return performance.now() - start;
    };
    await time('warm-up@example.com');
    // Interleaved, so that a busy moment of the machine slows both kinds alike (three of one kind in a row once met a
    // busy machine: 83 ms against 19 ms).
    const knownTimes: number[] = [];
    const unknownTimes: number[] = [];
    for (let i = 0; i < 4; i++) {
      knownTimes.push(await time(alice.email));
      unknownTimes.push(await time('nobody@example.com'));
    }
    const known = Math.min(...knownTimes);
    const unknown = Math.min(...unknownTimes);
    // argon2id verification dominates both; without the dummy check the unknown case would be far faster.
    expect(unknown).toBeGreaterThan(known * 0.4);
  });
});

describe('grant_type IDP_AUTH', () => {
  it('answers 400 OPERATION_IS_NOT_ALLOWED because IDP sign-in is off', async () => {
    const res = await signin({ grant_type: 'IDP_AUTH', idToken: 'x' });
    expectError(res, 400, 'OPERATION_IS_NOT_ALLOWED');
    expect(res.body.errorDescription).toMatch(/sso\.enableIdpAuth/);
    const settings = await t.request('GET', '/auth/v1/app_settings');
    expect(settings.body.sso.enableIdpAuth).toBe(false);
  });
});

describe('POST /auth/v1/signin refuses bad input with 400 BAD_REQUEST_BODY', () => {
  const cases: [string, unknown][] = [
    ['a malformed JSON body', '{"a":'],
    ['an empty object', {}],
    ['an unknown grant_type', { grant_type: 'FOO', username: 'a@example.com', password: 'password' }],
    ['a lower-case grant_type', { grant_type: 'password', username: 'a@example.com', password: 'password' }],
    ['a number for grant_type', { grant_type: 1 }],
    ['a number for username', { grant_type: 'PASSWORD', username: 12345, password: 'password' }],
    [
      'a string for rememberMe',
      { grant_type: 'PASSWORD', username: 'a@example.com', password: 'password', rememberMe: 'yes' },
    ],
    [
      'a username of 300 characters',
      { grant_type: 'PASSWORD', username: `${'a'.repeat(288)}@example.com`, password: 'password' },
    ],
    [
      'a password of 10000 characters',
      { grant_type: 'PASSWORD', username: 'a@example.com', password: 'x'.repeat(10_000) },
    ],
    ['PASSWORD without password', { grant_type: 'PASSWORD', username: 'a@example.com' }],
    ['PASSWORD without username', { grant_type: 'PASSWORD', password: 'password' }],
    [
      'G_AUTHENTICATOR without tOtp',
      { grant_type: 'G_AUTHENTICATOR', username: 'a@example.com', password: 'password' },
    ],
    [
      'a tOtp of 5 digits as a string',
      { grant_type: 'G_AUTHENTICATOR', username: 'a@example.com', password: 'password', tOtp: '12345' },
    ],
    [
      'a tOtp with letters',
      { grant_type: 'G_AUTHENTICATOR', username: 'a@example.com', password: 'password', tOtp: '12a456' },
    ],
    [
      'a tOtp number of 7 digits',
      { grant_type: 'G_AUTHENTICATOR', username: 'a@example.com', password: 'password', tOtp: 1234567 },
    ],
    ['a negative tOtp', { grant_type: 'G_AUTHENTICATOR', username: 'a@example.com', password: 'password', tOtp: -1 }],
    [
      'a fractional tOtp',
      { grant_type: 'G_AUTHENTICATOR', username: 'a@example.com', password: 'password', tOtp: 12.5 },
    ],
    ['REFRESH_TOKEN without refreshToken', { grant_type: 'REFRESH_TOKEN' }],
    ['a number for refreshToken', { grant_type: 'REFRESH_TOKEN', refreshToken: 42 }],
    ['a refreshToken of 10000 characters', { grant_type: 'REFRESH_TOKEN', refreshToken: 'x'.repeat(10_000) }],
    ['CLIENT_CREDENTIALS without email', { grant_type: 'CLIENT_CREDENTIALS', client_id: 'a', client_secret: 'b' }],
    [
      'CLIENT_CREDENTIALS without client_secret',
      { grant_type: 'CLIENT_CREDENTIALS', client_id: 'a', email: 'a@example.com' },
    ],
    [
      'a number for client_id',
      { grant_type: 'CLIENT_CREDENTIALS', client_id: 7, client_secret: 'b', email: 'a@example.com' },
    ],
  ];
  for (const [label, body] of cases) {
    it(label, async () => {
      expectError(await signin(body), 400, 'BAD_REQUEST_BODY');
    });
  }

  it('names the missing field of the grant', async () => {
    const res = await signin({ grant_type: 'PASSWORD', username: 'a@example.com' });
    expect(res.body.errorDescription).toBe('password is required with grant_type PASSWORD');
  });
});
