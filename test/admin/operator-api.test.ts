import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { createUser, guestToken } from '../helpers/factories.ts';
import { organizations, packageChanges, packages } from '../../src/platform/db/schema/index.ts';
import { clientTokenOf, memberOf, organizationRow } from '../billing/organization-callers.ts';

/**
 * The operator's API under /admin/v1/ (RUNTIME.md "Plans and credits belong to the operator"): Bearer $ADMIN_TOKEN
 * only; it grants and renews packages (recorded with no user), finds organizations, users and packages.
 */
const ADMIN_TOKEN = crypto.randomBytes(24).toString('hex');
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ adminToken: ADMIN_TOKEN });
});
afterAll(async () => t?.close());

const admin = (method: string, url: string, body?: unknown) => t.request(method, url, { token: ADMIN_TOKEN, body });

async function presetId(name: string): Promise<number> {
  const [row] = await t.platform.db.select().from(packages).where(eq(packages.name, name));
  return row.id;
}

/** One request of each operator route, valid apart from who calls. */
async function everyOperatorCall(orgId: number, pkgId: number) {
  return [
    ['PUT', `/admin/v1/organizations/${orgId}/package`, { pkgId }],
    ['PUT', `/admin/v1/organizations/${orgId}/package/renew`, undefined],
    ['GET', '/admin/v1/organizations', undefined],
    ['GET', `/admin/v1/organizations/${orgId}`, undefined],
    ['GET', '/admin/v1/users?search=a', undefined],
    ['GET', '/admin/v1/packages', undefined],
    ['GET', '/admin/v1/workflows/awaiting-seal', undefined],
    ['POST', '/admin/v1/workflows/1/reseal', undefined],
    ['POST', `/admin/v1/organizations/${orgId}/disable`, { reason: 'x' }],
    ['POST', `/admin/v1/organizations/${orgId}/enable`, undefined],
    ['POST', '/admin/v1/users/1/disable', undefined],
    ['POST', '/admin/v1/users/1/enable', undefined],
    ['GET', '/admin/v1/queues', undefined],
    ['GET', `/admin/v1/organizations/${orgId}/export`, undefined],
    ['POST', '/admin/v1/backup/snapshot', undefined],
  ] as const;
}

