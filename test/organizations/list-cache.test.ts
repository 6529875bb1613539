import { describe, expect, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { test } from '../helpers/fixtures.ts';
import { listenTo } from '../helpers/notifications.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import type { TestApp } from '../helpers/test-app.ts';
import { startSecondInstance } from '../web-session/helpers.ts';
import type { NotifyHandler } from '../../src/platform/db/client.ts';
import { createNotifiedCache } from '../../src/platform/db/notified-cache.ts';
import { memberships, roles, users } from '../../src/platform/db/schema/index.ts';
import { createTemplate, sourceWorkflow, templatesMember } from '../templates/template-helpers.ts';
import { addMember, createRole, grant, roleBody } from './org-helpers.ts';

/** A cache whose notifications the test sends itself. */
function cacheWithAnnouncer(options: Parameters<typeof createNotifiedCache>[2] = {}) {
  let announce: NotifyHandler = () => {};
  const cache = createNotifiedCache(
    {
      onNotify: (_channel, handler) => {
        announce = handler;
      },
    },
    'members_roles_changed',
    options,
  );
  let computed = 0;
  const read = (organizationId: number, key = 'page') =>
    cache.read(organizationId, key, async () => ({ organizationId, key, n: ++computed }));
  return { cache, read, announce: (payload: string | undefined) => announce(payload), computed: () => computed };
}

describe('organization cache', () => {
  test("keeps an answer per organization and key; an organization's announcement forgets only its answers", async () => {
    const { read, announce, computed } = cacheWithAnnouncer();
    const a = await read(1);
    const b = await read(2);
    expect(await read(1)).toBe(a);
    expect(await read(1, 'other')).not.toBe(a);
    expect(computed()).toBe(3);
    announce('1');
    expect(await read(1)).not.toBe(a);
    expect(await read(2)).toBe(b);
    // An empty payload, or a notification possibly missed (a new connection), forgets every organization.
    const b2 = await read(2);
    announce('');
    expect(await read(2)).not.toBe(b2);
    const b3 = await read(2);
    announce(undefined);
    expect(await read(2)).not.toBe(b3);
  });

  test("a read under way when its organization's change is announced is answered but not kept; others' are kept", async () => {
    const { read, announce } = cacheWithAnnouncer();
    const mine = read(1);
    const theirs = read(2);
    announce('1');
    const answered = await mine;
    expect(answered.organizationId).toBe(1);
    expect(await read(1)).not.toBe(answered);
    expect(await read(2)).toBe(await theirs);
  });

  test('requests for a page being read share that read; a read that fails is not kept', async () => {
    const { cache } = cacheWithAnnouncer();
    let computed = 0;
    let release = () => {};
    const slow = () =>
      cache.read(
        1,
        'page',
        () =>
          new Promise<number>((resolve) => {
            computed++;
            release = () => resolve(computed);
          }),
      );
    const first = slow();
    const second = slow();
    release();
    expect(await first).toBe(1);
    expect(await second).toBe(1);
    expect(computed).toBe(1);

    let attempts = 0;
    const failing = () =>
      cache.read(2, 'page', async () => {
        attempts++;
        throw new Error('database went away');
      });
    await expect(failing()).rejects.toThrow('database went away');
    await expect(failing()).rejects.toThrow('database went away');
    expect(attempts).toBe(2);
  });

  test('bounded: answers per group, and weight in all (the least recently read group first); entries expire', async () => {
    const { read } = cacheWithAnnouncer({ maxPerGroup: 2, maxWeight: 3 });
    const k1 = await read(1, 'k1');
    const k2 = await read(1, 'k2');
    await read(1, 'k3');
    expect(await read(1, 'k2')).toBe(k2);
    expect(await read(1, 'k1')).not.toBe(k1);
    const two = await read(2);
    const k1Again = await read(1, 'k1');
    const three = await read(3);
    // Weight 4: group 2, read least recently, went when 3 came; 1 and 3 stay.
    expect(await read(1, 'k1')).toBe(k1Again);
    expect(await read(3)).toBe(three);
    expect(await read(2)).not.toBe(two);

    // A page weighs its items once answered: a page of 1,000 pushes out everything older, and is kept alone.
    const pages = cacheWithAnnouncer({ maxWeight: 1_000 });
    const small = await pages.cache.read(
      1,
      'small',
      async () => [1, 2, 3],
      (items) => items.length,
    );
    expect(
      await pages.cache.read(
        1,
        'small',
        async () => [],
        (items) => items.length,
      ),
    ).toBe(small);
    const big = await pages.cache.read(
      2,
      'big',
      async () => Array.from({ length: 1_000 }, (_, i) => i),
      (items) => items.length,
    );
    expect(
      await pages.cache.read(
        2,
        'big',
        async () => [],
        (items) => items.length,
      ),
    ).toBe(big);
    expect(
      await pages.cache.read(
        1,
        'small',
        async () => [9],
        (items) => items.length,
      ),
    ).toEqual([9]);

    const expiring = cacheWithAnnouncer({ ttlMs: 0 });
    const once = await expiring.read(1);
    expect(await expiring.read(1)).not.toBe(once);
  });

  test('the triggers announce the organization whose lists a write changes, and nothing for columns no list shows', async ({
    app: t,
  }) => {
    const heard = await listenTo(t, 'members_roles_changed');
    const after = (work: () => Promise<unknown>) => heard.after(work);
    try {
      const owner = await createUser(t);
      const role = await createRole(t, owner);
      const member = await addMember(t, owner, role.id, 'Nora Notice');
      const org = String(owner.organizationId);
      await after(async () => {});
      const { db } = t.platform;
      expect(
        await after(() =>
          db.update(memberships).set({ usedElectronic: 1 }).where(eq(memberships.userId, member.userId)),
        ),
      ).toContain(org);
      expect(await after(() => db.update(roles).set({ name: 'Renamed Role' }).where(eq(roles.id, role.id)))).toContain(
        org,
      );
      expect(
        await after(() =>
          db
            .update(users)
            .set({ email: `nora.${Date.now()}@example.com` })
            .where(eq(users.id, member.userId)),
        ),
      ).toContain(org);
      expect(
        await after(() => db.update(users).set({ name: 'Nora Renamed' }).where(eq(users.id, member.userId))),
      ).toContain(org);
      // A column no list shows, or a value written unchanged, announces nothing.
      expect(await after(() => db.update(users).set({ passwordHash: 'x' }).where(eq(users.id, member.userId)))).toEqual(
        [],
      );
      expect(
        await after(() => db.update(users).set({ name: 'Nora Renamed' }).where(eq(users.id, member.userId))),
      ).toEqual([]);
      // A membership moved between organizations announces both.
      const other = await createUser(t);
      const moved = await after(() =>
        db
          .update(memberships)
          .set({ organizationId: other.organizationId })
          .where(and(eq(memberships.userId, member.userId), eq(memberships.organizationId, owner.organizationId))),
      );
      expect(moved).toEqual(expect.arrayContaining([org, String(other.organizationId)]));
    } finally {
      await heard.close();
    }
  });
});

/** Warms the member list, role list and available roles of `owner`'s organization, then answers the fresh ones. */
function listsOf(t: TestApp, owner: TestUser) {
  const get = async (url: string) => {
    const res = await t.request('GET', url, { token: owner.token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  return {
    members: () => get('/organization/v1/users?page=0&size=20'),
    roles: () => get('/user/v1/roles?page=0&size=20'),
    available: () => get('/user/v1/roles/available'),
  };
}

describe('member and role lists over HTTP: every change shows on the very next read', () => {
  test('renaming a member, changing a role, renewing a quota, a role renamed or deactivated', async ({ app: t }) => {
    const owner = await createUser(t, { name: 'Olga Owner' });
    const clerks = await createRole(t, owner, { name: 'Clerks' });
    const auditors = await createRole(t, owner, { name: 'Auditors' });
    const member = await addMember(t, owner, clerks.id, 'Mia Member');
    const lists = listsOf(t, owner);
    const row = async () => (await lists.members()).content.find((m: any) => m.userId === member.userId);
    const count = async (roleId: number) =>
      (await lists.roles()).content.find((r: any) => r.id === roleId)?.membersCount;
    expect(await row()).toMatchObject({ name: 'Mia Member', roleName: 'Clerks' });
    expect(await count(clerks.id)).toBe(1);
    expect((await lists.available()).map((r: any) => r.roleName).sort()).toEqual(['Auditors', 'Clerks']);

    expect(
      (
        await t.request('PUT', `/organization/v1/user/${member.userId}`, {
          token: owner.token,
          body: { name: 'Mia Renamed' },
        })
      ).status,
    ).toBe(200);
    expect((await row()).name).toBe('Mia Renamed');

    expect(
      (
        await t.request('PUT', '/organization/v1/user_role', {
          token: owner.token,
          body: { userId: member.userId, roleId: auditors.id },
        })
      ).status,
    ).toBe(200);
    expect(await row()).toMatchObject({ roleId: auditors.id, roleName: 'Auditors' });
    expect(await count(clerks.id)).toBe(0);
    expect(await count(auditors.id)).toBe(1);

    expect(
      (
        await t.request('PUT', `/user/v1/roles/${auditors.id}`, {
          token: owner.token,
          body: roleBody({ name: 'Reviewers', status: 'INACTIVE' }),
        })
      ).status,
    ).toBe(200);
    expect((await row()).roleName).toBe('Reviewers');
    expect((await lists.available()).map((r: any) => r.roleName)).toEqual(['Clerks']);

    // Signing counts into the membership (entitlements.repo.ts), outside this module: the trigger covers it too.
    await t.platform.db.update(memberships).set({ usedElectronic: 4 }).where(eq(memberships.userId, member.userId));
    expect((await row()).usedElectronic).toBe(4);
    expect(
      (await t.request('PUT', '/organization/v1/users/renew', { token: owner.token, body: { userId: member.userId } }))
        .status,
    ).toBe(200);
    expect((await row()).usedElectronic).toBe(0);

    expect(
      (
        await t.request('DELETE', `/organization/v1/user?ids=${member.userId}&isJoinedUser=true`, {
          token: owner.token,
        })
      ).status,
    ).toBeLessThan(300);
    expect(await row()).toBeUndefined();
    expect((await lists.members()).totalElements).toBe(1);
  });

  test("an invitation, and the account's own email and name (the name shows where the organization gave none)", async ({
    app: t,
  }) => {
    const owner = await createUser(t);
    const lists = listsOf(t, owner);
    expect((await lists.members()).totalElements).toBe(1);
    const invited = await t.request('POST', '/organization/v1/user', {
      token: owner.token,
      body: { name: 'Ivo Invitee', emailAddress: 'ivo.invitee@example.com' },
    });
    expect(invited.status).toBe(200);
    const row = async () => (await lists.members()).content.find((m: any) => m.userId === invited.body.userId);
    expect(await row()).toMatchObject({ emailAddress: 'ivo.invitee@example.com', hasAccount: false });
    await t.platform.db
      .update(users)
      .set({ email: 'ivo.new@example.com', isGuest: false })
      .where(eq(users.id, invited.body.userId));
    // Still an invitation: hasAccount stays false until the person joins (test/security/invitation-account-oracle.test.ts).
    expect(await row()).toMatchObject({ emailAddress: 'ivo.new@example.com', hasAccount: false });
    await t.platform.db.update(memberships).set({ name: null }).where(eq(memberships.userId, invited.body.userId));
    await t.platform.db.update(users).set({ name: 'Ivo Account' }).where(eq(users.id, invited.body.userId));
    expect((await row()).name).toBe('Ivo Account');
  });

  test("another organization's lists are their own: a page cached for one owner never answers another", async ({
    app: t,
  }) => {
    const first = await createUser(t, { name: 'First Owner' });
    const second = await createUser(t, { name: 'Second Owner' });
    await createRole(t, first, { name: 'Only First' });
    expect((await listsOf(t, first).roles()).content.map((r: any) => r.name)).toEqual(['Only First']);
    expect((await listsOf(t, second).roles()).content).toEqual([]);
    expect((await listsOf(t, second).members()).content.map((m: any) => m.name)).toEqual(['Second Owner']);
  });

  test("two instances: a change through one shows on the other's next reads", async ({ app: t }) => {
    const other = await startSecondInstance(t);
    try {
      const owner = await createUser(t);
      const role = await createRole(t, owner, { name: 'Before Rename' });
      const names = async () => {
        const res = await other.second.app.inject({
          method: 'GET',
          url: '/user/v1/roles',
          headers: { authorization: `Bearer ${owner.token}` },
        });
        return res.json().content.map((r: any) => r.name);
      };
      expect(await names()).toEqual(['Before Rename']);
      expect(await names()).toEqual(['Before Rename']);
      expect(
        (
          await t.request('PUT', `/user/v1/roles/${role.id}`, {
            token: owner.token,
            body: roleBody({ name: 'After Rename' }),
          })
        ).status,
      ).toBe(200);
      // On PostgreSQL the other instance hears of it as soon as one of its idle connections reads the notification.
      await vi.waitFor(async () => expect(await names()).toEqual(['After Rename']), { timeout: 2000, interval: 5 });
    } finally {
      await other.close();
    }
  });

  test.runIf(Boolean(process.env.DATABASE_URL))(
    'PostgreSQL: a change committed by a connection outside the service reaches it',
    async ({ app: t }) => {
      const owner = await createUser(t);
      const role = await createRole(t, owner, { name: 'Outside Before' });
      const lists = listsOf(t, owner);
      expect((await lists.roles()).content[0].name).toBe('Outside Before');
      const outside = new pg.Client({ connectionString: t.databaseUrl });
      await outside.connect();
      try {
        await outside.query('update roles set name = $1 where id = $2', ['Outside After', role.id]);
      } finally {
        await outside.end();
      }
      await vi.waitFor(async () => expect((await lists.roles()).content[0].name).toBe('Outside After'), {
        timeout: 2000,
        interval: 5,
      });
    },
  );
});

describe('template list and names over HTTP: every change shows on the very next read, for each viewer', () => {
  test('a template created, renamed, moved into a restricted folder, the folder opened, deleted: lists, the template and its analytics', async ({
    app: t,
  }) => {
    const owner = await createUser(t, { name: 'Tia Templater' });
    const { role, member } = await templatesMember(t, owner, { canView: true });
    const read = async (token: string) => {
      const page = await t.request('GET', '/organization/v1/templates?page=0&size=20', { token });
      const all = await t.request('GET', '/organization/v1/templates/all', { token });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(all.status).toBe(200);
      const names = page.body.content.map((template: any) => template.name);
      // The page and the names agree (each is cached on its own).
      expect(all.body.map((template: any) => template.name).sort()).toEqual([...names].sort());
      return names;
    };
    expect(await read(owner.token)).toEqual([]);
    expect(await read(member.token)).toEqual([]);

    const source = await sourceWorkflow(t, owner);
    const template = await createTemplate(t, owner.token, { name: 'Lease', workflowId: source.workflow.id });
    expect(await read(owner.token)).toEqual(['Lease']);
    expect(await read(member.token)).toEqual(['Lease']);

    // One template and its analytics start from the same kept read of the template.
    const one = async (token: string) => {
      const [single, analytics] = await Promise.all(
        [`/organization/v1/templates/${template.id}`, `/organization/v1/templates/${template.id}/analytics`].map(
          (url) => t.request('GET', url, { token }),
        ),
      );
      expect(analytics.status).toBe(single.status);
      return single.status === 200 ? [single.body.name, analytics.body.templateName] : single.status;
    };
    expect(await one(member.token)).toEqual(['Lease', 'Lease']);

    expect(
      (
        await t.request('PUT', '/organization/v1/rename/templates', {
          token: owner.token,
          body: { id: template.id, name: 'Lease 2027' },
        })
      ).status,
    ).toBe(200);
    expect(await read(member.token)).toEqual(['Lease 2027']);
    expect(await one(member.token)).toEqual(['Lease 2027', 'Lease 2027']);

    // A folder only another role sees: the member loses the template, the owner keeps it.
    const other = await createRole(t, owner);
    const folder = await t.request('POST', '/organization/v1/template-folders', {
      token: owner.token,
      body: { name: 'Restricted' },
    });
    const access = `/organization/v1/template-folders/${folder.body.id}/access`;
    expect(
      (await t.request('PUT', access, { token: owner.token, body: { roleIds: [other.id], overrideEnabled: true } }))
        .status,
    ).toBeLessThan(300);
    expect(
      (
        await t.request('PUT', '/organization/v1/templates/move', {
          token: owner.token,
          body: { ids: [template.id], folderId: folder.body.id },
        })
      ).status,
    ).toBe(200);
    expect(await read(owner.token)).toEqual(['Lease 2027']);
    expect(await read(member.token)).toEqual([]);
    expect(await one(member.token)).toBe(404);
    expect(await one(owner.token)).toEqual(['Lease 2027', 'Lease 2027']);
    expect(
      (
        await t.request('PUT', access, {
          token: owner.token,
          body: { roleIds: [other.id, role.id], overrideEnabled: true },
        })
      ).status,
    ).toBeLessThan(300);
    expect(await read(member.token)).toEqual(['Lease 2027']);
    expect(await one(member.token)).toEqual(['Lease 2027', 'Lease 2027']);

    expect(
      (await t.request('DELETE', `/organization/v1/templates?ids=${template.id}`, { token: owner.token })).status,
    ).toBeLessThan(300);
    expect(await read(owner.token)).toEqual([]);
    expect(await read(member.token)).toEqual([]);
    expect(await one(owner.token)).toBe(404);
  });

  test("a member's role changed: the view follows the new role at once (the role is part of what is kept)", async ({
    app: t,
  }) => {
    const owner = await createUser(t);
    const admitted = await createRole(t, owner, { permissions: [grant('TEMPLATES', { canView: true })] });
    const { member } = await templatesMember(t, owner, { canView: true });
    const folder = await t.request('POST', '/organization/v1/template-folders', {
      token: owner.token,
      body: { name: 'Admitted Only' },
    });
    expect(
      (
        await t.request('PUT', `/organization/v1/template-folders/${folder.body.id}/access`, {
          token: owner.token,
          body: { roleIds: [admitted.id], overrideEnabled: true },
        })
      ).status,
    ).toBeLessThan(300);
    const source = await sourceWorkflow(t, owner);
    await createTemplate(t, owner.token, { name: 'Inside', workflowId: source.workflow.id, folderId: folder.body.id });
    const names = async () =>
      (await t.request('GET', '/organization/v1/templates', { token: member.token })).body.content.map(
        (template: any) => template.name,
      );
    expect(await names()).toEqual([]);
    expect(
      (
        await t.request('PUT', '/organization/v1/user_role', {
          token: owner.token,
          body: { userId: member.userId, roleId: admitted.id },
        })
      ).status,
    ).toBe(200);
    expect(await names()).toEqual(['Inside']);
  });
});
