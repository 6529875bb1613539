import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import { signIn } from '../helpers/auth.ts';
import { attemptEvents, loginStates, refreshTokens, users, webSessions } from '../../src/platform/db/schema/index.ts';
import { SIGNIN_FAILURES_PER_ADDRESS } from '../../src/platform/limits/attempts.ts';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { CookieBrowser, freePort, json, startSecondInstance, startService } from './helpers.ts';

let t: TestApp;
let baseUrl: string;
let idp: TestOidcProvider;
const host = '127.0.0.1';
const SESSION = 'sig_session';

beforeAll(async () => {
  const port = await freePort();
  baseUrl = `http://${host}:${port}`;
  idp = await startOidcProvider({
    clients: [
      {
        client_id: 'web-app',
        client_secret: 'web-app-secret',
        redirect_uris: [`${baseUrl}/bff/auth/callback`, `${baseUrl}/app/sso-done`],
        post_logout_redirect_uris: [`${baseUrl}/`],
      },
    ],
  });
  ({ t } = await startService(
    { oidc: { issuer: idp.issuer, clientId: 'web-app', clientSecret: 'web-app-secret' } },
    port,
  ));
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});
beforeEach(async () => {
  // Each test starts with a clean count for the address, so the failures one test provokes do not lock another.
  await t.platform.db.delete(attemptEvents);
});

let accounts = 0;
function providerAccount(overrides: Partial<{ email: string; email_verified: boolean; name: string }> = {}) {
  accounts += 1;
  const account = {
    sub: `sub-${accounts}`,
    email: `person${accounts}@idp.example`,
    email_verified: true,
    name: `Person ${accounts}`,
    ...overrides,
  };
  idp.accounts.set(account.sub, account);
  idp.loginAs(account.sub);
  return account;
}

/** Authorize → provider → login → consent → callback: the browser ends with a session cookie. */
async function signInWithBrowser(browser: CookieBrowser, query = '') {
  return browser.follow(
    `${baseUrl}/bff/auth/authorize${query}`,
    (next) => next.origin === baseUrl && !next.pathname.startsWith('/bff/'),
  );
}

/** Follows the flow up to the provider's redirect back to the callback, without calling it. */
async function callbackUrlFor(browser: CookieBrowser, query = ''): Promise<string> {
  const { url } = await browser.follow(
    `${baseUrl}/bff/auth/authorize${query}`,
    (next) => next.pathname === '/bff/auth/callback',
  );
  return url;
}

async function csrfOf(browser: CookieBrowser): Promise<string> {
  return (await json(await browser.request(`${baseUrl}/bff/auth/me`))).csrfToken;
}

