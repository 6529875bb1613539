import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createDraftWorkflow, createUser, guestToken, insertRecipient } from '../helpers/factories.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { memberships, users } from '../../src/platform/db/schema/index.ts';
import { addMember, createRole, grant, organizationName } from './org-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const invite = (token: string, body: unknown) => t.request('POST', '/organization/v1/user', { token, body });

describe('listing and reading members', () => {
  it('pages the owner first, then members in invitation order, with search and status filters', async () => {
    const owner = await createUser(t, { name: 'Olga Owner' });
    const role = await createRole(t, owner, { name: 'Clerks' });
    const a = await addMember(t, owner, role.id, 'Anna Alpha');
    await addMember(t, owner, null, 'Bert Beta');
    expect((await invite(owner.token, { name: 'Carl Gamma', emailAddress: 'carl.gamma@example.com' })).status).toBe(
      200,
    );
    const list = async (query = '') =>
      (await t.request('GET', `/organization/v1/users${query}`, { token: owner.token })).body;
    const all = await list();
    expect(all.totalElements).toBe(4);
    expect(all.content.map((m: any) => m.name)).toEqual(['Olga Owner', 'Anna Alpha', 'Bert Beta', 'Carl Gamma']);
    expect(all.content[0]).toMatchObject({ isOwner: true, status: 'ACTIVE', isJoinedUser: true, roleId: null });
    expect(all.content[1]).toMatchObject({
      userId: a.userId,
      roleId: role.id,
      roleName: 'Clerks',
      isJoinedUser: true,
      hasAccount: true,
      usedElectronic: 0,
    });
    expect(all.content[3]).toMatchObject({
      status: 'INVITED',
      isJoinedUser: false,
      hasAccount: false,
      emailAddress: 'carl.gamma@example.com',
      joinedAt: null,
    });
    expect((await list('?searchValue=GAMMA')).content.map((m: any) => m.name)).toEqual(['Carl Gamma']);
    expect((await list('?status=INVITED')).totalElements).toBe(1);
    const page = await list('?page=1&size=3');
    expect(page).toMatchObject({ totalElements: 4, totalPages: 2, number: 1 });
    expect(page.content).toHaveLength(1);
    expect(await list('?page=9&size=3')).toMatchObject({ content: [], totalElements: 4 });
    const one = await t.request('GET', `/organization/v1/user/${a.userId}`, { token: owner.token });
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ userId: a.userId, emailAddress: a.email });
    expect((await t.request('GET', '/organization/v1/user/999999', { token: owner.token })).status).toBe(404);
    expect((await t.request('GET', '/organization/v1/users?size=0', { token: owner.token })).status).toBe(400);
  });
});

