import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, guestToken, type TestUser } from '../helpers/factories.ts';
import { insertBusinessApp } from '../helpers/auth.ts';
import { createSoftwareAuthenticator } from '../helpers/webauthn-authenticator.ts';
import { authChallenges, passkeys, users } from '../../src/platform/db/schema/index.ts';

const ORIGIN = 'https://sign.example.test';
const RP_ID = 'sign.example.test';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: ORIGIN, webauthnRpId: RP_ID });
});
afterAll(async () => {
  await t?.close();
});

async function registerPasskey(
  user: TestUser,
  authenticator = createSoftwareAuthenticator({ origin: ORIGIN, rpId: RP_ID }),
  name?: string,
) {
  const options = await t.request('POST', '/user/v1/settings/passkeys/options', { token: user.token });
  expect(options.status, JSON.stringify(options.body)).toBe(200);
  const res = await t.request('POST', '/user/v1/settings/passkeys', {
    token: user.token,
    body: { ...authenticator.register(options.body), ...(name ? { name } : {}) },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { authenticator, passkey: res.body };
}

async function loginOptions(username: string) {
  const res = await t.request('POST', `/auth/webauthn/login/options?username=${encodeURIComponent(username)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

function verify(username: string, assertion: unknown, query = '') {
  return t.request('POST', `/auth/webauthn/login/verify?username=${encodeURIComponent(username)}${query}`, {
    body: assertion,
  });
}

describe('passkey registration (settings)', () => {
  it('offers creation options, stores the passkey, lists it and signs in with it', async () => {
    const user = await createUser(t, { name: 'Pia Passkey' });
    const options = await t.request('POST', '/user/v1/settings/passkeys/options', { token: user.token });
    expect(options.status).toBe(200);
    expect(options.body).toMatchObject({
      rp: { id: RP_ID },
      user: { name: user.email, displayName: 'Pia Passkey' },
      attestation: 'none',
      authenticatorSelection: { userVerification: 'required' },
      excludeCredentials: [],
    });
    expect(options.body.pubKeyCredParams.map((p: { alg: number }) => p.alg)).toContain(-7);
    const authenticator = createSoftwareAuthenticator({ origin: ORIGIN, rpId: RP_ID });
    const created = await t.request('POST', '/user/v1/settings/passkeys', {
      token: user.token,
      body: { ...authenticator.register(options.body), name: 'My laptop' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'My laptop', createdAt: expect.any(String) });

    const list = await t.request('GET', '/user/v1/settings/passkeys', { token: user.token });
    expect(list.body).toEqual([{ ...created.body, lastUsedAt: null, deviceType: 'singleDevice', backedUp: false }]);

    // The next options exclude it.
    const again = await t.request('POST', '/user/v1/settings/passkeys/options', { token: user.token });
    expect(again.body.excludeCredentials).toEqual([
      { id: authenticator.id, type: 'public-key', transports: ['internal'] },
    ]);

    const login = await loginOptions(user.email.toUpperCase());
    expect(login).toMatchObject({
      rpId: RP_ID,
      userVerification: 'required',
      allowCredentials: [{ id: authenticator.id, type: 'public-key' }],
    });
    const session = await verify(user.email, authenticator.assert(login), '&rememberMe=true');
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    expect(session.body).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiry: 900,
      refreshToken: expect.any(String),
      rememberMe: true,
    });
    const profile = await t.request('GET', '/user/v1/settings/profile', { token: session.body.accessToken });
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(user.userId);
    const [stored] = await t.platform.db.select().from(passkeys).where(eq(passkeys.credentialId, authenticator.id));
    expect(stored.counter).toBe(1);
    expect(stored.lastUsedAt).not.toBeNull();
  });

  it('names passkeys by default and refuses the same credential twice (409)', async () => {
    const user = await createUser(t);
    const { authenticator, passkey } = await registerPasskey(user);
    expect(passkey.name).toBe('Passkey 1');
    const options = await t.request('POST', '/user/v1/settings/passkeys/options', { token: user.token });
    const res = await t.request('POST', '/user/v1/settings/passkeys', {
      token: user.token,
      body: authenticator.register(options.body),
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('PASSKEY_ALREADY_REGISTERED');
  });

  it('refuses a wrong origin, a wrong RP id, a replayed or foreign challenge, and no user verification', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const authenticator = createSoftwareAuthenticator({ origin: ORIGIN, rpId: RP_ID });
    const cases: [string, (options: any) => unknown][] = [
      ['origin', (o) => authenticator.register(o, { origin: 'https://evil.example' })],
      ['rp id', (o) => authenticator.register(o, { rpId: 'evil.example' })],
      ['type', (o) => authenticator.register(o, { type: 'webauthn.get' })],
      ['user verification', (o) => authenticator.register(o, { flags: 0x41 })],
      ['unknown challenge', (o) => authenticator.register(o, { challenge: 'bm90LWEtcmVhbC1jaGFsbGVuZ2U' })],
    ];
    for (const [label, answer] of cases) {
      const options = await t.request('POST', '/user/v1/settings/passkeys/options', { token: user.token });
      const res = await t.request('POST', '/user/v1/settings/passkeys', {
        token: user.token,
        body: answer(options.body),
      });
      expect(res.status, label).toBe(400);
      expect(res.body.message, label).toBe('PASSKEY_REGISTRATION_FAILED');
    }
    // Another user's challenge is not this user's.
    const foreign = await t.request('POST', '/user/v1/settings/passkeys/options', { token: other.token });
    const stolen = await t.request('POST', '/user/v1/settings/passkeys', {
      token: user.token,
      body: authenticator.register(foreign.body),
    });
    expect(stolen.status).toBe(400);
    // A challenge answers once: the first (failed) use above spent it for its owner too.
    const spent = await t.request('POST', '/user/v1/settings/passkeys', {
      token: other.token,
      body: authenticator.register(foreign.body),
    });
    expect(spent.status).toBe(400);
    // A good answer, then the same answer again.
    const options = await t.request('POST', '/user/v1/settings/passkeys/options', { token: user.token });
    const body = authenticator.register(options.body);
    expect((await t.request('POST', '/user/v1/settings/passkeys', { token: user.token, body })).status).toBe(200);
    const replay = await t.request('POST', '/user/v1/settings/passkeys', { token: user.token, body });
    expect(replay.status).toBe(400);
    expect((await t.request('GET', '/user/v1/settings/passkeys', { token: user.token })).body).toHaveLength(1);
  });

  it('refuses malformed bodies with 400 BAD_REQUEST_BODY', async () => {
    const user = await createUser(t);
    for (const body of [
      {},
      { id: 'x', rawId: 'x', type: 'public-key', response: {} },
      'not json',
      {
        id: 'a b',
        rawId: 'x',
        type: 'public-key',
        response: { clientDataJSON: 'x', attestationObject: 'x' },
        clientExtensionResults: {},
      },
    ]) {
      const res = await t.request('POST', '/user/v1/settings/passkeys', {
        token: user.token,
        body,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const garbage = await t.request('POST', '/user/v1/settings/passkeys', {
      token: user.token,
      body: {
        id: 'abc',
        rawId: 'abc',
        type: 'public-key',
        response: { clientDataJSON: 'bm9wZQ', attestationObject: 'bm9wZQ' },
        clientExtensionResults: {},
      },
    });
    expect(garbage.status).toBe(400);
    expect(garbage.body.message).toBe('PASSKEY_REGISTRATION_FAILED');
  });

  it("deletes only the caller's own passkey; a deleted passkey no longer signs in", async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const { authenticator, passkey } = await registerPasskey(user);
    expect((await t.request('DELETE', `/user/v1/settings/passkeys/${passkey.id}`, { token: other.token })).status).toBe(
      404,
    );
    expect((await t.request('DELETE', `/user/v1/settings/passkeys/${passkey.id}`, { token: user.token })).status).toBe(
      204,
    );
    expect((await t.request('DELETE', `/user/v1/settings/passkeys/${passkey.id}`, { token: user.token })).status).toBe(
      404,
    );
    const login = await loginOptions(user.email);
    expect(login.allowCredentials).toEqual([]);
    const res = await verify(user.email, authenticator.assert(login));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('PASSKEY_REJECTED');
  });

  it('needs a user token: none 401, a guest 403, a business app 403', async () => {
    const user = await createUser(t);
    const guest = await guestToken(t, { id: 1, userId: user.userId, workflowId: 1 });
    const app = await insertBusinessApp(t, user.organizationId);
    const client = await t.request('POST', '/auth/v1/signin', {
      body: {
        grant_type: 'CLIENT_CREDENTIALS',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        email: user.email,
      },
    });
    expect(client.status).toBe(200);
    for (const [method, url] of [
      ['POST', '/user/v1/settings/passkeys/options'],
      ['GET', '/user/v1/settings/passkeys'],
      ['DELETE', '/user/v1/settings/passkeys/1'],
    ]) {
      expect((await t.request(method, url)).status, url).toBe(401);
      expect((await t.request(method, url, { token: guest })).status, url).toBe(403);
    }
    expect(
      (await t.request('POST', '/user/v1/settings/passkeys/options', { token: client.body.accessToken })).status,
    ).toBe(403);
  });
});

describe('passkey sign-in', () => {
  it('skips the TOTP step of an account with two-factor sign-in', async () => {
    const user = await createUser(t);
    const { authenticator } = await registerPasskey(user);
    await t.platform.db
      .update(users)
      .set({ twoFactorEnabled: true, totpSecret: 'JBSWY3DPEHPK3PXP' })
      .where(eq(users.id, user.userId));
    const res = await verify(user.email, authenticator.assert(await loginOptions(user.email)));
    expect(res.status).toBe(200);
    expect(res.body.rememberMe).toBe(false);
  });

  it('refuses a wrong origin, RP id, challenge, signature, missing user verification and a replay', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const { authenticator } = await registerPasskey(user);
    const impostor = createSoftwareAuthenticator({ origin: ORIGIN, rpId: RP_ID });
    const cases: [string, (options: any) => unknown][] = [
      ['origin', (o) => authenticator.assert(o, { origin: 'https://evil.example' })],
      ['rp id', (o) => authenticator.assert(o, { rpId: 'evil.example' })],
      ['challenge', (o) => authenticator.assert(o, { challenge: 'c29tZXRoaW5nLWVsc2U' })],
      ['type', (o) => authenticator.assert(o, { type: 'webauthn.create' })],
      ['user verification', (o) => authenticator.assert(o, { flags: 0x01 })],
      [
        'signature',
        (o) => ({
          ...authenticator.assert(o),
          response: {
            ...(authenticator.assert(o) as any).response,
            signature: (impostor.assert(o) as any).response.signature,
          },
        }),
      ],
      ['unknown credential', (o) => impostor.assert(o)],
    ];
    for (const [label, answer] of cases) {
      const res = await verify(user.email, answer(await loginOptions(user.email)));
      expect(res.status, label).toBe(401);
      expect(res.body.message, label).toBe('PASSKEY_REJECTED');
    }
    // The other user's challenge does not sign this user in.
    const foreign = await verify(user.email, authenticator.assert(await loginOptions(other.email)));
    expect(foreign.status).toBe(401);
    // A good assertion works once.
    const assertion = authenticator.assert(await loginOptions(user.email));
    expect((await verify(user.email, assertion)).status).toBe(200);
    const replay = await verify(user.email, assertion);
    expect(replay.status).toBe(401);
    expect(replay.body.responseBody ?? replay.body.errorDescription).toBeDefined();
    // An expired challenge.
    const options = await loginOptions(user.email);
    await t.platform.db
      .update(authChallenges)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(authChallenges.challenge, options.challenge));
    expect((await verify(user.email, authenticator.assert(options))).status).toBe(401);
  });

  it('refuses a counter that does not move forward (a cloned authenticator)', async () => {
    const user = await createUser(t);
    const { authenticator } = await registerPasskey(user);
    authenticator.counter = 10;
    // assert() moves the counter to 11.
    expect((await verify(user.email, authenticator.assert(await loginOptions(user.email)))).status).toBe(200);
    for (const counter of [11, 5, 0]) {
      const res = await verify(user.email, authenticator.assert(await loginOptions(user.email), { counter }));
      expect(res.status, `counter ${counter}`).toBe(401);
      expect(res.body.message).toBe('PASSKEY_REJECTED');
    }
    expect(
      (await verify(user.email, authenticator.assert(await loginOptions(user.email), { counter: 12 }))).status,
    ).toBe(200);
    const [stored] = await t.platform.db.select().from(passkeys).where(eq(passkeys.credentialId, authenticator.id));
    expect(stored.counter).toBe(12);
  });

  it('answers options for an unknown account without saying so, and refuses its assertion', async () => {
    const options = await loginOptions('nobody@example.com');
    expect(options.allowCredentials).toEqual([]);
    const authenticator = createSoftwareAuthenticator({ origin: ORIGIN, rpId: RP_ID });
    const res = await verify('nobody@example.com', authenticator.assert(options));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('PASSKEY_REJECTED');
  });

  it('counts every failure against the account: after 10, even a good assertion is locked out', async () => {
    const user = await createUser(t);
    const { authenticator } = await registerPasskey(user);
    for (let i = 0; i < 10; i++) {
      const res = await verify(
        user.email,
        authenticator.assert(await loginOptions(user.email), { origin: 'https://evil.example' }),
      );
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('PASSKEY_REJECTED');
    }
    const locked = await verify(user.email, authenticator.assert(await loginOptions(user.email)));
    expect(locked.status).toBe(401);
    expect(locked.body.message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // Password sign-in shares the lock.
    const password = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'PASSWORD', username: user.email, password: user.password },
    });
    expect(password.body.message).toBe('ACCOUNT_TEMPORARILY_LOCKED');
    expect(await t.mails({ to: user.email, kind: 'ACCOUNT_LOCKED' })).toHaveLength(1);
  });

  it('refuses malformed assertions and queries with 400', async () => {
    expect((await t.request('POST', '/auth/webauthn/login/options')).status).toBe(400);
    expect((await t.request('POST', `/auth/webauthn/login/options?username=${'a'.repeat(300)}`)).status).toBe(400);
    expect((await t.request('POST', '/auth/webauthn/login/verify', { body: {} })).status).toBe(400);
    expect(
      (await t.request('POST', '/auth/webauthn/login/verify?username=a@example.com', { body: { id: 'x' } })).status,
    ).toBe(400);
  });

  it('limits challenges per address: 100 in 15 minutes, then 429 CHALLENGE_RATE_LIMITED with Retry-After', async () => {
    const ask = () =>
      t.app.inject({
        method: 'POST',
        url: '/auth/webauthn/login/options?username=someone@example.com',
        remoteAddress: '203.0.113.7',
      });
    for (let i = 0; i < 100; i++) expect((await ask()).statusCode).toBe(200);
    const refused = await ask();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe('CHALLENGE_RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Other addresses are not affected.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/auth/webauthn/login/options?username=someone@example.com',
          remoteAddress: '203.0.113.8',
        })
      ).statusCode,
    ).toBe(200);
  });
});