describe('web session through an external OpenID provider (authorization code, PKCE)', () => {
  it('signs in end to end: state, PKCE and nonce, idp_hint passed on, account created, HttpOnly cookie, remember-me, redirect into the app', async () => {
    const account = providerAccount();
    const browser = new CookieBrowser();
    const { response, url } = await signInWithBrowser(
      browser,
      '?idpHint=corporate-ad&rememberMe=true&returnTo=/documents',
    );
    expect(response.status).toBe(302);
    expect(url).toBe(`${baseUrl}/documents`);
    // The browser went to the provider with PKCE S256, a state and a nonce, and the hint.
    const authorizeUrl = new URL(browser.visited[1]);
    expect(authorizeUrl.origin).toBe(idp.issuer);
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizeUrl.searchParams.get('nonce')).toBeTruthy();
    expect(authorizeUrl.searchParams.get('state')).toBeTruthy();
    expect(idp.interactions.at(-1)?.idp_hint).toBe('corporate-ad');

    const cookie = browser.cookie(host, SESSION)!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    expect(cookie.secure).toBe(false);
    expect(cookie.maxAge).toBeGreaterThan(29 * 24 * 3600);
    expect(browser.cookie(host, 'sig_login')).toBeUndefined();

    const me = await json(await browser.request(`${baseUrl}/bff/auth/me`));
    expect(me).toMatchObject({ email: account.email, name: account.name, rememberMe: true });
    const [user] = await t.platform.db.select().from(users).where(eq(users.email, account.email));
    expect(user.id).toBe(me.userId);
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(user.passwordHash).toBeNull();

    // Tokens are stored server-side, encrypted.
    const [row] = await t.platform.db.select().from(webSessions).where(eq(webSessions.userId, user.id));
    expect(row.accessToken.startsWith('v1.')).toBe(true);
    expect(row.idToken?.startsWith('v1.')).toBe(true);

    // The cookie alone authenticates other routes (the bearer token is injected).
    const profile = await browser.request(`${baseUrl}/user/v1/settings/profile`);
    expect(profile.status).toBe(200);
    expect((await json(profile)).email).toBe(account.email);
  });

  it('without remember-me the cookie is a browser-session cookie and the session ends after 12 hours', async () => {
    providerAccount();
    const browser = new CookieBrowser();
    await signInWithBrowser(browser);
    expect(browser.cookie(host, SESSION)?.maxAge).toBeNull();
    const me = await json(await browser.request(`${baseUrl}/bff/auth/me`));
    expect(me.rememberMe).toBe(false);
    const hours = (Date.parse(me.expiresAt) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
  });

  it('refuses a forged state, a replayed callback and an expired state, each counted against the address', async () => {
    providerAccount();
    const browser = new CookieBrowser();
    const callback = await callbackUrlFor(browser);
    const before = await t.platform.db
      .select()
      .from(attemptEvents)
      .where(eq(attemptEvents.scope, SIGNIN_FAILURES_PER_ADDRESS.scope));

    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state-value');
    const forgedAnswer = await browser.request(forged.href);
    expect(forgedAnswer.status).toBe(400);
    expect((await json(forgedAnswer)).message).toBe('LOGIN_STATE_INVALID');

    // The genuine callback still works once (the forged one consumed nothing) ...
    const first = await browser.request(callback);
    expect(first.status).toBe(302);
    // ... and never again.
    const replay = await browser.request(callback);
    expect(replay.status).toBe(400);
    expect((await json(replay)).message).toBe('LOGIN_STATE_INVALID');

    // Expired: the state is older than 10 minutes.
    const late = new CookieBrowser();
    providerAccount();
    const lateCallback = await callbackUrlFor(late);
    const stateHash = (await t.platform.db.select().from(loginStates)).at(-1)!.stateHash;
    await t.platform.db
      .update(loginStates)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginStates.stateHash, stateHash));
    const expired = await late.request(lateCallback);
    expect(expired.status).toBe(400);
    expect(late.cookie(host, SESSION)).toBeUndefined();

    const after = await t.platform.db
      .select()
      .from(attemptEvents)
      .where(eq(attemptEvents.scope, SIGNIN_FAILURES_PER_ADDRESS.scope));
    expect(after.length - before.length).toBe(3);
  });

  it('binds the state to the browser that started it: a callback URL opened in another browser is refused (login CSRF)', async () => {
    providerAccount();
    const attacker = new CookieBrowser();
    const callback = await callbackUrlFor(attacker);
    const victim = new CookieBrowser();
    const answer = await victim.request(callback);
    expect(answer.status).toBe(400);
    expect((await json(answer)).message).toBe('LOGIN_STATE_INVALID');
    expect(victim.cookie(host, SESSION)).toBeUndefined();
  });

  it('refuses an ID token with the wrong nonce and a code exchanged with the wrong PKCE verifier', async () => {
    providerAccount();
    const browser = new CookieBrowser();
    const callback = await callbackUrlFor(browser);
    const state = new URL(callback).searchParams.get('state')!;
    const { createHash } = await import('node:crypto');
    const stateHash = createHash('sha256').update(state).digest('hex');
    await t.platform.db.update(loginStates).set({ nonce: 'another-nonce' }).where(eq(loginStates.stateHash, stateHash));
    const wrongNonce = await browser.request(callback);
    expect(wrongNonce.status).toBe(401);
    const body = await json(wrongNonce);
    expect(body.message).toBe('SSO_CODE_INVALID');
    expect(body.errorDescription).toMatch(/nonce/i);

    providerAccount();
    const second = new CookieBrowser();
    const callback2 = await callbackUrlFor(second);
    const stateHash2 = createHash('sha256').update(new URL(callback2).searchParams.get('state')!).digest('hex');
    await t.platform.db
      .update(loginStates)
      .set({ codeVerifier: 'x'.repeat(43) })
      .where(eq(loginStates.stateHash, stateHash2));
    const wrongVerifier = await second.request(callback2);
    expect(wrongVerifier.status).toBe(401);
    expect((await json(wrongVerifier)).errorDescription).toMatch(/invalid_grant/);
  });

  it('the provider refusing the sign-in (error=access_denied) ends in 401, no session', async () => {
    idp.loginAs('nobody-at-all');
    const browser = new CookieBrowser();
    const { response } = await signInWithBrowser(browser);
    expect(response.status).toBe(401);
    expect((await json(response)).message).toBe('SSO_CODE_INVALID');
    expect(browser.cookie(host, SESSION)).toBeUndefined();
  });

  it('matches an existing verified account by email; refuses an unverified one and an identity whose email the provider did not verify', async () => {
    const existing = await createUser(t, { email: 'existing.person@idp.example' });
    providerAccount({ email: existing.email });
    const browser = new CookieBrowser();
    await signInWithBrowser(browser);
    expect((await json(await browser.request(`${baseUrl}/bff/auth/me`))).userId).toBe(existing.userId);

    const squatted = await createUser(t, { email: 'squatted@idp.example', emailVerified: false });
    providerAccount({ email: squatted.email });
    const refused = await signInWithBrowser(new CookieBrowser());
    expect(refused.response.status).toBe(403);
    expect((await json(refused.response)).message).toBe('SSO_EMAIL_NOT_VERIFIED');

    providerAccount({ email: 'unverified@idp.example', email_verified: false });
    const unverified = await signInWithBrowser(new CookieBrowser());
    expect(unverified.response.status).toBe(403);
    expect((await json(unverified.response)).message).toBe('SSO_EMAIL_NOT_VERIFIED');
    expect(await t.platform.db.select().from(users).where(eq(users.email, 'unverified@idp.example'))).toEqual([]);
  });

  it('locks the address after 100 failures in 15 minutes', async () => {
    await t.platform.db
      .insert(attemptEvents)
      .values(Array.from({ length: 100 }, () => ({ scope: SIGNIN_FAILURES_PER_ADDRESS.scope, subject: host })));
    const answer = await new CookieBrowser().request(`${baseUrl}/bff/auth/callback?code=x&state=y`);
    expect(answer.status).toBe(401);
    expect((await json(answer)).message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the session on other routes', () => {
  it('needs X-CSRF-Token for cookie-authenticated state changes, refuses a foreign Origin, and leaves requests with an Authorization header alone', async () => {
    providerAccount();
    const browser = new CookieBrowser();
    await signInWithBrowser(browser);
    const noToken = await browser.request(`${baseUrl}/auth/v1/verify-email/resend`, { method: 'POST' });
    expect(noToken.status).toBe(403);
    expect((await json(noToken)).message).toBe('CSRF_TOKEN_INVALID');
    const wrongToken = await browser.request(`${baseUrl}/auth/v1/verify-email/resend`, {
      method: 'POST',
      headers: { 'x-csrf-token': 'a'.repeat(43) },
    });
    expect(wrongToken.status).toBe(403);
    const csrf = await csrfOf(browser);
    const foreign = await browser.request(`${baseUrl}/auth/v1/verify-email/resend`, {
      method: 'POST',
      headers: { 'x-csrf-token': csrf, origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const ok = await browser.request(`${baseUrl}/auth/v1/verify-email/resend`, {
      method: 'POST',
      headers: { 'x-csrf-token': csrf, origin: baseUrl },
    });
    expect(ok.status).toBe(200);
    expect(await json(ok)).toEqual({ verified: true, mailed: false });

    // A bearer header wins over the cookie: a bad one is judged as such, with the standard body.
    const bearer = await browser.request(`${baseUrl}/user/v1/settings/profile`, {
      headers: { authorization: 'Bearer not.a.token' },
    });
    expect(bearer.status).toBe(401);
    expect((await json(bearer)).message).toBe('UNAUTHORIZED');
  });

  it('refreshes the access token shortly before it expires, once, whatever the number of requests', async () => {
    providerAccount();
    const browser = new CookieBrowser();
    await signInWithBrowser(browser);
    const me = await json(await browser.request(`${baseUrl}/bff/auth/me`));
    const [before] = await t.platform.db.select().from(webSessions).where(eq(webSessions.userId, me.userId));
    await t.platform.db
      .update(webSessions)
      .set({ accessExpiresAt: new Date(Date.now() + 20_000) })
      .where(eq(webSessions.id, before.id));
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => browser.request(`${baseUrl}/user/v1/settings/profile`)),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const [after] = await t.platform.db.select().from(webSessions).where(eq(webSessions.id, before.id));
    expect(after.generation).toBe(before.generation + 1);
    expect(after.accessExpiresAt.getTime()).toBeGreaterThan(Date.now() + 800_000);
    expect(after.endedAt).toBeNull();
    // The family was rotated exactly once: one rotated token, one live one, nothing revoked.
    const family = await t.platform.db.select().from(refreshTokens).where(eq(refreshTokens.userId, me.userId));
    expect(family.filter((r) => r.rotatedAt).length).toBe(1);
    expect(family.filter((r) => r.revokedAt).length).toBe(0);
  });

  it('at the maximum lifetime answers 401 {error, code: SESSION_EXPIRED} (not the standard body) and deletes the cookie', async () => {
    providerAccount();
    const browser = new CookieBrowser();
    await signInWithBrowser(browser);
    const me = await json(await browser.request(`${baseUrl}/bff/auth/me`));
    await t.platform.db
      .update(webSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(webSessions.userId, me.userId));
    const answer = await browser.request(`${baseUrl}/user/v1/settings/profile`);
    expect(answer.status).toBe(401);
    expect(Object.keys(await json(answer)).sort()).toEqual(['code', 'error']);
    expect(browser.cookie(host, SESSION)).toBeUndefined();
  });

  it('when the refresh is refused (signed out elsewhere) the session ends with SESSION_EXPIRED', async () => {
    const person = await createUser(t, { email: 'two-devices@idp.example' });
    providerAccount({ email: person.email });
    const browser = new CookieBrowser();
    await signInWithBrowser(browser);
    // The same account signs out from another device with a bearer token: every USER refresh token is revoked.
    const elsewhere = await signIn(t, person.email, person.password);
    expect((await t.request('POST', '/auth/v1/signout', { token: elsewhere.accessToken })).status).toBe(200);
    // Until the access token is due, the session still works; when it must be refreshed, it ends.
    expect((await browser.request(`${baseUrl}/user/v1/settings/profile`)).status).toBe(200);
    await t.platform.db
      .update(webSessions)
      .set({ accessExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(webSessions.userId, person.userId));
    const answer = await browser.request(`${baseUrl}/user/v1/settings/profile`);
    expect(answer.status).toBe(401);
    expect(await json(answer)).toEqual({ error: expect.any(String), code: 'SESSION_EXPIRED' });
    const [row] = await t.platform.db.select().from(webSessions).where(eq(webSessions.userId, person.userId));
    expect(row.endReason).toBe('REFRESH_FAILED');
  });

  it('GET /auth/v1/refresh-session with the cookie (and X-CSRF-Token) renews the tokens on the server and gives out none', async () => {
    providerAccount();
    const browser = new CookieBrowser();
    await signInWithBrowser(browser);
    // It writes: without the CSRF token it is refused.
    expect((await browser.request(`${baseUrl}/auth/v1/refresh-session`)).status).toBe(403);
    const answer = await browser.request(`${baseUrl}/auth/v1/refresh-session`, {
      headers: { 'x-csrf-token': await csrfOf(browser) },
    });
    expect(answer.status).toBe(200);
    const body = await json(answer);
    expect(body).toEqual({ expiry: expect.any(Number), rememberMe: false });
    expect(body.expiry).toBeGreaterThan(800);
    expect((await browser.request(`${baseUrl}/user/v1/settings/profile`)).status).toBe(200);
    // Without cookie or header: the standard 401.
    expect((await new CookieBrowser().request(`${baseUrl}/auth/v1/refresh-session`)).status).toBe(401);
  });
});

describe('logout', () => {
  it('POST /bff/auth/logout needs the CSRF token, ends the session everywhere and answers the provider end-session URL with the ID token', async () => {
    providerAccount();
    const browser = new CookieBrowser();
    await signInWithBrowser(browser);
    const cookie = browser.cookie(host, SESSION)!.value;
    const me = await json(await browser.request(`${baseUrl}/bff/auth/me`));

    const refused = await browser.request(`${baseUrl}/bff/auth/logout`, { method: 'POST' });
    expect(refused.status).toBe(403);

    const answer = await browser.request(`${baseUrl}/bff/auth/logout`, {
      method: 'POST',
      headers: { 'x-csrf-token': me.csrfToken },
    });
    expect(answer.status).toBe(200);
    const logoutUrl = new URL((await json(answer)).logoutUrl);
    expect(logoutUrl.origin).toBe(idp.issuer);
    expect(logoutUrl.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect(logoutUrl.searchParams.get('post_logout_redirect_uri')).toBe(`${baseUrl}/`);
    expect(browser.cookie(host, SESSION)).toBeUndefined();
    // The provider accepts the URL (it shows its logout confirmation).
    expect((await fetch(logoutUrl, { redirect: 'manual' })).status).toBe(200);

    // The cookie of the logged-out session, replayed: refused, its tokens revoked, its ID token forgotten.
    const replay = new CookieBrowser();
    replay.setCookie(host, SESSION, cookie);
    const afterLogout = await replay.request(`${baseUrl}/user/v1/settings/profile`);
    expect(afterLogout.status).toBe(401);
    expect((await json(afterLogout)).code).toBe('SESSION_EXPIRED');
    expect((await replay.request(`${baseUrl}/bff/auth/me`)).status).toBe(401);
    const [row] = await t.platform.db.select().from(webSessions).where(eq(webSessions.userId, me.userId));
    expect(row).toMatchObject({ endReason: 'LOGOUT', idToken: null, refreshToken: '' });
    const tokens = await t.platform.db.select().from(refreshTokens).where(eq(refreshTokens.userId, me.userId));
    expect(tokens.every((r) => r.revokedAt !== null)).toBe(true);
  });

  it('POST /auth/v1/signout with the cookie ends the web session too and answers the logout URL', async () => {
    providerAccount();
    const browser = new CookieBrowser();
    await signInWithBrowser(browser);
    const csrf = await csrfOf(browser);
    const cookie = browser.cookie(host, SESSION)!.value;
    const answer = await browser.request(`${baseUrl}/auth/v1/signout`, {
      method: 'POST',
      headers: { 'x-csrf-token': csrf },
    });
    expect(answer.status).toBe(200);
    expect((await json(answer)).logoutUrl).toContain('id_token_hint=');
    const replay = new CookieBrowser();
    replay.setCookie(host, SESSION, cookie);
    expect((await replay.request(`${baseUrl}/user/v1/settings/profile`)).status).toBe(401);
  });
});

describe('several instances', () => {
  it('a session made on one instance works on the other, and a logout on the other ends it on the first', async () => {
    const other = await startSecondInstance(t);
    try {
      // On PostgreSQL the instances share nothing but the database: each has its own connection pool.
      if (t.databaseUrl) expect(other.second.platform.database.db).not.toBe(t.platform.database.db);
      providerAccount();
      const browser = new CookieBrowser();
      await signInWithBrowser(browser);
      const cookie = browser.cookie(host, SESSION)!.value;
      const onSecond = new CookieBrowser();
      onSecond.setCookie(host, SESSION, cookie);
      const me = await json(await onSecond.request(`${other.baseUrl}/bff/auth/me`));
      expect(me.email).toMatch(/@idp\.example$/);
      expect((await onSecond.request(`${other.baseUrl}/user/v1/settings/profile`)).status).toBe(200);
      // A refresh made by the second instance serves the first.
      await t.platform.db
        .update(webSessions)
        .set({ accessExpiresAt: new Date(Date.now() - 1000) })
        .where(eq(webSessions.userId, me.userId));
      expect((await onSecond.request(`${other.baseUrl}/user/v1/settings/profile`)).status).toBe(200);
      expect((await browser.request(`${baseUrl}/user/v1/settings/profile`)).status).toBe(200);

      expect(
        (
          await onSecond.request(`${other.baseUrl}/bff/auth/logout`, {
            method: 'POST',
            headers: { 'x-csrf-token': me.csrfToken },
          })
        ).status,
      ).toBe(200);
      const first = await browser.request(`${baseUrl}/user/v1/settings/profile`);
      expect(first.status).toBe(401);
      expect((await json(first)).code).toBe('SESSION_EXPIRED');
    } finally {
      await other.close();
    }
  });
});

describe('SSO redirect (GET /auth/v1/signin, POST /auth/v1/signin/callback)', () => {
  const redirectUri = () => `${baseUrl}/app/sso-done`;

  async function authorizationCode(): Promise<{ code: string; state: string }> {
    const started = await t.request('GET', `/auth/v1/signin?redirectUri=${encodeURIComponent(redirectUri())}`);
    expect(started.status).toBe(200);
    expect(new URL(started.body.authorizationUrl).origin).toBe(idp.issuer);
    const browser = new CookieBrowser();
    const { url } = await browser.follow(started.body.authorizationUrl, (next) => next.href.startsWith(redirectUri()));
    const back = new URL(url);
    expect(back.searchParams.get('state')).toBe(started.body.state);
    return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
  }

  it('answers the password-login shape; the state is single use and bound to its redirect URI', async () => {
    const account = providerAccount();
    const { code, state } = await authorizationCode();
    const answer = await t.request('POST', '/auth/v1/signin/callback', {
      body: { code, state, redirectUri: redirectUri() },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiry: 900,
      refreshToken: expect.any(String),
      rememberMe: false,
    });
    const profile = await t.request('GET', '/user/v1/settings/profile', { token: answer.body.accessToken });
    expect(profile.body.email).toBe(account.email);

    const replay = await t.request('POST', '/auth/v1/signin/callback', {
      body: { code, state, redirectUri: redirectUri() },
    });
    expect(replay.status).toBe(400);
    expect(replay.body.message).toBe('LOGIN_STATE_INVALID');

    providerAccount();
    const other = await authorizationCode();
    const wrongUri = await t.request('POST', '/auth/v1/signin/callback', {
      body: { ...other, redirectUri: `${baseUrl}/elsewhere` },
    });
    expect(wrongUri.status).toBe(400);
    const forgedCode = await t.request('POST', '/auth/v1/signin/callback', {
      body: { ...other, code: 'forged', redirectUri: redirectUri() },
    });
    expect(forgedCode.status).toBe(401);
    expect(forgedCode.body.message).toBe('SSO_CODE_INVALID');
  });

  it('with sign-up closed, an unknown identity is refused (403 SSO_SIGNUP_DISABLED) and no account is made; known accounts still sign in', async () => {
    const closed = await startSecondInstance(t, { signupEnabled: false });
    try {
      const account = providerAccount({ email: 'latecomer@idp.example' });
      const { code, state } = await authorizationCode();
      const refused = await closed.second.app.inject({
        method: 'POST',
        url: '/auth/v1/signin/callback',
        payload: { code, state, redirectUri: redirectUri() },
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('SSO_SIGNUP_DISABLED');
      expect(await t.platform.db.select().from(users).where(eq(users.email, account.email))).toEqual([]);

      const known = await createUser(t, { email: 'known@idp.example' });
      providerAccount({ email: known.email });
      const again = await authorizationCode();
      const ok = await closed.second.app.inject({
        method: 'POST',
        url: '/auth/v1/signin/callback',
        payload: { ...again, redirectUri: redirectUri() },
      });
      expect(ok.statusCode).toBe(200);
    } finally {
      await closed.close();
    }
  });

  it('rejects malformed input with 400', async () => {
    // No redirectUri is not malformed: the default, which the authorization URL carries (test/conformance/sso-redirect-default.test.ts).
    const started = await t.request('GET', '/auth/v1/signin');
    expect(started.status, started.raw).toBe(200);
    expect(new URL(started.body.authorizationUrl).searchParams.get('redirect_uri')).toBe(
      `${baseUrl}/auth/sso/callback`,
    );
    expect((await t.request('GET', '/auth/v1/signin?redirectUri=not-a-url')).body.message).toBe(
      'REDIRECT_URI_NOT_ALLOWED',
    );
    expect((await t.request('POST', '/auth/v1/signin/callback', { body: { code: 'x' } })).status).toBe(400);
    expect(
      (
        await t.request('POST', '/auth/v1/signin/callback', {
          body: { code: 'x', state: 'y'.repeat(300), redirectUri: redirectUri() },
        })
      ).status,
    ).toBe(400);
  });
});
