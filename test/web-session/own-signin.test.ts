import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { signIn } from '../helpers/auth.ts';
import { attemptEvents, loginStates, users } from '../../src/platform/db/schema/index.ts';
import { CookieBrowser, json, startService } from './helpers.ts';

let t: TestApp;
let baseUrl: string;
const host = '127.0.0.1';

beforeAll(async () => {
  ({ t, baseUrl } = await startService());
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.platform.db.delete(attemptEvents);
});

/** GET /bff/auth/authorize in `browser`: answers the state the own sign-in page was opened with. */
async function openSigninPage(browser: CookieBrowser, query = ''): Promise<string> {
  const answer = await browser.request(`${baseUrl}/bff/auth/authorize${query}`);
  expect(answer.status).toBe(302);
  const page = new URL(answer.headers.get('location')!);
  expect(page.origin + page.pathname).toBe(`${baseUrl}/signin`);
  expect(browser.cookie(host, 'sig_login')?.httpOnly).toBe(true);
  return page.searchParams.get('state')!;
}

function authorize(browser: CookieBrowser, body: Record<string, unknown>) {
  return browser.request(`${baseUrl}/auth/v1/signin/authorize`, { method: 'POST', body });
}

async function passwordSignin(browser: CookieBrowser, user: TestUser, options: { rememberMe?: boolean } = {}) {
  const state = await openSigninPage(browser);
  const answer = await authorize(browser, {
    state,
    grant_type: 'PASSWORD',
    username: user.email,
    password: user.password,
    rememberMe: options.rememberMe ?? false,
  });
  expect(answer.status).toBe(200);
  return { state, redirectUrl: (await json(answer)).redirectUrl as string };
}

