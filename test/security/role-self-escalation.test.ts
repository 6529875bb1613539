import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { insertBusinessApp } from '../helpers/auth.ts';
import { addMember, ALL_ALLOWED, createRole, grant, roleBody } from '../organizations/org-helpers.ts';
import { ORGANIZATION_MODULES } from '../../src/http/authorize.ts';
import { businessApps, roles } from '../../src/platform/db/schema/index.ts';

/**
 * RUNTIME "Who may do what": a member who may edit roles cannot change the role they hold, and grants only module
 * rights and quotas they hold themselves (in the roles they create or edit, and in the roles they give members);
 * the owner may do anything.
 */
let t: TestApp;
let owner: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  owner = await createUser(t, { name: 'Olga Owner' });
});
afterAll(async () => {
  await t?.close();
});

const EVERYTHING = ORGANIZATION_MODULES.map((moduleName) => ({ moduleName }));
const ALL_RIGHTS = { canView: true, canAdd: true, canEdit: true, canDelete: true };

async function storedRole(id: number) {
  const [row] = await t.platform.db.select().from(roles).where(eq(roles.id, id));
  return row;
}

function expectRefused(res: { status: number; body: any }, label: string) {
  expect([res.status, res.body?.message], `${label}: ${JSON.stringify(res.body)}`).toEqual([
    403,
    'USER_NOT_HAVE_ACCESS',
  ]);
}

describe('the probed escalation', () => {
  it('a member whose role grants ROLES edit cannot give that role every module and huge quotas, nor then read billing or disable an app', async () => {
    const role = await createRole(t, owner, {
      name: 'Role editors',
      permissions: [grant('ROLES', { canView: true, canEdit: true })],
    });
    const member = await addMember(t, owner, role.id, 'Eve Escalator');
    const app = await insertBusinessApp(t, owner.organizationId);
    const before = await storedRole(role.id);
    const huge = { ...ALL_ALLOWED, quotaElectronic: 1_000_000, quotaAdvanced: 1_000_000, quotaQualified: 1_000_000 };

    expectRefused(
      await t.request('PUT', `/user/v1/roles/${role.id}`, {
        token: member.token,
        body: roleBody({ name: 'Role editors', permissions: EVERYTHING, signatureSettings: huge }),
      }),
      'PUT role',
    );
    expectRefused(
      await t.request('PUT', `/user/v1/roles/${role.id}/permissions`, { token: member.token, body: EVERYTHING }),
      'PUT permissions',
    );
    // Not even a change within their rights: the role they hold is the owner's to change.
    expectRefused(
      await t.request('PUT', `/user/v1/roles/${role.id}`, {
        token: member.token,
        body: roleBody({ name: 'Role editors (renamed)', permissions: [grant('ROLES', { canView: true })] }),
      }),
      'PUT role within',
    );
    expectRefused(
      await t.request('PUT', `/user/v1/roles/${role.id}/permissions`, { token: member.token, body: [] }),
      'PUT permissions []',
    );
    expect(await storedRole(role.id)).toEqual(before);

    expectRefused(await t.request('GET', '/organization/v1/billing', { token: member.token }), 'billing');
    expectRefused(
      await t.request('PUT', `/organization/v1/apps/${app.appId}/status`, {
        token: member.token,
        body: { status: false },
      }),
      'app status',
    );
    const [stored] = await t.platform.db
      .select({ status: businessApps.status })
      .from(businessApps)
      .where(eq(businessApps.id, app.appId));
    expect(stored.status).toBe(true);
  });
});

describe('roles a member creates', () => {
  it("grant at most each module right, signature permission and quota of the member's own role", async () => {
    const own = await createRole(t, owner, {
      name: 'Role makers',
      permissions: [
        grant('ROLES', { canView: true, canAdd: true }),
        grant('TEMPLATES', { canView: true, canAdd: true }),
      ],
      signatureSettings: { ...ALL_ALLOWED, allowSignQualified: false, quotaElectronic: 50 },
    });
    const member = await addMember(t, owner, own.id, 'Rita Rolemaker');
    const create = (overrides: Record<string, unknown>) =>
      t.request('POST', '/user/v1/roles', {
        token: member.token,
        body: roleBody({
          signatureSettings: { ...ALL_ALLOWED, allowSignQualified: false, quotaElectronic: 50 },
          ...overrides,
        }),
      });
    const rolesBefore = (await t.platform.db.select({ id: roles.id }).from(roles)).length;
    const refused: [string, Record<string, unknown>][] = [
      ['a module not held', { permissions: [grant('BILLING_DETAILS', { canView: true })] }],
      ['a right not held on a held module', { permissions: [grant('ROLES', { canView: true, canEdit: true })] }],
      ['rights omitted default to true', { permissions: [{ moduleName: 'TEMPLATES' }] }],
      ['a signature permission not held', { signatureSettings: { ...ALL_ALLOWED, quotaElectronic: 50 } }],
      [
        'a quota above the own one',
        { signatureSettings: { ...ALL_ALLOWED, allowSignQualified: false, quotaElectronic: 51 } },
      ],
    ];
    for (const [label, overrides] of refused) expectRefused(await create(overrides), label);
    expect((await t.platform.db.select({ id: roles.id }).from(roles)).length).toBe(rolesBefore);

    const within = await create({
      permissions: [grant('ROLES', { canView: true }), grant('TEMPLATES', { canView: true, canAdd: true })],
    });
    expect(within.status, JSON.stringify(within.body)).toBe(200);
    const lesser = await create({
      permissions: [],
      signatureSettings: {
        ...ALL_ALLOWED,
        allowSignQualified: false,
        allowDocSend: false,
        quotaElectronic: 0,
        quotaAdvanced: 0,
        quotaQualified: 0,
      },
    });
    expect(lesser.status, JSON.stringify(lesser.body)).toBe(200);
  });
});

