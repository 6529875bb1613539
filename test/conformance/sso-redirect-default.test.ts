import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';

/*
 * RUNTIME.md "Request shapes": GET /auth/v1/signin takes an optional redirectUri; without it the redirect URI is
 * $PUBLIC_URL/auth/sso/callback (the web app's page that hands code and state to the client that opened it: in a real
 * browser, test/e2e/sso-callback.test.ts). The authorization URL carries it; the callback names the same value.
 */
const PUBLIC_URL = 'https://sign.example.test';
const DEFAULT = `${PUBLIC_URL}/auth/sso/callback`;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: PUBLIC_URL });
});
afterAll(async () => {
  await t?.close();
});

/** The own sign-in page's step: the user's password for the started state; answers where the page sends the browser. */
async function signInOnOwnPage(state: string, user: { email: string; password: string }): Promise<URL> {
  const answer = await t.request('POST', '/auth/v1/signin/authorize', {
    body: { state, grant_type: 'PASSWORD', username: user.email, password: user.password },
  });
  expect(answer.status, answer.raw).toBe(200);
  return new URL(answer.body.redirectUrl);
}

describe('GET /auth/v1/signin without redirectUri', () => {
  it('starts the sign-in for $PUBLIC_URL/auth/sso/callback; the callback without redirectUri answers the session', async () => {
    const user = await createUser(t, { name: 'Sue Signin' });
    const started = await t.request('GET', '/auth/v1/signin');
    expect(started.status, started.raw).toBe(200);
    expect(started.body.authorizationUrl).toBe(`${PUBLIC_URL}/signin?state=${encodeURIComponent(started.body.state)}`);
    const back = await signInOnOwnPage(started.body.state, user);
    expect(back.origin + back.pathname).toBe(DEFAULT);
    expect(back.searchParams.get('state')).toBe(started.body.state);
    const tokens = await t.request('POST', '/auth/v1/signin/callback', {
      body: { code: back.searchParams.get('code'), state: started.body.state },
    });
    expect(tokens.status, tokens.raw).toBe(200);
    expect((await t.request('GET', '/user/v1/settings/profile', { token: tokens.body.accessToken })).body.id).toBe(
      user.userId,
    );
  });

  it("the callback may name the default itself; another redirectUri than the start's is 400 LOGIN_STATE_INVALID", async () => {
    const user = await createUser(t, { name: 'Nat Named' });
    const named = await t.request('GET', '/auth/v1/signin');
    const back = await signInOnOwnPage(named.body.state, user);
    const tokens = await t.request('POST', '/auth/v1/signin/callback', {
      body: { code: back.searchParams.get('code'), state: named.body.state, redirectUri: DEFAULT },
    });
    expect(tokens.status, tokens.raw).toBe(200);

    const other = await t.request('GET', '/auth/v1/signin');
    const otherBack = await signInOnOwnPage(other.body.state, user);
    const mismatch = await t.request('POST', '/auth/v1/signin/callback', {
      body: {
        code: otherBack.searchParams.get('code'),
        state: other.body.state,
        redirectUri: `${PUBLIC_URL}/app/done`,
      },
    });
    expect([mismatch.status, mismatch.body.message]).toEqual([400, 'LOGIN_STATE_INVALID']);
  });

  it('an explicit redirectUri still works, and the OpenAPI document marks it optional in both', async () => {
    const explicit = await t.request(
      'GET',
      `/auth/v1/signin?redirectUri=${encodeURIComponent(`${PUBLIC_URL}/app/done`)}`,
    );
    expect(explicit.status).toBe(200);
    const doc = (await t.request('GET', '/docs/json')).body;
    const start = doc.paths['/auth/v1/signin'].get.parameters.find((p: any) => p.name === 'redirectUri');
    expect(start.required ?? false).toBe(false);
    const callback = doc.paths['/auth/v1/signin/callback'].post.requestBody.content['application/json'].schema;
    expect(callback.required).not.toContain('redirectUri');
  });
});
