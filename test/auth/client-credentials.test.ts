import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { insertBusinessApp, signUp, type SignedUpUser } from '../helpers/auth.ts';
import { businessApps, memberships } from '../../src/platform/db/schema/index.ts';
import { findOrCreateGuestUser } from '../../src/modules/users/users.repo.ts';

let t: TestApp;
let owner: SignedUpUser;
let member: SignedUpUser;
let outsider: SignedUpUser;
let app: Awaited<ReturnType<typeof insertBusinessApp>>;
beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t, { name: 'Olga Owner' });
  member = await signUp(t, { name: 'Mike Member' });
  outsider = await signUp(t, { name: 'Otto Outsider' });
  // Mike is also an active member of Olga's organization.
  await t.platform.db
    .insert(memberships)
    .values({ organizationId: owner.organizationId, userId: member.userId, status: 'ACTIVE' });
  app = await insertBusinessApp(t, owner.organizationId);
});
afterAll(async () => {
  await t?.close();
});

const clientSignin = (fields: Record<string, unknown>) =>
  t.request('POST', '/auth/v1/signin', {
    body: {
      grant_type: 'CLIENT_CREDENTIALS',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      email: owner.email,
      ...fields,
    },
  });

function expectError(res: { status: number; body: any }, status: number, message: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ httpStatusCode: status, success: false, message });
}

describe('grant_type CLIENT_CREDENTIALS', () => {
  it("answers the password-login shape with a CLIENT token carrying appId and the app's organization", async () => {
    const res = await clientSignin({ email: owner.email.toUpperCase() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      accessToken: expect.any(String),
      tokenType: 'Bearer',
      expiry: 900,
      refreshToken: expect.any(String),
      rememberMe: false,
    });
    const claims = await t.platform.tokens.verify(res.body.accessToken);
    expect(claims).toMatchObject({
      sub: String(owner.userId),
      type: 'CLIENT',
      organizationId: owner.organizationId,
      appId: app.appId,
    });
    const profile = await t.request('GET', '/user/v1/settings/profile', { token: res.body.accessToken });
    expect(profile.body).toMatchObject({ id: owner.userId, organizationId: owner.organizationId });

    // The refresh token renews a CLIENT token with the same claims.
    const refreshed = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'REFRESH_TOKEN', refreshToken: res.body.refreshToken },
    });
    expect(refreshed.status).toBe(200);
    expect(await t.platform.tokens.verify(refreshed.body.accessToken)).toMatchObject({
      type: 'CLIENT',
      appId: app.appId,
      organizationId: owner.organizationId,
    });
  });

  it("works for any active member of the app's organization, in that organization", async () => {
    const res = await clientSignin({ email: member.email });
    expect(res.status).toBe(200);
    expect(await t.platform.tokens.verify(res.body.accessToken)).toMatchObject({
      sub: String(member.userId),
      organizationId: owner.organizationId,
    });
  });

  it('refuses a user of another organization, an unknown email and a guest user with 401 INVALID_CLIENT', async () => {
    const guest = await findOrCreateGuestUser(t.platform.db, 'partner.guest@example.com', 'Partner Guest');
    for (const email of [outsider.email, 'nobody@example.com', guest.email]) {
      const res = await clientSignin({ email });
      expectError(res, 401, 'INVALID_CLIENT');
      expect(res.body.errorDescription).toMatch(/not a member/);
    }
    // The outsider's own organization's app works for the outsider only.
    const theirs = await insertBusinessApp(t, outsider.organizationId);
    expectError(
      await clientSignin({ client_id: theirs.clientId, client_secret: theirs.clientSecret, email: owner.email }),
      401,
      'INVALID_CLIENT',
    );
    expect(
      (await clientSignin({ client_id: theirs.clientId, client_secret: theirs.clientSecret, email: outsider.email }))
        .status,
    ).toBe(200);
  });

  it("refuses a wrong secret, an unknown client id, and another app's secret", async () => {
    const other = await insertBusinessApp(t, owner.organizationId);
    expectError(await clientSignin({ client_secret: 'wrong' }), 401, 'INVALID_CLIENT');
    expectError(await clientSignin({ client_id: 'no-such-client' }), 401, 'INVALID_CLIENT');
    expectError(await clientSignin({ client_secret: other.clientSecret }), 401, 'INVALID_CLIENT');
  });

  it('refuses a disabled app, and its refresh tokens stop working once it is disabled', async () => {
    const disabled = await insertBusinessApp(t, owner.organizationId, { status: false });
    const res = await clientSignin({ client_id: disabled.clientId, client_secret: disabled.clientSecret });
    expectError(res, 401, 'INVALID_CLIENT');
    expect(res.body.errorDescription).toMatch(/disabled/);

    const live = await insertBusinessApp(t, owner.organizationId);
    const session = await clientSignin({ client_id: live.clientId, client_secret: live.clientSecret });
    expect(session.status).toBe(200);
    await t.platform.db.update(businessApps).set({ status: false }).where(eq(businessApps.id, live.appId));
    expectError(
      await t.request('GET', '/auth/v1/refresh-session', {
        headers: { authorization: `Bearer ${session.body.refreshToken}` },
      }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
  });

  it("a CLIENT sign-out ends that app's sessions only, not the user's own", async () => {
    const partner = await clientSignin({});
    const own = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'PASSWORD', username: owner.email, password: owner.password },
    });
    const out = await t.request('POST', '/auth/v1/signout', { token: partner.body.accessToken });
    expect(out.status).toBe(200);
    expectError(
      await t.request('POST', '/auth/v1/signin', {
        body: { grant_type: 'REFRESH_TOKEN', refreshToken: partner.body.refreshToken },
      }),
      401,
      'INVALID_REFRESH_TOKEN',
    );
    expect(
      (
        await t.request('POST', '/auth/v1/signin', {
          body: { grant_type: 'REFRESH_TOKEN', refreshToken: own.body.refreshToken },
        })
      ).status,
    ).toBe(200);
  });

  it('a CLIENT token may not change two-factor settings', async () => {
    const partner = await clientSignin({});
    expectError(
      await t.request('GET', '/user/v1/settings/generateQR', { token: partner.body.accessToken }),
      403,
      'USER_NOT_HAVE_ACCESS',
    );
    expectError(
      await t.request('PUT', '/user/v1/settings/security', {
        token: partner.body.accessToken,
        body: { twoFactorEnabled: true, tOtp: '123456' },
      }),
      403,
      'USER_NOT_HAVE_ACCESS',
    );
  });
});
