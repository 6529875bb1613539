import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createUser } from '../helpers/factories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { memberships, users } from '../../src/platform/db/schema/index.ts';
import { createRole, grant, organizationName } from './org-helpers.ts';

let t: TestApp;
// Open sign-up is off: an invitation is permission enough.
beforeAll(async () => {
  t = await createTestApp({ signupEnabled: false });
});
afterAll(async () => t?.close());

async function inviteLink(email: string): Promise<{ url: string; code: string }> {
  const [mail] = (await t.mails({ to: email, kind: 'ORGANIZATION_INVITATION' })).slice(-1);
  const match = /(http\S+\/invite\/([A-Za-z0-9_-]{43}))/.exec(mail.textBody);
  expect(match, mail.textBody).not.toBeNull();
  return { url: match![1], code: match![2] };
}

describe('someone without an account', () => {
  it('gets a link that signs them up straight into the organization, with the invited role', async () => {
    const owner = await createUser(t, { name: 'Olga Owner' });
    const role = await createRole(t, owner, { name: 'Staff', permissions: [grant('USERS', { canView: true })] });
    const email = 'new.comer@example.com';
    const invited = await t.request('POST', '/organization/v1/user', {
      token: owner.token,
      body: { name: 'New Comer', emailAddress: 'New.Comer@Example.com', role: role.id },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    expect(invited.body).toMatchObject({
      emailAddress: email,
      status: 'INVITED',
      hasAccount: false,
      roleName: 'Staff',
    });
    const mails = await t.mails({ to: email, kind: 'ORGANIZATION_INVITATION' });
    expect(mails).toHaveLength(1);
    expect(mails[0].organizationId).toBe(owner.organizationId);
    expect(mails[0].subject).toBe(`Invitation to join ${await organizationName(t, owner)}`);
    const { url, code } = await inviteLink(email);
    expect(url).toBe(`${t.config.publicUrl}/invite/${code}`);

    const details = await t.request('GET', `/invite/${code}`);
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      orgName: await organizationName(t, owner),
      name: 'New Comer',
      emailAddress: email,
    });
    const page = await t.request('GET', `/invite/${code}`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.raw).toContain('<form method="post">');

    expect((await t.request('POST', `/invite/${code}`, { body: { password: 'short' } })).status).toBe(400);
    expect(
      (await t.request('POST', `/invite/${code}`, { body: { name: 'X', password: 'long enough password' } })).status,
    ).toBe(400);
    const signup = await t.request('POST', `/invite/${code}`, { body: { password: 'long enough password' } });
    expect(signup.status, JSON.stringify(signup.body)).toBe(201);
    expect(signup.body.organizationId).toBe(owner.organizationId);

    const session = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'PASSWORD', username: email, password: 'long enough password' },
    });
    expect(session.status).toBe(200);
    // The token acts in the inviting organization, with the role's rights.
    const list = await t.request('GET', '/organization/v1/users', { token: session.body.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.content.find((m: any) => m.emailAddress === email)).toMatchObject({
      status: 'ACTIVE',
      isJoinedUser: true,
      hasAccount: true,
      name: 'New Comer',
    });
    const [account] = await t.platform.db.select().from(users).where(eq(users.email, email));
    expect(account.emailVerifiedAt).not.toBeNull();
    expect(account.isGuest).toBe(false);

    // The link is used up.
    expect((await t.request('GET', `/invite/${code}`)).body.message).toBe('LINK_EXPIRED');
    expect((await t.request('POST', `/invite/${code}`, { body: { password: 'long enough password' } })).status).toBe(
      400,
    );
  });

  it('the form posts as a browser would, and a used or garbage link shows a page', async () => {
    const owner = await createUser(t);
    await t.request('POST', '/organization/v1/user', {
      token: owner.token,
      body: { name: 'Form Filler', emailAddress: 'form.filler@example.com' },
    });
    const { code } = await inviteLink('form.filler@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: `/invite/${code}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: 'name=Form+Filler&password=long+enough+password',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).toContain('member of');
    const again = await t.app.inject({ method: 'GET', url: `/invite/${code}`, headers: { accept: 'text/html' } });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('cannot be used');
    expect((await t.request('GET', '/invite/garbage')).status).toBe(400);
    expect((await t.request('GET', `/invite/${'a'.repeat(101)}`)).status).toBe(400);
  });

  it('a withdrawn or expired invitation link no longer works; an address registered meanwhile is told to accept in the app', async () => {
    const owner = await createUser(t);
    await t.request('POST', '/organization/v1/user', {
      token: owner.token,
      body: { name: 'Wanda Withdrawn', emailAddress: 'wanda@example.com' },
    });
    const { code: withdrawn } = await inviteLink('wanda@example.com');
    const [wanda] = await t.platform.db.select().from(users).where(eq(users.email, 'wanda@example.com'));
    expect(
      (await t.request('DELETE', `/organization/v1/user?ids=${wanda.id}&isJoinedUser=false`, { token: owner.token }))
        .status,
    ).toBe(204);
    expect(
      (await t.request('POST', `/invite/${withdrawn}`, { body: { password: 'long enough password' } })).body.message,
    ).toBe('LINK_EXPIRED');

    await t.request('POST', '/organization/v1/user', {
      token: owner.token,
      body: { name: 'Ed Expired', emailAddress: 'ed@example.com' },
    });
    const { code: expired } = await inviteLink('ed@example.com');
    await t.platform.db
      .update(memberships)
      .set({ inviteExpiresAt: new Date(Date.now() - 1000) })
      .where(
        eq(
          memberships.inviteCodeHash,
          (
            await t.platform.db.select().from(memberships).where(eq(memberships.organizationId, owner.organizationId))
          ).find((m) => m.inviteCodeHash)!.inviteCodeHash!,
        ),
      );
    expect(
      (await t.request('POST', `/invite/${expired}`, { body: { password: 'long enough password' } })).body.message,
    ).toBe('LINK_EXPIRED');
    // An expired invitation can be renewed: a new link.
    expect(
      (
        await t.request('POST', '/organization/v1/user', {
          token: owner.token,
          body: { name: 'Ed Expired', emailAddress: 'ed@example.com' },
        })
      ).status,
    ).toBe(200);
    const { code: renewed } = await inviteLink('ed@example.com');
    expect(renewed).not.toBe(expired);

    await t.request('POST', '/organization/v1/user', {
      token: owner.token,
      body: { name: 'Reg Later', emailAddress: 'reg.later@example.com' },
    });
    const { code: late } = await inviteLink('reg.later@example.com');
    await createUser(t, { email: 'reg.later@example.com' });
    const conflict = await t.request('POST', `/invite/${late}`, { body: { password: 'long enough password' } });
    expect(conflict.status).toBe(409);
  });
});