describe('inviting', () => {
  it('checks the name rule at its limits, the email, and the role', async () => {
    const owner = await createUser(t);
    const inactive = await createRole(t, owner, { status: 'INACTIVE' });
    const strangerRole = await createRole(t, await createUser(t));
    let n = 0;
    const ok = (name: string) => invite(owner.token, { name, emailAddress: `limit${++n}@example.com` });
    expect((await ok('Abc')).status).toBe(200);
    expect((await ok('Ab')).status).toBe(400);
    expect((await ok('A'.repeat(20))).status).toBe(200);
    expect((await ok('A'.repeat(21))).status).toBe(400);
    expect((await ok('Jo Ann Lee')).status).toBe(200);
    expect((await ok('Jo  Ann')).status).toBe(400);
    expect((await ok(' Joan')).status).toBe(400);
    expect((await ok('Joan2')).status).toBe(400);
    expect((await ok("O'Hara")).status).toBe(200);
    expect((await ok("O''Hara")).status).toBe(400);
    expect((await ok('Zoë Ñúñez')).status).toBe(200);
    const longLocal = 'a'.repeat(64);
    const at255 = `${longLocal}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`;
    expect(at255.length).toBe(255);
    expect((await invite(owner.token, { name: 'Long Mail', emailAddress: at255 })).status).toBe(200);
    expect((await invite(owner.token, { name: 'Long Mail', emailAddress: `x${at255}` })).status).toBe(400);
    expect((await invite(owner.token, { name: 'No Mail', emailAddress: 'not-an-address' })).status).toBe(400);
    expect((await invite(owner.token, { name: 'No Mail' })).status).toBe(400);
    expect(
      (await invite(owner.token, { name: 'Role Less', emailAddress: 'r1@example.com', role: 999999 })).status,
    ).toBe(404);
    expect(
      (await invite(owner.token, { name: 'Role Less', emailAddress: 'r2@example.com', role: strangerRole.id })).status,
    ).toBe(404);
    const notActive = await invite(owner.token, {
      name: 'Role Less',
      emailAddress: 'r3@example.com',
      role: inactive.id,
    });
    expect(notActive.status).toBe(400);
    expect(notActive.body.message).toBe('ROLE_NOT_ASSIGNABLE');
    expect((await invite(owner.token, { name: 'Role Less', emailAddress: 'r4@example.com', role: 'one' })).status).toBe(
      400,
    );
    expect((await t.request('POST', '/organization/v1/user', { token: owner.token, body: '[' })).status).toBe(400);
  });

  it('already a member or invited is 409; a declined invitation may be renewed; the owner cannot invite themselves', async () => {
    const owner = await createUser(t);
    const member = await addMember(t, owner);
    const again = await invite(owner.token, { name: 'Mia Member', emailAddress: member.email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: 'MEMBER_ALREADY_EXISTS', errorCode: 17001 });
    expect((await invite(owner.token, { name: 'Olga Owner', emailAddress: owner.email })).status).toBe(409);
    const invitee = await createUser(t);
    expect((await invite(owner.token, { name: 'Ivy Invitee', emailAddress: invitee.email })).status).toBe(200);
    expect((await invite(owner.token, { name: 'Ivy Invitee', emailAddress: invitee.email })).status).toBe(409);
    const orgName = await organizationName(t, owner);
    const declined = await t.request('PUT', '/organization/v1/invite', {
      token: invitee.token,
      body: { orgNames: [orgName], inviteStatus: 'DECLINED' },
    });
    expect(declined.status).toBe(200);
    expect(declined.body[0]).toMatchObject({ status: 'DECLINED', orgName });
    expect((await invite(owner.token, { name: 'Ivy Invitee', emailAddress: invitee.email })).status).toBe(200);
  });

  it('two simultaneous invitations of one address give one invitation and one 409', async () => {
    const owner = await createUser(t);
    const results = await Promise.all(
      [1, 2].map(() => invite(owner.token, { name: 'Race Runner', emailAddress: 'race.runner@example.com' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe('updating, changing roles and renewing quotas', () => {
  it("the owner renames and re-roles a member; role null removes it; the owner's own role is refused", async () => {
    const owner = await createUser(t);
    const role = await createRole(t, owner);
    const member = await addMember(t, owner);
    const res = await t.request('PUT', `/organization/v1/user/${member.userId}`, {
      token: owner.token,
      body: { name: 'Mia Renamed', role: role.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ name: 'Mia Renamed', roleId: role.id });
    expect(
      (await t.request('PUT', `/organization/v1/user/${member.userId}`, { token: owner.token, body: { role: null } }))
        .body,
    ).toMatchObject({ name: 'Mia Renamed', roleId: null });
    expect(
      (await t.request('PUT', `/organization/v1/user/${member.userId}`, { token: owner.token, body: { name: 'M' } }))
        .status,
    ).toBe(400);
    expect(
      (await t.request('PUT', `/organization/v1/user/${owner.userId}`, { token: owner.token, body: { role: role.id } }))
        .status,
    ).toBe(400);
    expect(
      (await t.request('PUT', '/organization/v1/user/999999', { token: owner.token, body: { name: 'Nobody Here' } }))
        .status,
    ).toBe(404);
    expect(
      (
        await t.request('PUT', `/organization/v1/user/${member.userId}`, {
          token: member.token,
          body: { name: 'Self Rename' },
        })
      ).status,
    ).toBe(403);
  });

  it('user_role and renew are the owner\'s alone (SPEC.md "Permission rules"): a member with USERS canEdit gets 403', async () => {
    const owner = await createUser(t);
    const managers = await createRole(t, owner, {
      name: 'Managers',
      permissions: [grant('USERS', { canView: true, canEdit: true })],
    });
    const manager = await addMember(t, owner, managers.id, 'Max Manager');
    const colleague = await addMember(t, owner, null, 'Cora Colleague');
    for (const userId of [colleague.userId, manager.userId]) {
      expect(
        (
          await t.request('PUT', '/organization/v1/user_role', {
            token: manager.token,
            body: { userId, roleId: managers.id },
          })
        ).status,
      ).toBe(403);
      expect(
        (await t.request('PUT', '/organization/v1/users/renew', { token: manager.token, body: { userId } })).status,
      ).toBe(403);
    }
    const changed = await t.request('PUT', '/organization/v1/user_role', {
      token: owner.token,
      body: { userId: colleague.userId, roleId: managers.id },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.roleName).toBe('Managers');
    expect(
      (
        await t.request('PUT', '/organization/v1/user_role', {
          token: owner.token,
          body: { userId: colleague.userId, roleId: null },
        })
      ).body.roleId,
    ).toBeNull();
    expect(
      (
        await t.request('PUT', '/organization/v1/user_role', {
          token: owner.token,
          body: { userId: owner.userId, roleId: null },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('PUT', '/organization/v1/user_role', {
          token: owner.token,
          body: { userId: manager.userId, roleId: 999999 },
        })
      ).status,
    ).toBe(404);
    expect(
      (await t.request('PUT', '/organization/v1/user_role', { token: owner.token, body: { userId: manager.userId } }))
        .status,
    ).toBe(400);

    await t.platform.db
      .update(memberships)
      .set({ usedElectronic: 7, usedAdvanced: 2, usedQualified: 1 })
      .where(eq(memberships.userId, manager.userId));
    const some = await t.request('PUT', '/organization/v1/users/renew', {
      token: owner.token,
      body: { userId: manager.userId, qualifiers: ['ADVANCED'] },
    });
    expect(some.status, JSON.stringify(some.body)).toBe(200);
    expect(some.body).toMatchObject({ usedElectronic: 7, usedAdvanced: 0, usedQualified: 1 });
    expect(
      (await t.request('PUT', '/organization/v1/users/renew', { token: owner.token, body: { userId: manager.userId } }))
        .body,
    ).toMatchObject({ usedElectronic: 0, usedAdvanced: 0, usedQualified: 0 });
    expect(
      (await t.request('PUT', '/organization/v1/users/renew', { token: owner.token, body: { userId: owner.userId } }))
        .status,
    ).toBe(200);
    expect(
      (
        await t.request('PUT', '/organization/v1/users/renew', {
          token: owner.token,
          body: { userId: manager.userId, qualifiers: ['SOMETHING'] },
        })
      ).status,
    ).toBe(400);
    expect(
      (await t.request('PUT', '/organization/v1/users/renew', { token: owner.token, body: { userId: 999999 } })).status,
    ).toBe(404);
  });
});

describe('removing', () => {
  it("removes members and withdraws invitations by kind; the owner is refused; a removed member's token dies and the account goes on", async () => {
    const owner = await createUser(t);
    const member = await addMember(t, owner);
    const orgName = await organizationName(t, owner);
    expect((await invite(owner.token, { name: 'Pat Pending', emailAddress: 'pat.pending@example.com' })).status).toBe(
      200,
    );
    const [pending] = await t.platform.db.select().from(users).where(eq(users.email, 'pat.pending@example.com'));

    const ownerRefused = await t.request(
      'DELETE',
      `/organization/v1/user?ids=${member.userId}&ids=${owner.userId}&isJoinedUser=true`,
      { token: owner.token },
    );
    expect(ownerRefused.status).toBe(400);
    expect(ownerRefused.body).toMatchObject({ message: 'OWNER_NOT_REMOVABLE', errorCode: 17005 });
    expect(
      (await t.request('DELETE', `/organization/v1/user?ids=${pending.id}&isJoinedUser=true`, { token: owner.token }))
        .status,
    ).toBe(404);
    expect(
      (
        await t.request('DELETE', `/organization/v1/user?ids=${member.userId}&isJoinedUser=false`, {
          token: owner.token,
        })
      ).status,
    ).toBe(404);
    expect((await t.request('DELETE', '/organization/v1/user?ids=x', { token: owner.token })).status).toBe(400);
    expect((await t.request('DELETE', '/organization/v1/user', { token: owner.token })).status).toBe(400);
    expect((await t.request('GET', '/organization/v1/users', { token: owner.token })).body.totalElements).toBe(3);

    expect(
      (await t.request('DELETE', `/organization/v1/user?ids=${pending.id}&isJoinedUser=false`, { token: owner.token }))
        .status,
    ).toBe(204);
    expect(
      (await t.request('DELETE', `/organization/v1/user?ids=${member.userId}`, { token: owner.token })).status,
    ).toBe(204);
    expect((await t.request('GET', '/organization/v1/users', { token: owner.token })).body.totalElements).toBe(1);
    expect((await t.request('GET', '/user/v1/roles/available', { token: member.token })).status).toBe(401);
    // The account acts in its own organization again and can sign in.
    const [account] = await t.platform.db.select().from(users).where(eq(users.id, member.userId));
    expect(account.organizationId).not.toBe(owner.organizationId);
    const signin = await t.request('POST', '/auth/v1/signin', {
      body: { grant_type: 'PASSWORD', username: member.email, password: member.password },
    });
    expect(signin.status).toBe(200);
    expect(orgName).toBeTruthy();
  });

  it('a member left with no organization of their own gets one, so the account stays usable', async () => {
    const owner = await createUser(t);
    const member = await addMember(t, owner);
    // The member transfers away the only organization they owned.
    const own = await createUser(t);
    void own;
    await t.platform.db
      .delete(memberships)
      .where(and(eq(memberships.userId, member.userId), eq(memberships.isOwner, true)));
    expect(
      (await t.request('DELETE', `/organization/v1/user?ids=${member.userId}`, { token: owner.token })).status,
    ).toBe(204);
    const rows = await t.platform.db.select().from(memberships).where(eq(memberships.userId, member.userId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ isOwner: true, status: 'ACTIVE' });
    const [account] = await t.platform.db.select().from(users).where(eq(users.id, member.userId));
    expect(account.organizationId).toBe(rows[0].organizationId);
  });
});

describe('ownership transfer', () => {
  it('moves the ownership to an active member, who is mailed; the former owner stays a member without rights', async () => {
    const owner = await createUser(t);
    const role = await createRole(t, owner);
    const heir = await addMember(t, owner, role.id, 'Hank Heir');
    const orgName = await organizationName(t, owner);
    expect(
      (
        await t.request('PUT', '/organization/v1/change/ownership', {
          token: owner.token,
          body: { orgName: 'Not mine', userEmail: heir.email },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('PUT', '/organization/v1/change/ownership', {
          token: owner.token,
          body: { orgName, userEmail: 'nobody@example.com' },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('PUT', '/organization/v1/change/ownership', {
          token: owner.token,
          body: { orgName, userEmail: owner.email },
        })
      ).status,
    ).toBe(400);
    expect(
      (await t.request('PUT', '/organization/v1/change/ownership', { token: owner.token, body: { orgName } })).status,
    ).toBe(400);
    expect(
      (
        await t.request('PUT', '/organization/v1/change/ownership', {
          token: heir.token,
          body: { orgName, userEmail: heir.email },
        })
      ).status,
    ).toBe(403);
    const res = await t.request('PUT', '/organization/v1/change/ownership', {
      token: owner.token,
      body: { orgName, userEmail: heir.email.toUpperCase() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      organizationId: owner.organizationId,
      orgName,
      ownerUserId: heir.userId,
      ownerEmail: heir.email,
    });
    const mails = await t.mails({ to: heir.email, kind: 'OWNERSHIP_TRANSFERRED' });
    expect(mails).toHaveLength(1);
    expect(mails[0].organizationId).toBe(owner.organizationId);
    expect((await t.request('GET', '/organization/v1/users', { token: owner.token })).status).toBe(403);
    const list = await t.request('GET', '/organization/v1/users', { token: heir.token });
    expect(list.body.content[0]).toMatchObject({ userId: heir.userId, isOwner: true, roleId: null });
    expect((await t.request('DELETE', `/organization/v1/user?ids=${heir.userId}`, { token: heir.token })).status).toBe(
      400,
    );
    expect((await t.request('DELETE', `/organization/v1/user?ids=${owner.userId}`, { token: heir.token })).status).toBe(
      204,
    );
  });
});

describe('who may call the member endpoints', () => {
  it("no token 401, guest 403, member without USERS 403, another organization's owner 404", async () => {
    const owner = await createUser(t);
    const member = await addMember(t, owner);
    const stranger = await createUser(t);
    const { workflow } = await createDraftWorkflow(t, owner);
    const guest = await guestToken(
      t,
      await insertRecipient(t, workflow.id, { userId: member.userId, name: 'Mia Member', email: member.email }),
    );
    const calls = [
      ['GET', '/organization/v1/users', undefined],
      ['GET', `/organization/v1/user/${member.userId}`, undefined],
      ['POST', '/organization/v1/user', { name: 'New Person', emailAddress: 'new.person@example.com' }],
      ['PUT', `/organization/v1/user/${member.userId}`, { name: 'New Name' }],
      ['DELETE', `/organization/v1/user?ids=${member.userId}`, undefined],
      ['PUT', '/organization/v1/user_role', { userId: member.userId, roleId: null }],
      ['PUT', '/organization/v1/users/renew', { userId: member.userId }],
      ['PUT', '/organization/v1/change/ownership', { orgName: 'x', userEmail: member.email }],
    ] as const;
    for (const [method, url, body] of calls) {
      expect((await t.request(method, url, { body })).status, `${method} ${url} anonymous`).toBe(401);
      expect((await t.request(method, url, { token: guest, body })).status, `${method} ${url} guest`).toBe(403);
      expect((await t.request(method, url, { token: member.token, body })).status, `${method} ${url} member`).toBe(403);
    }
    for (const [method, url, body] of calls.slice(1, 7)) {
      if (method === 'POST') continue;
      expect((await t.request(method, url, { token: stranger.token, body })).status, `${method} ${url} stranger`).toBe(
        404,
      );
    }
    expect((await t.request('GET', '/organization/v1/users', { token: stranger.token })).body.totalElements).toBe(1);
    expect(
      (await t.request('PUT', '/organization/v1/invite', { body: { orgNames: ['x'], inviteStatus: 'ACCEPTED' } }))
        .status,
    ).toBe(401);
    expect(
      (
        await t.request('PUT', '/organization/v1/invite', {
          token: guest,
          body: { orgNames: ['x'], inviteStatus: 'ACCEPTED' },
        })
      ).status,
    ).toBe(403);
  });
});
