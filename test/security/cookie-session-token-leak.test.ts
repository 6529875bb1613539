import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { webSessions } from '../../src/platform/db/schema/index.ts';
import { sha256 } from '../../src/modules/auth/sso.service.ts';
import { cookieSession, type CookieSession } from './security-helpers.ts';

/**
 * The point of the web session is that page script never holds a portable token: the access and refresh tokens
 * stay on the server. No answer to a cookie call hands one out.
 */
let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t, { name: 'Wendy Web' });
});
afterAll(async () => {
  await t?.close();
});

/** The session's tokens as the server holds them. */
async function storedTokens(session: CookieSession): Promise<string[]> {
  const [row] = await t.platform.db
    .select()
    .from(webSessions)
    .where(eq(webSessions.cookieHash, sha256(session.cookie)));
  return [t.platform.secrets.decrypt(row.accessToken), t.platform.secrets.decrypt(row.refreshToken)];
}

/** Fails when an answer names a token member, carries a JWT, or contains one of `tokens`. */
function expectNoToken(answer: string, tokens: string[], label: string) {
  expect(answer, label).not.toMatch(/accessToken|refreshToken/i);
  expect(answer, label).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./);
  for (const token of tokens) expect(answer.includes(token), `${label} contains a session token`).toBe(false);
}

describe('GET /auth/v1/refresh-session with the session cookie', () => {
  it('renews the session on the server and answers {expiry, rememberMe}: no access or refresh token', async () => {
    const session = await cookieSession(t, user);
    const [oldAccess, oldRefresh] = await storedTokens(session);
    const res = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/refresh-session',
      headers: { cookie: session.cookieHeader, 'x-csrf-token': session.csrfToken },
    });
    expect(res.statusCode, res.body).toBe(200);
    const renewed = await storedTokens(session);
    expectNoToken(res.body + JSON.stringify(res.headers), [oldAccess, oldRefresh, ...renewed], 'refresh-session');
    expect(res.json()).toEqual({ expiry: expect.any(Number), rememberMe: false });
    expect(res.json().expiry).toBeGreaterThan(800);
    // The tokens were renewed where they live, and the session goes on working.
    expect(renewed[0]).not.toBe(oldAccess);
    expect(renewed[1]).not.toBe(oldRefresh);
    const profile = await t.app.inject({
      method: 'GET',
      url: '/user/v1/settings/profile',
      headers: { cookie: session.cookieHeader },
    });
    expect(profile.statusCode).toBe(200);
  });

  it('an ended session still answers 401 {error, code: SESSION_EXPIRED} and deletes the cookie', async () => {
    const session = await cookieSession(t, user);
    const out = await t.app.inject({
      method: 'POST',
      url: '/bff/auth/logout',
      headers: { cookie: session.cookieHeader, 'x-csrf-token': session.csrfToken },
    });
    expect(out.statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'GET',
      url: '/auth/v1/refresh-session',
      headers: { cookie: session.cookieHeader, 'x-csrf-token': session.csrfToken },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'SESSION_EXPIRED' });
    expect(String(res.headers['set-cookie'])).toMatch(/sig_session=;.*Max-Age=0/);
  });

  it('a bearer refresh token is still exchanged for a pair (that client already holds a portable token)', async () => {
    const signin = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'PASSWORD', username: user.email, password: user.password },
    });
    const res = await t.request('GET', '/auth/v1/refresh-session', {
      headers: { authorization: `Bearer ${signin.body.refreshToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ accessToken: expect.any(String), refreshToken: expect.any(String) });
  });
});

describe('the /bff/auth/* answers', () => {
  it('authorize, the sign-in, callback, me and logout never carry a token', async () => {
    const session = await cookieSession(t, user);
    const tokens = await storedTokens(session);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/bff/auth/logout',
      headers: { cookie: session.cookieHeader, 'x-csrf-token': session.csrfToken },
    });
    expect(logout.statusCode).toBe(200);
    for (const [index, answer] of [...session.raw, logout.body, JSON.stringify(logout.headers)].entries())
      expectNoToken(answer, tokens, `answer ${index}`);
  });

  it("nor does any answer to the cookie on the account's own reads", async () => {
    const session = await cookieSession(t, user);
    const tokens = await storedTokens(session);
    for (const url of ['/bff/auth/me', '/user/v1/settings/profile', '/document/v1', '/organization/v1/invitations']) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: session.cookieHeader, accept: 'application/json' },
      });
      expect(res.statusCode, url).toBe(200);
      expectNoToken(res.body + JSON.stringify(res.headers), tokens, url);
    }
  });
});
