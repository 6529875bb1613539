import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { signIn, signUp, type SignedUpUser } from '../helpers/auth.ts';
import { refreshTokens, users } from '../../src/platform/db/schema/index.ts';

let t: TestApp;
let alice: SignedUpUser;
let bob: SignedUpUser;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signUp(t, { name: 'Alice Session' });
  bob = await signUp(t, { name: 'Bob Session' });
});
afterAll(async () => {
  await t?.close();
});

const refreshByGrant = (refreshToken: string) =>
  t.request('POST', '/auth/v1/signin', { body: { grant_type: 'REFRESH_TOKEN', refreshToken } });
const refreshByHeader = (refreshToken: string) =>
  t.request('GET', '/auth/v1/refresh-session', { headers: { authorization: `Bearer ${refreshToken}` } });
const signout = (token: string | undefined, body?: unknown) => t.request('POST', '/auth/v1/signout', { token, body });

function expectError(res: { status: number; body: any }, status: number, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ httpStatusCode: status, success: false, message });
}

describe('refresh (grant REFRESH_TOKEN and GET /auth/v1/refresh-session)', () => {
  for (const [label, refresh] of [
    ['grant REFRESH_TOKEN', refreshByGrant],
    ['refresh-session', refreshByHeader],
  ] as const) {
    it(`${label}: answers a new pair, keeps rememberMe, and the old refresh token stops working`, async () => {
      const first = await signIn(t, alice.email, alice.password, { rememberMe: true });
      const second = await refresh(first.refreshToken);
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({ tokenType: 'Bearer', expiry: 900, rememberMe: true });
      expect(second.body.refreshToken).not.toBe(first.refreshToken);
      expect(await t.platform.tokens.verify(second.body.accessToken)).toMatchObject({
        sub: String(alice.userId),
        type: 'USER',
        organizationId: alice.organizationId,
      });
      const third = await refresh(second.body.refreshToken);
      expect(third.status).toBe(200);
    });

    it(`${label}: reusing a rotated token revokes the whole family`, async () => {
      const first = await signIn(t, alice.email, alice.password);
      const second = await refresh(first.refreshToken);
      expect(second.status).toBe(200);
      const replay = await refresh(first.refreshToken);
      expectError(replay, 401, 'INVALID_REFRESH_TOKEN');
      expect(replay.body.errorDescription).toMatch(/already used/);
      // The legitimate holder's newer token died with the family.
      expectError(await refresh(second.body.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
      // Another sign-in (another family) is unaffected.
      const other = await signIn(t, alice.email, alice.password);
      expect((await refresh(other.refreshToken)).status).toBe(200);
    });
  }

  it('two concurrent refreshes with one token: at most one succeeds, and the family ends revoked', async () => {
    const first = await signIn(t, alice.email, alice.password);
    const results = await Promise.all([refreshByGrant(first.refreshToken), refreshByHeader(first.refreshToken)]);
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    for (const res of results) expect([200, 401]).toContain(res.status);
    for (const res of results.filter((r) => r.status === 200)) {
      expectError(await refreshByGrant(res.body.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    }
  });

  it('an expired refresh token answers 401', async () => {
    const session = await signIn(t, alice.email, alice.password);
    await t.platform.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.userId, alice.userId));
    expectError(await refreshByHeader(session.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
  });

  it('refresh-session refuses a missing header, a non-bearer header, garbage, an access token and an over-long value', async () => {
    const session = await signIn(t, alice.email, alice.password);
    const expired = await t.platform.tokens.sign(
      { sub: String(alice.userId), type: 'USER', organizationId: alice.organizationId },
      -60,
    );
    expectError(await t.request('GET', '/auth/v1/refresh-session'), 401, 'UNAUTHORIZED');
    expectError(
      await t.request('GET', '/auth/v1/refresh-session', { headers: { authorization: 'Basic abc' } }),
      401,
      'UNAUTHORIZED',
    );
    expectError(await refreshByHeader('garbage.token.value'), 401, 'INVALID_REFRESH_TOKEN');
    expectError(await refreshByHeader(session.accessToken), 401, 'INVALID_REFRESH_TOKEN');
    expectError(await refreshByHeader(expired), 401, 'INVALID_REFRESH_TOKEN');
    expectError(await refreshByHeader('x'.repeat(10_000)), 401, 'INVALID_REFRESH_TOKEN');
    expectError(await refreshByGrant('garbage'), 401, 'INVALID_REFRESH_TOKEN');
  });

  it('a session whose user became a member elsewhere (organization changed) must sign in again', async () => {
    const carol = await signUp(t, { name: 'Carol Moves' });
    const session = await signIn(t, carol.email, carol.password);
    await t.platform.db.update(users).set({ organizationId: alice.organizationId }).where(eq(users.id, carol.userId));
    expectError(await refreshByGrant(session.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
  });
});

describe('POST /auth/v1/signout', () => {
  it('revokes every refresh token of the user and answers the logout URL', async () => {
    const phone = await signIn(t, alice.email, alice.password);
    const laptop = await signIn(t, alice.email, alice.password, { rememberMe: true });
    const bobs = await signIn(t, bob.email, bob.password);
    const res = await signout(phone.accessToken);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ logoutUrl: `${t.config.publicUrl}/` });
    expectError(await refreshByGrant(phone.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    expectError(await refreshByHeader(laptop.refreshToken), 401, 'INVALID_REFRESH_TOKEN');
    // Other users keep their sessions, and the user can sign in again.
    expect((await refreshByGrant(bobs.refreshToken)).status).toBe(200);
    const again = await signIn(t, alice.email, alice.password);
    expect((await refreshByGrant(again.refreshToken)).status).toBe(200);
  });

  it("accepts {refreshToken} and an empty object; someone else's refresh token is left alone", async () => {
    const mine = await signIn(t, alice.email, alice.password);
    const bobs = await signIn(t, bob.email, bob.password);
    expect((await signout(mine.accessToken, { refreshToken: mine.refreshToken })).status).toBe(200);
    expectError(await refreshByGrant(mine.refreshToken), 401, 'INVALID_REFRESH_TOKEN');

    const next = await signIn(t, alice.email, alice.password);
    expect((await signout(next.accessToken, { refreshToken: bobs.refreshToken })).status).toBe(200);
    expect((await refreshByGrant(bobs.refreshToken)).status).toBe(200);
    expect((await signout(next.accessToken, {})).status).toBe(200);
  });

  it('refuses no token, a garbage token, an expired token and a guest token', async () => {
    const expired = await t.platform.tokens.sign(
      { sub: String(alice.userId), type: 'USER', organizationId: alice.organizationId },
      -60,
    );
    const guest = await t.platform.tokens.sign(
      { sub: String(alice.userId), type: 'GUEST', recipientId: 1, workflowId: 1 },
      600,
    );
    expectError(await signout(undefined), 401, 'UNAUTHORIZED');
    expectError(await signout('garbage.token.value'), 401, 'UNAUTHORIZED');
    expectError(await signout(expired), 401, 'UNAUTHORIZED');
    expectError(await signout(guest), 403, 'USER_NOT_HAVE_ACCESS');
  });

  it('refuses a malformed body and wrong types with 400', async () => {
    const session = await signIn(t, alice.email, alice.password);
    expectError(await signout(session.accessToken, '{"a":'), 400, 'BAD_REQUEST_BODY');
    expectError(await signout(session.accessToken, { refreshToken: 42 }), 400, 'BAD_REQUEST_BODY');
    expectError(await signout(session.accessToken, { refreshToken: 'x'.repeat(10_000) }), 400, 'BAD_REQUEST_BODY');
    expectError(await signout(session.accessToken, 'true'), 400, 'BAD_REQUEST_BODY');
  });
});
