// The per-process cache of callers' memberships (src/modules/auth/membership-cache.ts): what it keeps, what empties
// it, and that a change made by another instance or another connection reaches a running instance at once.
import { describe, expect, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { test } from '../helpers/fixtures.ts';
import { createUser } from '../helpers/factories.ts';
import { startSecondInstance } from '../web-session/helpers.ts';
import { createMembershipCache } from '../../src/modules/auth/membership-cache.ts';
import type { NotifyHandler } from '../../src/platform/db/client.ts';
import { memberships, roles } from '../../src/platform/db/schema/index.ts';
import type { TestApp } from '../helpers/test-app.ts';
import type { TestUser } from '../helpers/factories.ts';
import { memberOf } from '../billing/organization-callers.ts';

const subjectOf = (user: { userId: number; organizationId: number }) => ({
  userId: user.userId,
  organizationId: user.organizationId,
});

/** A member of `owner`'s organization whose role lets it view the members; its token acts there. */
async function memberWithRole(t: TestApp, owner: TestUser) {
  const member = await memberOf(t, owner, { USERS: { canView: true } });
  return { user: member, roleId: member.roleId, token: member.token, subject: subjectOf(member) };
}

describe('membership cache', () => {
  test('keeps a membership it found until a change to what it was read from is announced', async ({
    app: t,
    owner,
  }) => {
    const cache = createMembershipCache(t.platform.database);
    const { roleId, subject } = await memberWithRole(t, owner);
    const first = await cache.find(subject);
    expect(first?.roleId).toBe(roleId);
    expect(await cache.find(subject)).toBe(first);

    // A column the check does not read announces nothing: the entry stays.
    await t.platform.db.update(memberships).set({ usedElectronic: 3 }).where(eq(memberships.userId, subject.userId));
    expect(await cache.find(subject)).toBe(first);

    // Each table the check reads empties the cache the moment its change commits (here: through this process).
    await t.platform.db.update(roles).set({ permissions: [] }).where(eq(roles.id, roleId));
    const afterRole = await cache.find(subject);
    expect(afterRole).not.toBe(first);
    expect(afterRole?.rolePermissions).toEqual([]);
    await t.platform.db.transaction(async (tx) => {
      await tx
        .update(memberships)
        .set({ status: 'DECLINED' })
        .where(and(eq(memberships.userId, subject.userId), eq(memberships.organizationId, subject.organizationId)));
    });
    expect(await cache.find(subject)).toBeNull();
  });

  test('a refusal is not kept: a membership that starts counts at once', async ({ app: t, owner }) => {
    const cache = createMembershipCache(t.platform.database);
    const user = await createUser(t, { name: 'Late Joiner' });
    const subject = { userId: user.userId, organizationId: owner.organizationId };
    expect(await cache.find(subject)).toBeNull();
    await t.platform.db.insert(memberships).values({
      organizationId: owner.organizationId,
      userId: user.userId,
      status: 'ACTIVE',
      name: 'Late Joiner',
      joinedAt: new Date(),
    });
    expect(await cache.find(subject)).not.toBeNull();
  });

  test('a read under way when a change is announced is answered but not kept', async ({ app: t }) => {
    const user = await createUser(t, { name: 'In Flight' });
    let announce: NotifyHandler = () => {};
    const cache = createMembershipCache({
      db: t.platform.db,
      onNotify: (_channel, handler) => {
        announce = handler;
      },
    });
    const reading = cache.find(subjectOf(user));
    announce('');
    const answered = await reading;
    expect(answered).not.toBeNull();
    const next = await cache.find(subjectOf(user));
    expect(next).not.toBe(answered);
    expect(await cache.find(subjectOf(user))).toBe(next);
  });

  test('entries expire (ttlMs), and the oldest goes first when it is full', async ({ app: t }) => {
    const users = [await createUser(t), await createUser(t), await createUser(t)];
    const expiring = createMembershipCache(t.platform.database, { ttlMs: 0 });
    const once = await expiring.find(subjectOf(users[0]));
    expect(await expiring.find(subjectOf(users[0]))).not.toBe(once);

    const small = createMembershipCache(t.platform.database, { maxEntries: 2 });
    // One after another: concurrent reads could open new pool connections, and a new connection counts as a
    // notification (the reads under way are then answered but not kept).
    const kept = [];
    for (const user of users) kept.push(await small.find(subjectOf(user)));
    expect(await small.find(subjectOf(users[2]))).toBe(kept[2]);
    expect(await small.find(subjectOf(users[1]))).toBe(kept[1]);
    expect(await small.find(subjectOf(users[0]))).not.toBe(kept[0]);
  });

  test("over HTTP: a role taken away through the API applies to the member's very next request", async ({
    app: t,
    owner,
  }) => {
    const { roleId, token } = await memberWithRole(t, owner);
    const users = () => t.request('GET', '/organization/v1/users?page=0&size=5', { token });
    expect((await users()).status).toBe(200);
    expect((await users()).status).toBe(200);
    const replaced = await t.request('PUT', `/user/v1/roles/${roleId}/permissions`, {
      token: owner.token,
      body: [
        { moduleName: 'USERS', accessRights: { canView: false, canAdd: false, canEdit: false, canDelete: false } },
      ],
    });
    expect(replaced.status, JSON.stringify(replaced.body)).toBeLessThan(300);
    expect((await users()).status).toBe(403);
  });

  test('two instances: a member removed through one is refused by the other', async ({ app: t, owner }) => {
    const other = await startSecondInstance(t);
    try {
      const { user, token } = await memberWithRole(t, owner);
      const profile = () =>
        other.second.app.inject({
          method: 'GET',
          url: '/user/v1/settings/profile',
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await profile()).statusCode).toBe(200);
      expect((await profile()).statusCode).toBe(200);
      const removed = await t.request('DELETE', `/organization/v1/user?ids=${user.userId}&isJoinedUser=true`, {
        token: owner.token,
      });
      expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
      // On PostgreSQL the other instance hears of it from the database, as soon as one of its idle connections reads
      // the notification (no fixed delay: the first refusal ends the wait).
      await vi.waitFor(async () => expect((await profile()).statusCode).toBe(401), { timeout: 2000, interval: 5 });
    } finally {
      await other.close();
    }
  });

  test.runIf(Boolean(process.env.DATABASE_URL))(
    'PostgreSQL: a change committed by a connection outside the service reaches it',
    async ({ app: t, owner }) => {
      const cache = createMembershipCache(t.platform.database);
      const { subject } = await memberWithRole(t, owner);
      const first = await cache.find(subject);
      expect(await cache.find(subject)).toBe(first);
      const outside = new pg.Client({ connectionString: t.databaseUrl });
      await outside.connect();
      try {
        await outside.query('update memberships set role_id = null where user_id = $1 and organization_id = $2', [
          subject.userId,
          subject.organizationId,
        ]);
      } finally {
        await outside.end();
      }
      await vi.waitFor(async () => expect((await cache.find(subject))?.roleId).toBeNull(), {
        timeout: 2000,
        interval: 5,
      });
    },
  );
});
