import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { addMember, createRole, grant } from '../organizations/org-helpers.ts';

/*
 * SPEC.md "Permission rules": inviting, updating and removing members are the owner's only; SPEC.md's table marks the
 * invitation, member update and removal "owner only", and a role change (user_role) or a quota renewal (users/renew) is
 * an update of a member. A role's USERS rights let a member read the members (where SPEC.md names a module right, the
 * right decides), never do these.
 */
let t: TestApp;
let owner: TestUser;
let manager: TestUser;
let colleague: TestUser;
let roleId: number;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olivia Owner' });
  const everyUsersRight = await createRole(t, owner, {
    name: 'People managers',
    permissions: [grant('USERS', { canView: true, canAdd: true, canEdit: true, canDelete: true })],
  });
  roleId = everyUsersRight.id;
  manager = await addMember(t, owner, roleId, 'Max Manager');
  colleague = await addMember(t, owner, null, 'Cora Colleague');
});
afterAll(async () => {
  await t?.close();
});

const calls = () =>
  [
    ['POST', '/organization/v1/user', { name: 'New Person', emailAddress: `new.${Date.now()}@example.com` }],
    ['PUT', `/organization/v1/user/${colleague.userId}`, { name: 'Cora Renamed' }],
    ['PUT', '/organization/v1/user_role', { userId: colleague.userId, roleId }],
    ['PUT', '/organization/v1/users/renew', { userId: colleague.userId }],
    ['DELETE', `/organization/v1/user?ids=${colleague.userId}`, undefined],
  ] as const;

describe('owner only means owner', () => {
  it('a member holding every USERS right: 403 USER_NOT_HAVE_ACCESS for each, nothing changed', async () => {
    for (const [method, url, body] of calls()) {
      const res = await t.request(method, url, { token: manager.token, body });
      expect([res.status, res.body.message], `${method} ${url}`).toEqual([403, 'USER_NOT_HAVE_ACCESS']);
    }
    const members = (await t.request('GET', '/organization/v1/users?size=50', { token: manager.token })).body.content;
    expect(members.find((m: any) => m.userId === colleague.userId)).toMatchObject({
      name: 'Cora Colleague',
      roleId: null,
    });
    expect(members).toHaveLength(3);
  });

  it('the USERS right still decides where SPEC.md names no owner: the member reads the members', async () => {
    expect((await t.request('GET', '/organization/v1/users', { token: manager.token })).status).toBe(200);
    expect((await t.request('GET', `/organization/v1/user/${colleague.userId}`, { token: manager.token })).status).toBe(
      200,
    );
  });

  it('the owner does each', async () => {
    for (const [method, url, body] of calls()) {
      const res = await t.request(method, url, { token: owner.token, body });
      expect(res.status, `${method} ${url}: ${res.raw}`).toBeLessThan(300);
    }
  });
});