describe('roles a member edits or deletes', () => {
  it('only roles within their own, and only to rights within their own', async () => {
    const own = await createRole(t, owner, {
      name: 'Role admins',
      permissions: [grant('ROLES', ALL_RIGHTS), grant('TEMPLATES', ALL_RIGHTS)],
    });
    const member = await addMember(t, owner, own.id, 'Ada Admin');
    const weaker = await createRole(t, owner, {
      name: 'Template readers',
      permissions: [grant('TEMPLATES', { canView: true })],
    });
    const stronger = await createRole(t, owner, { name: 'Everything', permissions: EVERYTHING });
    const strongerBefore = await storedRole(stronger.id);

    expectRefused(
      await t.request('PUT', `/user/v1/roles/${weaker.id}`, {
        token: member.token,
        body: roleBody({ name: 'Template readers', permissions: [grant('USERS', { canView: true })] }),
      }),
      'add USERS',
    );
    expectRefused(
      await t.request('PUT', `/user/v1/roles/${weaker.id}/permissions`, {
        token: member.token,
        body: [grant('TEMPLATES', { canView: true }), grant('BRANDING', { canView: true })],
      }),
      'add BRANDING',
    );
    expectRefused(
      await t.request('PUT', `/user/v1/roles/${weaker.id}`, {
        token: member.token,
        body: roleBody({ name: 'Template readers', signatureSettings: { ...ALL_ALLOWED, quotaAdvanced: 11 } }),
      }),
      'raise a quota',
    );
    // A role beyond their own is not theirs to touch, even to take rights away.
    expectRefused(
      await t.request('PUT', `/user/v1/roles/${stronger.id}/permissions`, { token: member.token, body: [] }),
      'strip a stronger role',
    );
    expectRefused(
      await t.request('PUT', `/user/v1/roles/${stronger.id}`, {
        token: member.token,
        body: roleBody({ name: 'Everything', permissions: [] }),
      }),
      'rename a stronger role',
    );
    expectRefused(
      await t.request('DELETE', `/user/v1/roles?roleId=${stronger.id}`, { token: member.token }),
      'delete a stronger role',
    );
    expectRefused(
      await t.request('DELETE', `/user/v1/roles?roleId=${own.id}`, { token: member.token }),
      'delete the own role',
    );
    expect(await storedRole(stronger.id)).toEqual(strongerBefore);

    const edited = await t.request('PUT', `/user/v1/roles/${weaker.id}/permissions`, {
      token: member.token,
      body: [grant('TEMPLATES', { canView: true, canEdit: true }), grant('ROLES', { canView: true })],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const renamed = await t.request('PUT', `/user/v1/roles/${weaker.id}`, {
      token: member.token,
      body: roleBody({ name: 'Template editors' }),
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await t.request('DELETE', `/user/v1/roles?roleId=${weaker.id}`, { token: member.token })).status).toBe(204);
  });
});

describe('roles a member gives to members', () => {
  it("none: giving a role (PUT user_role) is the owner's alone, whatever the member's USERS rights", async () => {
    const own = await createRole(t, owner, {
      name: 'People managers',
      permissions: [grant('USERS', { canView: true, canEdit: true })],
    });
    const manager = await addMember(t, owner, own.id, 'Pam Manager');
    const weaker = await createRole(t, owner, {
      name: 'User readers',
      permissions: [grant('USERS', { canView: true })],
    });
    const stronger = await createRole(t, owner, { name: 'All powers', permissions: EVERYTHING });
    const colleague = await addMember(t, owner, weaker.id, 'Carl Colleague');
    const boss = await addMember(t, owner, stronger.id, 'Bea Boss');
    const assign = (userId: number, roleId: number | null) =>
      t.request('PUT', '/organization/v1/user_role', { token: manager.token, body: { userId, roleId } });

    expectRefused(await assign(colleague.userId, stronger.id), 'give a stronger role');
    expectRefused(await assign(boss.userId, weaker.id), 'demote a stronger member');
    expectRefused(await assign(boss.userId, null), 'strip a stronger member');
    expectRefused(await assign(manager.userId, stronger.id), 'themselves');
    expectRefused(await assign(colleague.userId, own.id), 'a role within their own');
    const users = await t.request('GET', '/organization/v1/users?size=50', { token: owner.token });
    const roleOf = (userId: number) => users.body.content.find((m: any) => m.userId === userId)?.roleId;
    expect([roleOf(colleague.userId), roleOf(boss.userId), roleOf(manager.userId)]).toEqual([
      weaker.id,
      stronger.id,
      own.id,
    ]);
  });
});

describe('the owner', () => {
  it('creates, edits and gives any role', async () => {
    const all = await t.request('POST', '/user/v1/roles', {
      token: owner.token,
      body: roleBody({ permissions: EVERYTHING, signatureSettings: { ...ALL_ALLOWED, quotaElectronic: 1_000_000 } }),
    });
    expect(all.status).toBe(200);
    const member = await addMember(t, owner, null, 'Nia New');
    expect(
      (
        await t.request('PUT', '/organization/v1/user_role', {
          token: owner.token,
          body: { userId: member.userId, roleId: all.body.id },
        })
      ).status,
    ).toBe(200);
    expect(
      (await t.request('PUT', `/user/v1/roles/${all.body.id}/permissions`, { token: owner.token, body: [] })).status,
    ).toBe(200);
  });
});