describe('the own sign-in page as identity provider (no OIDC_ISSUER)', () => {
  it('serves the page under the web app CSP, then password → code → callback → session cookie → into the app', async () => {
    const user = await createUser(t);
    const browser = new CookieBrowser();
    const page = await browser.request(`${baseUrl}/signin?state=x`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('<div id="root">');

    const { redirectUrl } = await passwordSignin(browser, user, { rememberMe: true });
    expect(redirectUrl.startsWith(`${baseUrl}/bff/auth/callback?code=`)).toBe(true);
    const { response, url } = await browser.follow(redirectUrl, (next) => !next.pathname.startsWith('/bff/'));
    expect(response.status).toBe(302);
    expect(url).toBe(`${baseUrl}/`);
    expect(browser.cookie(host, 'sig_session')?.maxAge).toBeGreaterThan(29 * 24 * 3600);
    const me = await json(await browser.request(`${baseUrl}/bff/auth/me`));
    expect(me).toMatchObject({ userId: user.userId, email: user.email, rememberMe: true });
    // The own provider has no end-session endpoint: logout ends here.
    const logout = await browser.request(`${baseUrl}/bff/auth/logout`, {
      method: 'POST',
      headers: { 'x-csrf-token': me.csrfToken },
    });
    expect(await json(logout)).toEqual({ logoutUrl: `${baseUrl}/` });
  });

  it('asks for the TOTP code when two-factor sign-in is on', async () => {
    const user = await createUser(t);
    const secret = new Secret({ size: 20 });
    await t.platform.db
      .update(users)
      .set({ twoFactorEnabled: true, totpSecret: secret.base32 })
      .where(eq(users.id, user.userId));
    const browser = new CookieBrowser();
    const state = await openSigninPage(browser);
    const first = await authorize(browser, {
      state,
      grant_type: 'PASSWORD',
      username: user.email,
      password: user.password,
    });
    expect(first.status).toBe(202);
    expect((await json(first)).grantType).toBe('G_AUTHENTICATOR');
    const wrong = await authorize(browser, {
      state,
      grant_type: 'G_AUTHENTICATOR',
      username: user.email,
      password: user.password,
      tOtp: '000000',
    });
    expect(wrong.status).toBe(401);
    const tOtp = new TOTP({ secret }).generate();
    const ok = await authorize(browser, {
      state,
      grant_type: 'G_AUTHENTICATOR',
      username: user.email,
      password: user.password,
      tOtp,
    });
    expect(ok.status).toBe(200);
    await browser.follow((await json(ok)).redirectUrl);
    expect((await json(await browser.request(`${baseUrl}/bff/auth/me`))).userId).toBe(user.userId);
  });

  it('counts wrong passwords like password sign-in, and refuses a state that is forged, from another browser, or already used', async () => {
    const user = await createUser(t);
    const browser = new CookieBrowser();
    const state = await openSigninPage(browser);
    const wrong = await authorize(browser, {
      state,
      grant_type: 'PASSWORD',
      username: user.email,
      password: 'wrong-password',
    });
    expect(wrong.status).toBe(401);
    expect((await json(wrong)).message).toBe('INVALID_CREDENTIALS');
    const counted = await t.platform.db.select().from(attemptEvents).where(eq(attemptEvents.scope, 'signin.account'));
    expect(counted.length).toBe(1);

    const forged = await authorize(browser, {
      state: 'forged',
      grant_type: 'PASSWORD',
      username: user.email,
      password: user.password,
    });
    expect((await json(forged)).message).toBe('LOGIN_STATE_INVALID');
    const otherBrowser = await authorize(new CookieBrowser(), {
      state,
      grant_type: 'PASSWORD',
      username: user.email,
      password: user.password,
    });
    expect(otherBrowser.status).toBe(400);
    expect((await json(otherBrowser)).message).toBe('LOGIN_STATE_INVALID');

    const ok = await authorize(browser, {
      state,
      grant_type: 'PASSWORD',
      username: user.email,
      password: user.password,
    });
    expect(ok.status).toBe(200);
    // One code per state: signing in again on the same page is refused.
    const again = await authorize(browser, {
      state,
      grant_type: 'PASSWORD',
      username: user.email,
      password: user.password,
    });
    expect((await json(again)).message).toBe('LOGIN_STATE_INVALID');
  });

  it('the code works once, only with its state, and for one minute', async () => {
    const user = await createUser(t);
    const browser = new CookieBrowser();
    const { redirectUrl } = await passwordSignin(browser, user);
    const forgedCode = new URL(redirectUrl);
    forgedCode.searchParams.set('code', 'guessed-code');
    const refused = await browser.request(forgedCode.href);
    expect(refused.status).toBe(401);
    expect((await json(refused)).message).toBe('SSO_CODE_INVALID');
    // The state is spent by the wrong guess: the genuine code no longer works either.
    expect((await browser.request(redirectUrl)).status).toBe(400);

    const late = new CookieBrowser();
    const second = await passwordSignin(late, user);
    await t.platform.db
      .update(loginStates)
      .set({ codeExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginStates.codeUserId, user.userId));
    expect((await late.request(second.redirectUrl)).status).toBe(401);
    expect(late.cookie(host, 'sig_session')).toBeUndefined();
  });

  it('completes with a fresh refresh token from another sign-in (the place for passkeys and smart cards), which is then revoked', async () => {
    const user = await createUser(t);
    const elsewhere = await signIn(t, user.email, user.password);
    const browser = new CookieBrowser();
    const state = await openSigninPage(browser);
    const answer = await authorize(browser, {
      state,
      grant_type: 'REFRESH_TOKEN',
      refreshToken: elsewhere.refreshToken,
    });
    expect(answer.status).toBe(200);
    await browser.follow((await json(answer)).redirectUrl);
    expect((await json(await browser.request(`${baseUrl}/bff/auth/me`))).userId).toBe(user.userId);
    // The handed-over token was rotated, and its family revoked.
    expect(
      (
        await t.request('POST', '/auth/v1/signin', {
          body: { grant_type: 'REFRESH_TOKEN', refreshToken: elsewhere.refreshToken },
        })
      ).status,
    ).toBe(401);
    const state2 = await openSigninPage(browser);
    const reused = await authorize(browser, {
      state: state2,
      grant_type: 'REFRESH_TOKEN',
      refreshToken: elsewhere.refreshToken,
    });
    expect(reused.status).toBe(401);
  });

  it('refuses a returnTo that leaves the service, and malformed bodies', async () => {
    const browser = new CookieBrowser();
    for (const returnTo of ['//evil.example/x', 'https://evil.example', '/\\evil.example']) {
      const answer = await browser.request(`${baseUrl}/bff/auth/authorize?returnTo=${encodeURIComponent(returnTo)}`);
      expect(answer.status, returnTo).toBe(400);
    }
    const state = await openSigninPage(browser);
    expect((await authorize(browser, { state, grant_type: 'CLIENT_CREDENTIALS' })).status).toBe(400);
    expect((await authorize(browser, { state, grant_type: 'PASSWORD' })).status).toBe(400);
    expect((await authorize(browser, { grant_type: 'PASSWORD', username: 'a@b.c', password: 'x' })).status).toBe(400);
  });

  it('GET /bff/auth/me without a cookie is the standard 401; logout without a cookie answers the home URL', async () => {
    const me = await new CookieBrowser().request(`${baseUrl}/bff/auth/me`);
    expect(me.status).toBe(401);
    expect((await json(me)).message).toBe('UNAUTHORIZED');
    const logout = await new CookieBrowser().request(`${baseUrl}/bff/auth/logout`, { method: 'POST' });
    expect(await json(logout)).toEqual({ logoutUrl: `${baseUrl}/` });
  });
});

describe('SSO redirect with the own sign-in page', () => {
  it('allows only redirect URIs of this service; the page hands its code there; the callback answers tokens', async () => {
    const foreign = await t.request(
      'GET',
      `/auth/v1/signin?redirectUri=${encodeURIComponent('https://evil.example/cb')}`,
    );
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toBe('REDIRECT_URI_NOT_ALLOWED');

    const user = await createUser(t);
    const redirectUri = `${baseUrl}/app/done`;
    const started = await t.request(
      'GET',
      `/auth/v1/signin?redirectUri=${encodeURIComponent(redirectUri)}&rememberMe=true`,
    );
    expect(started.status).toBe(200);
    expect(started.body.authorizationUrl).toBe(`${baseUrl}/signin?state=${encodeURIComponent(started.body.state)}`);
    const browser = new CookieBrowser();
    const answer = await authorize(browser, {
      state: started.body.state,
      grant_type: 'PASSWORD',
      username: user.email,
      password: user.password,
      rememberMe: true,
    });
    const back = new URL((await json(answer)).redirectUrl);
    expect(back.origin + back.pathname).toBe(redirectUri);
    const tokens = await t.request('POST', '/auth/v1/signin/callback', {
      body: { code: back.searchParams.get('code'), state: back.searchParams.get('state'), redirectUri },
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body.rememberMe).toBe(true);
    expect((await t.request('GET', '/user/v1/settings/profile', { token: tokens.body.accessToken })).body.id).toBe(
      user.userId,
    );
  });
});
