import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fields, organizations, users, workflows } from '../../src/platform/db/schema/index.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { createTestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { insertBusinessApp, signIn } from '../helpers/auth.ts';
import { commence, draftForSending, redeem, signingCodesOf } from '../helpers/signing.ts';
import { pngDataUrl } from '../helpers/ceremony.ts';
import { markSent } from '../helpers/envelope-states.ts';
import { createSoftwareAuthenticator } from '../helpers/webauthn-authenticator.ts';
import { startOidcProvider, type TestOidcProvider } from '../helpers/oidc-provider.ts';
import { memberOf } from '../billing/organization-callers.ts';
import { CookieBrowser, json, startService } from '../web-session/helpers.ts';

/**
 * The operator's switches (docs/security.md "The operator's switches"): POST /admin/v1/users/{userId}/disable and
 * /organizations/{orgId}/disable, and /enable. Every way of authenticating is tried over HTTP while disabled (403
 * ACCOUNT_DISABLED / ORGANIZATION_DISABLED, never 500) and again once enabled (it works as before: nothing was lost).
 */
const ADMIN_TOKEN = crypto.randomBytes(24).toString('hex');
const ORIGIN = 'https://sign.example.test';
const RP_ID = 'sign.example.test';
const CLIENT = 'mobile-social-app';

let t: TestApp;
let baseUrl: string;
/** A second service for what needs its own origin or an identity provider (passkeys, social ID tokens). */
let other: TestApp;
let idp: TestOidcProvider;