describe("who may call the operator's API", () => {
  it('covers every route under /admin/v1/', () => {
    const urls = t.routes
      .filter((r) => r.auth === 'operator' && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    expect(urls).toEqual([
      'GET /admin/v1/organizations',
      'GET /admin/v1/organizations/:orgId',
      'GET /admin/v1/organizations/:orgId/export',
      'GET /admin/v1/packages',
      'GET /admin/v1/queues',
      'GET /admin/v1/users',
      'GET /admin/v1/workflows/awaiting-seal',
      'POST /admin/v1/backup/snapshot',
      'POST /admin/v1/organizations/:orgId/disable',
      'POST /admin/v1/organizations/:orgId/enable',
      'POST /admin/v1/users/:userId/disable',
      'POST /admin/v1/users/:userId/enable',
      'POST /admin/v1/workflows/:workflowId/reseal',
      'PUT /admin/v1/organizations/:orgId/package',
      'PUT /admin/v1/organizations/:orgId/package/renew',
    ]);
  });

  it("no token, a user's, a business app's or a guest's token, a wrong or partial admin token: 401 on every route, nothing changes", async () => {
    const owner = await createUser(t);
    const editor = await memberOf(t, owner, { BILLING_DETAILS: { canView: true, canEdit: true } });
    const before = await organizationRow(t, owner.organizationId);
    const wrong = [
      undefined,
      owner.token,
      editor.token,
      await clientTokenOf(t, owner),
      await guestToken(t, { id: 1, userId: owner.userId, workflowId: 1 }),
      crypto.randomBytes(24).toString('hex'),
      ADMIN_TOKEN.slice(0, -1),
      `${ADMIN_TOKEN}x`,
      ADMIN_TOKEN.toUpperCase(),
    ];
    const failures: string[] = [];
    for (const [method, url, body] of await everyOperatorCall(owner.organizationId, await presetId('Enterprise'))) {
      for (const token of wrong) {
        const res = await t.request(method, url, { token, body });
        if (res.status !== 401 || res.body.message !== 'UNAUTHORIZED')
          failures.push(`${method} ${url} (${token?.slice(0, 8)}) → ${res.status}`);
      }
      // The admin token in any other form than a bearer.
      const basic = await t.request(method, url, { body, headers: { authorization: `Basic ${ADMIN_TOKEN}` } });
      if (basic.status !== 401) failures.push(`${method} ${url} (Basic) → ${basic.status}`);
    }
    expect(failures).toEqual([]);
    expect(await organizationRow(t, owner.organizationId)).toEqual(before);
  });

  it('with ADMIN_TOKEN unset the API is off: 401 whatever is sent', async () => {
    const off = await createTestApp();
    try {
      const owner = await createUser(off);
      for (const [method, url, body] of await everyOperatorCall(owner.organizationId, 1)) {
        for (const token of [undefined, ADMIN_TOKEN, '', 'undefined']) {
          const res = await off.request(method, url, { token, body });
          expect(res.status, `${method} ${url}`).toBe(401);
        }
      }
    } finally {
      await off.close();
    }
  });
});

describe('PUT /admin/v1/organizations/{orgId}/package and /renew', () => {
  it("puts an organization on a priced package for a new cycle, recorded as the operator's; renewing restarts the cycle", async () => {
    const owner = await createUser(t);
    await t.platform.db.update(organizations).set({ credits: 7 }).where(eq(organizations.id, owner.organizationId));
    const enterprise = await presetId('Enterprise');
    const granted = await admin('PUT', `/admin/v1/organizations/${owner.organizationId}/package`, {
      pkgId: enterprise,
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body).toMatchObject({
      orgId: owner.organizationId,
      package: { id: enterprise, name: 'Enterprise' },
      credits: 10000,
      expired: false,
      selfService: false,
    });
    expect(await organizationRow(t, owner.organizationId)).toMatchObject({ packageId: enterprise, credits: 10000 });
    // The owner sees it, and may now use what the plan unlocks; but renewing it stays the operator's.
    expect((await t.request('GET', '/organization/v1/billing', { token: owner.token })).body).toMatchObject({
      package: { name: 'Enterprise' },
      credits: 10000,
    });
    expect(
      (await t.request('PUT', `/auth/v1/package/renew?orgId=${owner.organizationId}`, { token: owner.token })).body
        .message,
    ).toBe('PAYMENT_REQUIRED');

    await t.platform.db.update(organizations).set({ credits: 2 }).where(eq(organizations.id, owner.organizationId));
    const renewed = await admin('PUT', `/admin/v1/organizations/${owner.organizationId}/package/renew`);
    expect(renewed.status, JSON.stringify(renewed.body)).toBe(200);
    expect(renewed.body).toMatchObject({ package: { id: enterprise }, credits: 10000 });
    const changes = await t.platform.db
      .select()
      .from(packageChanges)
      .where(eq(packageChanges.organizationId, owner.organizationId));
    expect(changes.map((c) => [c.action, c.toPackageId, c.creditsBefore, c.creditsAfter, c.byUserId])).toEqual([
      ['OPERATOR_UPDATE', enterprise, 7, 10000, null],
      ['OPERATOR_RENEW', enterprise, 2, 10000, null],
    ]);
  });

  it('grants a custom package; refuses a retired one (400 PACKAGE_NOT_AVAILABLE); 404 for an unknown organization or package', async () => {
    const owner = await createUser(t);
    const [custom] = await t.platform.db
      .insert(packages)
      .values({
        name: 'Acme deal',
        credits: 777,
        creditsPrice: 0.2,
        duration: 90,
        servicePlan: 'CUSTOM',
        preset: false,
      })
      .returning();
    const res = await admin('PUT', `/admin/v1/organizations/${owner.organizationId}/package`, { pkgId: custom.id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ package: { name: 'Acme deal', preset: false }, credits: 777 });
    const [retired] = await t.platform.db
      .insert(packages)
      .values({ name: 'Retired', credits: 5, duration: 30, servicePlan: 'OLD', status: 'INACTIVE' })
      .returning();
    const refused = await admin('PUT', `/admin/v1/organizations/${owner.organizationId}/package`, {
      pkgId: retired.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: 'PACKAGE_NOT_AVAILABLE', errorCode: 16101 });
    expect((await organizationRow(t, owner.organizationId)).packageId).toBe(custom.id);
    expect((await admin('PUT', `/admin/v1/organizations/2147483647/package`, { pkgId: custom.id })).status).toBe(404);
    expect((await admin('PUT', `/admin/v1/organizations/2147483647/package/renew`)).status).toBe(404);
    expect(
      (await admin('PUT', `/admin/v1/organizations/${owner.organizationId}/package`, { pkgId: 2147483647 })).status,
    ).toBe(404);
  });

  it('a switched-off service plan stays off: the grant records the package, sending stays refused', async () => {
    const owner = await createUser(t);
    await t.platform.db
      .update(organizations)
      .set({ servicePlanActive: false })
      .where(eq(organizations.id, owner.organizationId));
    const res = await admin('PUT', `/admin/v1/organizations/${owner.organizationId}/package`, {
      pkgId: await presetId('Business'),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ package: { name: 'Business' }, servicePlanActive: false });
  });

  it('refuses malformed requests with 400', async () => {
    const owner = await createUser(t);
    const pkgId = await presetId('Business');
    for (const body of [{}, { pkgId: String(pkgId) }, { pkgId: 0 }, { pkgId: -1 }, { pkgId: null }, [], 'x']) {
      expect(
        (await admin('PUT', `/admin/v1/organizations/${owner.organizationId}/package`, body)).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect((await admin('PUT', '/admin/v1/organizations/abc/package', { pkgId })).status).toBe(400);
    expect((await admin('PUT', '/admin/v1/organizations/0/package/renew')).status).toBe(400);
    expect((await admin('GET', '/admin/v1/organizations?size=0')).status).toBe(400);
    expect((await admin('GET', `/admin/v1/users?search=${'a'.repeat(256)}`)).status).toBe(400);
    expect((await admin('GET', '/admin/v1/workflows/awaiting-seal?sealStatus=SEALED')).status).toBe(400);
  });
});

describe('finding organizations, users and packages', () => {
  const tag = crypto.randomBytes(4).toString('hex');
  let owners: Awaited<ReturnType<typeof createUser>>[];
  beforeAll(async () => {
    owners = [];
    for (const name of ['Alba Adams', 'Bruno Brown', 'Cora Clark'])
      owners.push(await createUser(t, { name, email: `${name.split(' ')[0].toLowerCase()}.${tag}@acme.example` }));
  });

  it('GET /admin/v1/organizations: by owner email, name or exact id, paged as {content, totalElements}', async () => {
    const all = await admin('GET', `/admin/v1/organizations?search=${tag}`);
    expect(all.status).toBe(200);
    expect(all.body.totalElements).toBe(3);
    expect(all.body.content.map((o: any) => o.owner.email)).toEqual(owners.map((o) => o.email));
    expect(all.body.content[0]).toEqual({
      id: owners[0].organizationId,
      name: "Alba Adams's organization",
      createdAt: expect.any(String),
      owner: { userId: owners[0].userId, name: 'Alba Adams', email: owners[0].email },
      package: { id: await presetId('Starter'), name: 'Starter', creditsPrice: 0, preset: true, status: 'ACTIVE' },
      credits: 50,
      packageStartedAt: expect.any(String),
      packageExpiresAt: expect.any(String),
      expired: false,
      servicePlanActive: true,
      activeMembers: 1,
      disabled: false,
      disabledAt: null,
      disabledBy: null,
      disabledReason: null,
    });
    const second = await admin('GET', `/admin/v1/organizations?search=${tag}&page=1&size=2`);
    expect(second.body).toMatchObject({ totalElements: 3, content: [{ id: owners[2].organizationId }] });
    expect(
      (await admin('GET', "/admin/v1/organizations?search=BRUNO BROWN's")).body.content.map((o: any) => o.id),
    ).toContain(owners[1].organizationId);
    expect(
      (await admin('GET', `/admin/v1/organizations?search=${owners[1].organizationId}`)).body.content.map(
        (o: any) => o.id,
      ),
    ).toContain(owners[1].organizationId);
    expect((await admin('GET', `/admin/v1/organizations?search=%25${tag}`)).body.totalElements).toBe(0);
    const one = await admin('GET', `/admin/v1/organizations/${owners[2].organizationId}`);
    expect(one.body).toMatchObject({ id: owners[2].organizationId, owner: { email: owners[2].email } });
    expect((await admin('GET', '/admin/v1/organizations/2147483647')).status).toBe(404);
  });

  it('GET /admin/v1/users: by name, email or id, with their organizations', async () => {
    const member = await memberOf(t, owners[0], { BILLING_DETAILS: { canView: true } });
    expect((await admin('GET', `/admin/v1/organizations/${owners[0].organizationId}`)).body.activeMembers).toBe(2);
    const found = await admin('GET', `/admin/v1/users?search=${member.email}`);
    expect(found.body.totalElements).toBe(1);
    expect(found.body.content[0]).toEqual({
      id: member.userId,
      name: member.name,
      email: member.email,
      isGuest: false,
      emailVerified: true,
      twoFactorEnabled: false,
      createdAt: expect.any(String),
      organizations: expect.arrayContaining([
        {
          organizationId: owners[0].organizationId,
          name: "Alba Adams's organization",
          isOwner: false,
          status: 'ACTIVE',
        },
        expect.objectContaining({ isOwner: true, status: 'ACTIVE' }),
      ]),
      disabled: false,
      disabledAt: null,
      disabledBy: null,
      disabledReason: null,
    });
    const page = await admin('GET', `/admin/v1/users?search=${tag}&size=2`);
    expect(page.body.totalElements).toBe(3);
    expect(page.body.content.map((u: any) => u.email)).toEqual([owners[0].email, owners[1].email]);
    expect((await admin('GET', `/admin/v1/users?search=${tag}&page=5`)).body).toEqual({
      content: [],
      totalElements: 3,
    });
    expect(
      (await admin('GET', `/admin/v1/users?search=${owners[2].userId}`)).body.content.map((u: any) => u.id),
    ).toContain(owners[2].userId);
  });

  it('GET /admin/v1/packages: presets and custom packages, any status', async () => {
    const [custom] = await t.platform.db
      .insert(packages)
      .values({ name: `Deal ${tag}`, credits: 1, duration: 1, servicePlan: 'CUSTOM', preset: false })
      .returning();
    const res = await admin('GET', `/admin/v1/packages?search=${tag}`);
    expect(res.body).toMatchObject({ totalElements: 1, content: [{ id: custom.id, preset: false }] });
    const all = await admin('GET', '/admin/v1/packages?size=1000');
    expect(all.body.content.map((p: any) => p.name)).toEqual(
      expect.arrayContaining(['Starter', 'Business', 'Enterprise', `Deal ${tag}`]),
    );
  });
});

describe('logging', () => {
  it('writes one line per call with the operator action, never the token; a refused call at warn', async () => {
    const owner = await createUser(t);
    const info = vi.spyOn(t.platform.logger, 'info');
    const warn = vi.spyOn(t.platform.logger, 'warn');
    try {
      const pkgId = await presetId('Business');
      await admin('PUT', `/admin/v1/organizations/${owner.organizationId}/package`, { pkgId });
      await t.request('PUT', `/admin/v1/organizations/${owner.organizationId}/package/renew`, { token: owner.token });
      await admin('GET', '/admin/v1/users?search=nobody');
      const lines = (calls: unknown[][]) =>
        calls.map(([line]) => line as { operator?: Record<string, unknown> }).filter((line) => line?.operator);
      const written = [...lines(info.mock.calls), ...lines(warn.mock.calls)];
      expect(lines(info.mock.calls).map((l) => l.operator)).toEqual([
        { action: 'grant-package', statusCode: 200, orgId: owner.organizationId, pkgId },
        { action: 'find-users', statusCode: 200, search: 'nobody', page: 0, size: 20 },
      ]);
      expect(lines(warn.mock.calls).map((l) => l.operator)).toEqual([
        { action: 'renew-package', statusCode: 401, orgId: String(owner.organizationId) },
      ]);
      expect(written).toHaveLength(3);
      expect(JSON.stringify(written)).not.toContain(ADMIN_TOKEN);
    } finally {
      info.mockRestore();
      warn.mockRestore();
    }
  });
});
