import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser } from '../helpers/factories.ts';
import { attemptEvents, users } from '../../src/platform/db/schema/index.ts';
import { SIGNIN_FAILURES_PER_ADDRESS } from '../../src/platform/limits/attempts.ts';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';

let t: TestApp;
let off: TestApp;
let idp: TestOidcProvider;
const CLIENT = 'mobile-social-app';

beforeAll(async () => {
  idp = await startOidcProvider({ clients: [{ client_id: CLIENT, redirect_uris: ['http://127.0.0.1/unused'] }] });
  t = await createTestApp({ idp: { issuer: idp.issuer, clientId: CLIENT } });
  off = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await off?.close();
  await idp?.close();
});
beforeEach(async () => {
  await t.platform.db.delete(attemptEvents);
});

let n = 0;
function claims(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    sub: `social-${n}`,
    aud: CLIENT,
    email: `social${n}@idp.example`,
    email_verified: true,
    name: `Social Person`,
    ...overrides,
  };
}

const social = (token: string, extra = '') =>
  t.request('GET', `/auth/v1/signin/social/idp?ott=${encodeURIComponent(token)}${extra}`);

describe('social ID token sign-in (IDP_ISSUER set)', () => {
  it('app settings offer it; a valid token signs in (creating the account) once, through both the GET and grant IDP_AUTH', async () => {
    const settings = await t.request('GET', '/auth/v1/app_settings');
    expect(settings.body.sso.enableIdpAuth).toBe(true);
    expect(settings.body['sso.enableIdpAuth']).toBe(true);

    const first = claims();
    const token = await idp.signIdToken(first);
    const answer = await social(token);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiry: 900,
      refreshToken: expect.any(String),
      rememberMe: false,
    });
    const profile = await t.request('GET', '/user/v1/settings/profile', { token: answer.body.accessToken });
    expect(profile.body.email).toBe(first.email);
    const [user] = await t.platform.db
      .select()
      .from(users)
      .where(eq(users.email, String(first.email)));
    expect(user.emailVerifiedAt).not.toBeNull();

    // Replayed: refused.
    const replay = await social(token);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toBe('IDP_TOKEN_INVALID');

    // The grant, with a nonce, for an existing verified account, remember-me.
    const existing = await createUser(t, { email: 'has.account@idp.example' });
    const withNonce = await idp.signIdToken(claims({ email: existing.email, nonce: 'n-123' }));
    const grant = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'IDP_AUTH', idToken: withNonce, nonce: 'n-123', rememberMe: true },
    });
    expect(grant.status).toBe(200);
    expect(grant.body.rememberMe).toBe(true);
    const me = await t.request('GET', '/user/v1/settings/profile', { token: grant.body.accessToken });
    expect(me.body.id).toBe(existing.userId);
  });

  it('refuses with 401 every token that is not genuine, current, for this client and verified, and counts each', async () => {
    const none = (payload: Record<string, unknown>) => {
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      return `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ iss: idp.issuer, iat: now, exp: now + 600, ...payload })}.`;
    };
    const cases: [string, string, string?][] = [
      ['alg none', none(claims())],
      ['another key', await idp.signIdToken(claims(), { key: 'other' })],
      ['wrong audience', await idp.signIdToken(claims({ aud: 'someone-else' }))],
      ['wrong issuer', await idp.signIdToken(claims({ iss: 'https://evil.example' }))],
      ['expired', await idp.signIdToken(claims(), { expiresInSeconds: -120 })],
      ['email not verified', await idp.signIdToken(claims({ email_verified: false }))],
      ['no email', await idp.signIdToken(claims({ email: undefined }))],
      ['wrong nonce', await idp.signIdToken(claims({ nonce: 'issued-nonce' })), '&nonce=expected-nonce'],
      ['nonce asked, none in token', await idp.signIdToken(claims()), '&nonce=expected-nonce'],
      ['garbage', 'not-a-jwt'],
    ];
    for (const [label, token, extra] of cases) {
      const answer = await social(token, extra ?? '');
      expect(answer.status, label).toBe(401);
      expect(answer.body.message, label).toBe('IDP_TOKEN_INVALID');
    }
    const counted = await t.platform.db
      .select()
      .from(attemptEvents)
      .where(eq(attemptEvents.scope, SIGNIN_FAILURES_PER_ADDRESS.scope));
    expect(counted.length).toBe(cases.length);
    // The grant applies the same checks.
    const grant = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'IDP_AUTH', idToken: cases[2][1] },
    });
    expect(grant.status).toBe(401);
  });

  it('locks the address after 100 failures; rejects malformed input with 400', async () => {
    await t.platform.db
      .insert(attemptEvents)
      .values(Array.from({ length: 100 }, () => ({ scope: SIGNIN_FAILURES_PER_ADDRESS.scope, subject: '127.0.0.1' })));
    const locked = await social(await idp.signIdToken(claims()));
    expect(locked.status).toBe(401);
    expect(locked.body.message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    expect(locked.headers['retry-after']).toBeDefined();
    await t.platform.db.delete(attemptEvents);
    expect((await t.request('GET', '/auth/v1/signin/social/idp')).status).toBe(400);
    expect((await t.request('GET', `/auth/v1/signin/social/idp?ott=${'a'.repeat(9000)}`)).status).toBe(400);
    expect((await t.request('POST', '/auth/v1/signin', { body: { grant_type: 'IDP_AUTH' } })).status).toBe(400);
  });
});

describe('without IDP_ISSUER', () => {
  it('is not offered: app settings say false, both paths answer 400 OPERATION_IS_NOT_ALLOWED', async () => {
    expect((await off.request('GET', '/auth/v1/app_settings')).body.sso.enableIdpAuth).toBe(false);
    const token = await idp.signIdToken(claims());
    const viaGet = await off.request('GET', `/auth/v1/signin/social/idp?ott=${token}`);
    expect(viaGet.status).toBe(400);
    expect(viaGet.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
    const viaGrant = await off.request('POST', '/auth/v1/signin', { body: { grant_type: 'IDP_AUTH', idToken: token } });
    expect(viaGrant.body.message).toBe('OPERATION_IS_NOT_ALLOWED');
  });
});