beforeAll(async () => {
  ({ t, baseUrl } = await startService({ adminToken: ADMIN_TOKEN }));
  idp = await startOidcProvider({ clients: [{ client_id: CLIENT, redirect_uris: ['http://127.0.0.1/unused'] }] });
  other = await createTestApp({
    adminToken: ADMIN_TOKEN,
    publicUrl: ORIGIN,
    webauthnRpId: RP_ID,
    idp: { issuer: idp.issuer, clientId: CLIENT },
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await other?.close();
  await idp?.close();
});

const admin = (app: TestApp, method: string, url: string, body?: unknown) =>
  app.request(method, url, { token: ADMIN_TOKEN, body });
const me = (token: string, app = t) => app.request('GET', '/user/v1/settings/profile', { token });
const signin = (body: Record<string, unknown>, app = t) => app.request('POST', '/auth/v1/signin', { body });

function expectRefused(res: { status: number; body: any }, message: string, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(403);
  expect(res.body, what).toMatchObject({ message, errorCode: message === 'ACCOUNT_DISABLED' ? 14013 : 14014 });
  expect(typeof res.body.errorDescription, what).toBe('string');
}

/** A SENT envelope of `owner` with one guest signer, and a code of its signing link. */
async function sentEnvelope(app: TestApp, owner: TestUser) {
  const { workflow, rows } = await draftForSending(app, owner, { recipients: [{ name: 'Gina Guest' }] });
  await markSent(app, workflow.id, [rows[0].id]);
  const code = signingCodesOf(app).mint(rows[0].id, workflow.id, new Date(Date.now() + 24 * 3600 * 1000));
  return { workflow, recipient: rows[0], code };
}

/** A web session through the service's own sign-in page (password → code → callback → cookie), in `browser`. */
async function webSession(browser: CookieBrowser, user: TestUser) {
  const started = await browser.request(`${baseUrl}/bff/auth/authorize`);
  expect(started.status).toBe(302);
  const state = new URL(started.headers.get('location')!).searchParams.get('state')!;
  const answer = await browser.request(`${baseUrl}/auth/v1/signin/authorize`, {
    method: 'POST',
    body: { state, grant_type: 'PASSWORD', username: user.email, password: user.password },
  });
  return answer;
}

describe('disabling a user', { timeout: 120_000 }, () => {
  it('records who and when; every way in answers 403 ACCOUNT_DISABLED; enabling restores it all', async () => {
    const user = await createUser(t);
    const session = await signIn(t, user.email, user.password);
    const app = await insertBusinessApp(t, user.organizationId);
    const client = await signin({
      grant_type: 'CLIENT_CREDENTIALS',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      email: user.email,
    });
    expect(client.status).toBe(200);
    const envelope = await sentEnvelope(t, user);
    const guest = await redeem(t, envelope.code);
    expect(guest.status).toBe(200);
    const browser = new CookieBrowser();
    await browser.follow((await json(await webSession(browser, user))).redirectUrl);
    expect((await browser.request(`${baseUrl}/bff/auth/me`)).status).toBe(200);

    const disabled = await admin(t, 'POST', `/admin/v1/users/${user.userId}/disable`, {
      by: 'ops-alice',
      reason: 'chargeback',
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(disabled.body).toMatchObject({
      id: user.userId,
      disabled: true,
      disabledAt: expect.any(String),
      disabledBy: 'ops-alice',
      disabledReason: 'chargeback',
    });
    const [row] = await t.platform.db.select().from(users).where(eq(users.id, user.userId));
    expect(row.disabledAt?.toISOString()).toBe(disabled.body.disabledAt);
    // Disabling again keeps the first record.
    const again = await admin(t, 'POST', `/admin/v1/users/${user.userId}/disable`, { by: 'ops-bob' });
    expect(again.body).toMatchObject({ disabledAt: disabled.body.disabledAt, disabledBy: 'ops-alice' });

    // Tokens already issued: the user's own, its refresh token, the business app's, the signing link's guest token.
    expectRefused(await me(user.token), 'ACCOUNT_DISABLED', 'access token');
    expectRefused(await me(session.accessToken), 'ACCOUNT_DISABLED', 'signed-in access token');
    expectRefused(
      await signin({ grant_type: 'REFRESH_TOKEN', refreshToken: session.refreshToken }),
      'ACCOUNT_DISABLED',
      'refresh',
    );
    expectRefused(await me(client.body.accessToken), 'ACCOUNT_DISABLED', 'business-app token');
    expectRefused(
      await t.request('GET', `/workflow/v1/${envelope.workflow.id}/history`, { token: guest.body.accessToken }),
      'ACCOUNT_DISABLED',
      "guest token of the user's envelope",
    );
    // Signing in again, in every way: refused only once the credentials were right.
    expect((await signin({ grant_type: 'PASSWORD', username: user.email, password: 'wrong password!' })).status).toBe(
      401,
    );
    const password = await signin({ grant_type: 'PASSWORD', username: user.email, password: user.password });
    expectRefused(password, 'ACCOUNT_DISABLED', 'password sign-in');
    expect(password.body.errorDescription).toBe('This account is disabled by the operator of this service');
    expectRefused(
      await signin({
        grant_type: 'CLIENT_CREDENTIALS',
        client_id: app.clientId,
        client_secret: app.clientSecret,
        email: user.email,
      }),
      'ACCOUNT_DISABLED',
      'client credentials',
    );
    // The signing link of the user's envelope: a clear error for the recipient.
    const link = await redeem(t, envelope.code);
    expectRefused(link, 'ACCOUNT_DISABLED', 'signing link');
    expect(link.body.errorDescription).toContain("The sender's account is disabled");
    // The web session: its cookie is refused on the API and by /bff/auth/me; a new sign-in through the page too.
    const cookieCall = await browser.request(`${baseUrl}/user/v1/settings/profile`);
    expect(cookieCall.status).toBe(403);
    expect((await json(cookieCall)).message).toBe('ACCOUNT_DISABLED');
    const cookieMe = await browser.request(`${baseUrl}/bff/auth/me`);
    expect(cookieMe.status).toBe(403);
    expect((await json(cookieMe)).message).toBe('ACCOUNT_DISABLED');
    const page = await webSession(new CookieBrowser(), user);
    expect(page.status).toBe(403);
    expect((await json(page)).message).toBe('ACCOUNT_DISABLED');
    // Listed as disabled.
    expect((await admin(t, 'GET', `/admin/v1/users?search=${user.email}`)).body.content[0]).toMatchObject({
      disabled: true,
      disabledBy: 'ops-alice',
    });

    // Enabled: the same tokens, sessions and links work again; nothing was deleted.
    const enabled = await admin(t, 'POST', `/admin/v1/users/${user.userId}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body).toMatchObject({ disabled: false, disabledAt: null, disabledBy: null, disabledReason: null });
    expect((await me(user.token)).status).toBe(200);
    expect((await me(client.body.accessToken)).status).toBe(200);
    expect((await signin({ grant_type: 'REFRESH_TOKEN', refreshToken: session.refreshToken })).status).toBe(200);
    expect((await signIn(t, user.email, user.password)).accessToken).toBeTruthy();
    expect((await redeem(t, envelope.code)).status).toBe(200);
    expect(
      (await t.request('GET', `/workflow/v1/${envelope.workflow.id}/history`, { token: guest.body.accessToken }))
        .status,
    ).toBe(200);
    expect((await browser.request(`${baseUrl}/bff/auth/me`)).status).toBe(200);
    expect(
      (await t.platform.db.select().from(workflows).where(eq(workflows.ownerUserId, user.userId))).length,
    ).toBeGreaterThan(0);
  });

  it('two-factor sign-in is refused after both factors, a disabled recipient cannot redeem its own link', async () => {
    const user = await createUser(t);
    const secret = new Secret({ size: 20 });
    await t.platform.db
      .update(users)
      .set({ twoFactorEnabled: true, totpSecret: secret.base32 })
      .where(eq(users.id, user.userId));
    const sender = await createUser(t);
    const envelope = await sentEnvelope(t, sender);
    expect((await admin(t, 'POST', `/admin/v1/users/${user.userId}/disable`)).body.disabledBy).toBe('operator');
    expect((await admin(t, 'POST', `/admin/v1/users/${envelope.recipient.userId}/disable`)).status).toBe(200);
    expectRefused(
      await signin({ grant_type: 'PASSWORD', username: user.email, password: user.password }),
      'ACCOUNT_DISABLED',
      'password step of a two-factor account',
    );
    expectRefused(
      await signin({
        grant_type: 'G_AUTHENTICATOR',
        username: user.email,
        password: user.password,
        tOtp: new TOTP({ secret }).generate(),
      }),
      'ACCOUNT_DISABLED',
      'TOTP sign-in',
    );
    const own = await redeem(t, envelope.code);
    expectRefused(own, 'ACCOUNT_DISABLED', "the disabled recipient's own link");
    expect(own.body.errorDescription).toBe('This account is disabled by the operator of this service');
  });

  it('passkey and social ID-token sign-in are refused while disabled', async () => {
    const user = await createUser(other, {
      email: `social-disabled-${crypto.randomBytes(3).toString('hex')}@idp.example`,
    });
    const authenticator = createSoftwareAuthenticator({ origin: ORIGIN, rpId: RP_ID });
    const options = await other.request('POST', '/user/v1/settings/passkeys/options', { token: user.token });
    const registered = await other.request('POST', '/user/v1/settings/passkeys', {
      token: user.token,
      body: authenticator.register(options.body),
    });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    const passkeySignin = async () => {
      const login = await other.request(
        'POST',
        `/auth/webauthn/login/options?username=${encodeURIComponent(user.email)}`,
      );
      expect(login.status).toBe(200);
      return other.request('POST', `/auth/webauthn/login/verify?username=${encodeURIComponent(user.email)}`, {
        body: authenticator.assert(login.body),
      });
    };
    const social = async () =>
      other.request('POST', '/auth/v1/signin', {
        body: {
          grant_type: 'IDP_AUTH',
          idToken: await idp.signIdToken({
            sub: `social-${crypto.randomUUID()}`,
            aud: CLIENT,
            email: user.email,
            email_verified: true,
            name: 'Social Person',
          }),
        },
      });
    expect((await passkeySignin()).status).toBe(200);

    expect((await admin(other, 'POST', `/admin/v1/users/${user.userId}/disable`)).status).toBe(200);
    expectRefused(await passkeySignin(), 'ACCOUNT_DISABLED', 'passkey sign-in');
    expectRefused(await social(), 'ACCOUNT_DISABLED', 'social ID token sign-in');
    expect((await admin(other, 'POST', `/admin/v1/users/${user.userId}/enable`)).status).toBe(200);
    expect((await passkeySignin()).status).toBe(200);
    expect((await social()).status).toBe(200);
  });

  it('404 for an unknown user; 400 for a malformed id or body', async () => {
    expect((await admin(t, 'POST', '/admin/v1/users/2147483647/disable')).status).toBe(404);
    expect((await admin(t, 'POST', '/admin/v1/users/2147483647/enable')).status).toBe(404);
    expect((await admin(t, 'POST', '/admin/v1/users/abc/disable')).status).toBe(400);
    const user = await createUser(t);
    for (const body of [{ by: '' }, { reason: 'x'.repeat(501) }, { by: 7 }, 'x']) {
      expect(
        (await admin(t, 'POST', `/admin/v1/users/${user.userId}/disable`, body)).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect((await me(user.token)).status).toBe(200);
  });
});

describe('disabling an organization', { timeout: 120_000 }, () => {
  it("its members cannot act in it, its apps' tokens and its envelopes' links stop; elsewhere they act; enabling restores", async () => {
    const owner = await createUser(t);
    const member = await memberOf(t, owner);
    const app = await insertBusinessApp(t, owner.organizationId);
    const clientCredentials = {
      grant_type: 'CLIENT_CREDENTIALS',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      email: owner.email,
    };
    const client = await signin(clientCredentials);
    expect(client.status).toBe(200);
    const session = await signIn(t, owner.email, owner.password);
    const envelope = await sentEnvelope(t, owner);
    const guest = await redeem(t, envelope.code);
    expect(guest.status).toBe(200);

    const disabled = await admin(t, 'POST', `/admin/v1/organizations/${owner.organizationId}/disable`, {
      reason: 'unpaid',
    });
    expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
    expect(disabled.body).toMatchObject({
      id: owner.organizationId,
      disabled: true,
      disabledBy: 'operator',
      disabledReason: 'unpaid',
    });
    const [row] = await t.platform.db.select().from(organizations).where(eq(organizations.id, owner.organizationId));
    expect(row.disabledAt).toBeInstanceOf(Date);

    expectRefused(await me(owner.token), 'ORGANIZATION_DISABLED', "owner's token");
    expectRefused(await me(member.token), 'ORGANIZATION_DISABLED', "member's token in it");
    expectRefused(await me(client.body.accessToken), 'ORGANIZATION_DISABLED', 'business-app token');
    expectRefused(await signin(clientCredentials), 'ORGANIZATION_DISABLED', 'client credentials');
    expectRefused(
      await signin({ grant_type: 'REFRESH_TOKEN', refreshToken: session.refreshToken }),
      'ORGANIZATION_DISABLED',
      'refresh',
    );
    expectRefused(
      await signin({ grant_type: 'PASSWORD', username: owner.email, password: owner.password }),
      'ORGANIZATION_DISABLED',
      'password sign-in into it',
    );
    const link = await redeem(t, envelope.code);
    expectRefused(link, 'ORGANIZATION_DISABLED', 'signing link');
    expect(link.body.errorDescription).toContain("The sender's organization is disabled");
    expectRefused(
      await t.request('GET', `/workflow/v1/${envelope.workflow.id}/history`, { token: guest.body.accessToken }),
      'ORGANIZATION_DISABLED',
      'guest token',
    );
    // The member's own organization is not disabled: signing in there works.
    expect((await signIn(t, member.email, member.password)).accessToken).toBeTruthy();
    expect((await admin(t, 'GET', `/admin/v1/organizations/${owner.organizationId}`)).body.disabled).toBe(true);

    expect((await admin(t, 'POST', `/admin/v1/organizations/${owner.organizationId}/enable`)).body).toMatchObject({
      disabled: false,
      disabledAt: null,
    });
    expect((await me(owner.token)).status).toBe(200);
    expect((await me(member.token)).status).toBe(200);
    expect((await me(client.body.accessToken)).status).toBe(200);
    expect((await signin(clientCredentials)).status).toBe(200);
    expect((await signin({ grant_type: 'REFRESH_TOKEN', refreshToken: session.refreshToken })).status).toBe(200);
    expect((await redeem(t, envelope.code)).status).toBe(200);
    expect(
      (await t.request('GET', `/workflow/v1/${envelope.workflow.id}/history`, { token: guest.body.accessToken }))
        .status,
    ).toBe(200);
  });

  it("nobody signs or sends in a disabled organization's envelopes, not even a registered recipient in their own account", async () => {
    const sender = await createUser(t);
    const signer = await createUser(t);
    const { workflow, rows } = await draftForSending(t, sender, {
      recipients: [{ name: 'Rita Registered', email: signer.email }],
    });
    await markSent(t, workflow.id, [rows[0].id]);
    const draft = await draftForSending(t, sender, { recipients: [{ name: 'Nora Next' }] });
    const [field] = await t.platform.db.select().from(fields).where(eq(fields.recipientId, rows[0].id));
    const sign = () =>
      t.request('POST', `/workflow/v1/${workflow.id}/sign`, {
        token: signer.token,
        body: { id: field.id, image: pngDataUrl() },
      });
    expect((await admin(t, 'POST', `/admin/v1/organizations/${sender.organizationId}/disable`)).status).toBe(200);
    expectRefused(
      await sign(),
      'ORGANIZATION_DISABLED',
      "a registered recipient signing in the disabled organization's envelope",
    );
    expect((await t.request('GET', `/workflow/v1/${workflow.id}/history`, { token: signer.token })).status).toBe(200);
    expect((await admin(t, 'POST', `/admin/v1/organizations/${sender.organizationId}/enable`)).status).toBe(200);
    const signed = await sign();
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect((await commence(t, sender, draft.workflow.id)).status).toBe(200);
  });

  it('404 for an unknown organization', async () => {
    expect((await admin(t, 'POST', '/admin/v1/organizations/2147483647/disable')).status).toBe(404);
    expect((await admin(t, 'POST', '/admin/v1/organizations/2147483647/enable')).status).toBe(404);
  });
});