describe('a registered user', () => {
  it('is mailed to accept in the app; accepting moves the account into the organization', async () => {
    const owner = await createUser(t);
    const orgName = await organizationName(t, owner);
    const invitee = await createUser(t, { name: 'Reggie Registered' });
    // The answer does not tell the owner that the address is registered (test/security/invitation-account-oracle.test.ts).
    expect(
      (
        await t.request('POST', '/organization/v1/user', {
          token: owner.token,
          body: { name: 'Reggie', emailAddress: invitee.email },
        })
      ).body.hasAccount,
    ).toBe(false);
    const [mail] = await t.mails({ to: invitee.email, kind: 'ORGANIZATION_INVITATION' });
    expect(mail.textBody).not.toMatch(/\/invite\//);
    expect(mail.textBody).toContain('accept');

    const pending = await t.request('GET', '/organization/v1/invitations', { token: invitee.token });
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual([
      expect.objectContaining({
        organizationId: owner.organizationId,
        orgName,
        status: 'INVITED',
        invitedBy: 'Test User',
      }),
    ]);

    expect(
      (
        await t.request('PUT', '/organization/v1/invite', {
          token: invitee.token,
          body: { orgNames: [orgName, 'Unknown org'], inviteStatus: 'ACCEPTED' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('PUT', '/organization/v1/invite', {
          token: invitee.token,
          body: { orgNames: [orgName], inviteStatus: 'MAYBE' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('PUT', '/organization/v1/invite', {
          token: invitee.token,
          body: { orgNames: [], inviteStatus: 'ACCEPTED' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('PUT', '/organization/v1/invite', {
          token: invitee.token,
          body: { orgNames: orgName, inviteStatus: 'ACCEPTED' },
        })
      ).status,
    ).toBe(400);
    const accepted = await t.request('PUT', '/organization/v1/invite', {
      token: invitee.token,
      body: { orgNames: [orgName], inviteStatus: 'ACCEPTED' },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toEqual([
      expect.objectContaining({ organizationId: owner.organizationId, status: 'ACTIVE' }),
    ]);
    expect(
      (
        await t.request('PUT', '/organization/v1/invite', {
          token: invitee.token,
          body: { orgNames: [orgName], inviteStatus: 'DECLINED' },
        })
      ).status,
    ).toBe(404);

    // The next sign-in acts in the organization.
    const session = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'PASSWORD', username: invitee.email, password: invitee.password },
    });
    const profile = await t.request('GET', '/user/v1/settings/profile', { token: session.body.accessToken });
    expect(profile.body.organizationId).toBe(owner.organizationId);
  });

  it('with an unconfirmed address cannot accept (403), but can decline; an expired invitation is 400 LINK_EXPIRED', async () => {
    const owner = await createUser(t);
    const orgName = await organizationName(t, owner);
    const unverified = await createUser(t, { emailVerified: false });
    await t.request('POST', '/organization/v1/user', {
      token: owner.token,
      body: { name: 'Una Verified', emailAddress: unverified.email },
    });
    const refused = await t.request('PUT', '/organization/v1/invite', {
      token: unverified.token,
      body: { orgNames: [orgName], inviteStatus: 'ACCEPTED' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ message: 'EMAIL_NOT_VERIFIED', errorCode: 17009 });
    expect(
      (
        await t.request('PUT', '/organization/v1/invite', {
          token: unverified.token,
          body: { orgNames: [orgName], inviteStatus: 'DECLINED' },
        })
      ).status,
    ).toBe(200);

    const late = await createUser(t);
    await t.request('POST', '/organization/v1/user', {
      token: owner.token,
      body: { name: 'Lou Late', emailAddress: late.email },
    });
    await t.platform.db
      .update(memberships)
      .set({ inviteExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(memberships.userId, late.userId));
    const expired = await t.request('PUT', '/organization/v1/invite', {
      token: late.token,
      body: { orgNames: [orgName], inviteStatus: 'ACCEPTED' },
    });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe('LINK_EXPIRED');
  });
});
